"""The old names of the move log (movelog.py), kept only for the UI modules that still import them
(companion/ui/obscurians/round.py, end.py; tests/ui/test_play_obscurians.py) until the UI takes the new names: then
this module goes. Nothing else imports it."""
from companion.games.obscurians.movelog import move_line as narrate, move_lines as narrate_all

__all__ = ["narrate", "narrate_all"]
