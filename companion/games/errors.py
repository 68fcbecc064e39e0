"""The one error family the rules engines raise."""


class IllegalAction(ValueError):
    """An action the rules forbid. The message is written for players, e.g. "Relocate cannot use Wilds".

    ``rule`` names where the rule stands (a rulebook section or a RULINGS.md id) so the UI can show it.
    """

    def __init__(self, message: str, rule: str = ""):
        super().__init__(message)
        self.rule = rule


class InvalidInput(ValueError):
    """Malformed data (a save file, an END.json, a log line): names the field or line and what is wrong."""
