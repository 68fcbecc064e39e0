"""The old name of the move log (movelog.py), kept only for a UI module that may still import it (the Obelisk
screens were written beside this change): once no UI module imports it, this module goes."""
from companion.games.obelisk.movelog import move_line as narrate

__all__ = ["narrate"]
