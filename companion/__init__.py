"""Table Companion: bookkeeping for physical board games (Obscurians, Obscurio, Obelisk)."""

__version__ = "0.1.0"
