"""Small value objects shared by the engine and the scorer."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Chip:
    """A placed suspicion chip: `by` (owner colour) suspects `on` (target colour) of `mission`.

    RULING obscurians-chip: correct when `mission` equals the target's mission.
    """

    by: str
    on: str
    mission: str


@dataclass(frozen=True)
class EndPlayer:
    name: str
    colour: str
    mission: str
    goods: tuple[tuple[str, int], ...]  # coloured goods only, sorted (colour, count) pairs with count > 0
    lamp: bool = False
    artifact: bool = False

    def goods_dict(self) -> dict[str, int]:
        return dict(self.goods)

    def n_goods(self) -> int:
        """All goods, lamp and artifact included (RULINGS obscurians-give, obscurians-lose)."""
        return sum(n for _, n in self.goods) + self.lamp + self.artifact


@dataclass(frozen=True)
class EndOfGame:
    """Everything the final scoring needs: players in seat order and every placed chip, earliest first."""

    players: tuple[EndPlayer, ...]
    suspicions: tuple[Chip, ...]
