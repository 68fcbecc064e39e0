"""Small value objects and words shared by the engine's modules and the scorer; imports nothing from the package.

The state (state.py), its moves (flow.py), what is legal (legal.py) and its JSON (persist.py) all build on these.
"""
from __future__ import annotations

from dataclasses import dataclass

PHASES = ("reveal", "turn", "missions", "over")
TRADE_BAN_SECURES = 4  # RULING obscurians-actions: 4 Secure executions (8 locks) make a trade ban
BONUS_WILDS = 2
ALL = "all"  # `chosen` under All Actions Mandatory: every die's action is carried out


# Goods are small {good: count} dicts without zeros, never changed once a State holds them: these make new ones.

def added(goods: dict, good: str, n: int = 1) -> dict:
    new = dict(goods)
    new[good] = new.get(good, 0) + n
    return new


def removed(goods: dict, good: str) -> dict:
    new = dict(goods)
    n = new[good] - 1
    if n:
        new[good] = n
    else:
        del new[good]
    return new


def merged(a: dict, b: dict) -> dict:
    new = dict(a)
    for g, n in b.items():
        new[g] = new.get(g, 0) + n
    return new


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
