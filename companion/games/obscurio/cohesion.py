"""The cohesion gauge: taking tokens one at a time, normal area first, then the dark area.

Rulebook step 4: a token is taken "primero del área más a la izquierda del indicador, luego del área oscura si la
otra área está vacía"; taking the last one from the dark area ends the game at once. Tokens go either onto a
character card (a wrong or missing door) or back to the box (Dangerous Room, a falsely accused wizard).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Gauge:
    """A working copy of the gauge while one action resolves; `fields()` gives the State's new values."""
    normal: int
    dark: int
    box: int
    cards: list[int]

    @staticmethod
    def of(state) -> "Gauge":
        return Gauge(state.normal, state.dark, state.box, list(state.cards))

    @property
    def left(self) -> int:
        return self.normal + self.dark

    def take(self, n: int, card: int | None = None) -> bool:
        """Take up to `n` tokens onto card index `card` (None: to the box). True when the last one was taken."""
        for _ in range(n):
            if self.normal:
                self.normal -= 1
            elif self.dark:
                self.dark -= 1
            else:
                return True
            if card is None:
                self.box += 1
            else:
                self.cards[card] += 1
            if not self.left:
                return True
        return False

    def fields(self) -> dict:
        return {"normal": self.normal, "dark": self.dark, "box": self.box, "cards": tuple(self.cards)}
