"""Placeholder: replaced by the CLI work."""
def main(argv=None):
    return 0
