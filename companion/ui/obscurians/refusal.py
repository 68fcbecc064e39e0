"""Why a tap or a drag on the round screen does nothing, where no rule of the game is involved."""
from __future__ import annotations


class Refusal(Exception):
    """E.g. "all 5 dice are tapped in": an English msgid of the `companion` catalogue and its params (names and
    numbers), said in the players' language by the screen."""

    def __init__(self, msgid: str, **params):
        super().__init__(msgid.format(**params))
        self.msgid = msgid
        self.params = params
