"""The editable rulings of Obelisk as one value: the group's "rules profile".

What the printed guides say is not in our rulebook, so each is a ruling with a default a group can change to match
the cards in their box:
- RULING obelisk-demons: each colour's speed (tiles per Night) and strength (the Turn Guide);
- RULING obelisk-actions: per player count, the actions per Day, the tiles one Rotate action turns (the Player
  Guides), and whether a player may repeat an action in one Day (the rulebook: only with 1-2 players).
"""
from __future__ import annotations

from dataclasses import dataclass

from companion.games.errors import InvalidInput
from companion.games.obelisk.box import DEMON_COLOURS, MAX_PLAYERS, MIN_PLAYERS
from companion.games.checks import flag, obj, whole
from companion.games.rulings import rules_version_from_json

MAX_SPEED = 10     # tiles a demon walks in one Night (a longer walk always loses: 24 tiles at most)
MAX_DEMON_STRENGTH = 10
MAX_ACTIONS = 10
MAX_ROTATE = 3     # tiles per Rotate action: the advisor ranks every combination within a second up to 3

# Versions of how this engine applies the rules (docs/persistence.md "Rules versions"). Every table records the one
# it was played under (Rules.version) and is replayed under it, so a future correction never rewrites a table.
#   1: the rules as issue 18 built them (3 Dec 2026). Tables stored before the version was recorded are version 1.
RULES_VERSION = 1

# RULING obelisk-demons: green speed 4 / strength 1, yellow 3 / 3, blue 2 / 5.
DEFAULT_DEMONS = (("green", 4, 1), ("yellow", 3, 3), ("blue", 2, 5))
# RULING obelisk-actions: (players, actions per Day, tiles per Rotate, repeating an action allowed).
DEFAULT_ACTIONS = ((1, 4, 3, True), (2, 2, 2, True), (3, 2, 2, False), (4, 1, 2, False))


@dataclass(frozen=True)
class Budget:
    """A player's Day: how many actions, how many tiles a Rotate turns, whether an action may be repeated."""
    actions: int
    rotate: int
    repeat: bool


@dataclass(frozen=True)
class Rules:
    demons: tuple[tuple[str, int, int], ...] = DEFAULT_DEMONS
    actions: tuple[tuple[int, int, int, bool], ...] = DEFAULT_ACTIONS
    # The rules version the table is played under (RULES_VERSION above): today's for every new table.
    version: int = RULES_VERSION

    def __post_init__(self):
        rules_version_from_json({"version": self.version}, RULES_VERSION)
        demons = tuple(tuple(d) for d in self.demons) if isinstance(self.demons, (tuple, list)) else None
        if demons is None or [d[0] for d in demons] != list(DEMON_COLOURS) or any(len(d) != 3 for d in demons):
            raise InvalidInput("rules.demons: expected (colour, speed, strength) for green, yellow and blue")
        for colour, speed, strength in demons:
            whole(f"rules.demons.{colour}.speed", speed, 1, MAX_SPEED)
            whole(f"rules.demons.{colour}.strength", strength, 1, MAX_DEMON_STRENGTH)
        object.__setattr__(self, "demons", demons)
        actions = tuple(tuple(a) for a in self.actions) if isinstance(self.actions, (tuple, list)) else None
        if actions is None or [a[0] for a in actions] != list(range(MIN_PLAYERS, MAX_PLAYERS + 1)) \
                or any(len(a) != 4 for a in actions):
            raise InvalidInput("rules.actions: expected (players, actions, rotate, repeat) for 1 to 4 players")
        for n, count, rotate, repeat in actions:
            whole(f"rules.actions.{n}.actions", count, 1, MAX_ACTIONS)
            whole(f"rules.actions.{n}.rotate", rotate, 1, MAX_ROTATE)
            flag(f"rules.actions.{n}.repeat", repeat)
        object.__setattr__(self, "actions", actions)

    def speed(self, colour: str) -> int:
        return self.demons[DEMON_COLOURS.index(colour)][1]

    def strength(self, colour: str) -> int:
        return self.demons[DEMON_COLOURS.index(colour)][2]

    def budget(self, n_players: int) -> Budget:
        _, count, rotate, repeat = self.actions[n_players - MIN_PLAYERS]
        return Budget(count, rotate, repeat)

    def to_json(self) -> dict:
        return {
            "demons": {c: {"speed": s, "strength": st} for c, s, st in self.demons},
            "actions": {str(n): {"actions": a, "rotate": r, "repeat": rep} for n, a, r, rep in self.actions},
            "version": self.version,
        }

    @staticmethod
    def from_json(d) -> "Rules":
        """A profile; anything left out keeps its default. InvalidInput names the field."""
        if d is None:
            return Rules()
        obj("rules", d, ("demons", "actions", "version"))
        version = rules_version_from_json(d, RULES_VERSION)
        demons = {c: (s, st) for c, s, st in DEFAULT_DEMONS}
        for colour, entry in obj("rules.demons", d.get("demons", {}), DEMON_COLOURS).items():
            e = obj(f"rules.demons.{colour}", entry, ("speed", "strength"))
            demons[colour] = (e.get("speed", demons[colour][0]), e.get("strength", demons[colour][1]))
        actions = {n: (a, r, rep) for n, a, r, rep in DEFAULT_ACTIONS}
        keys = {str(n): n for n in actions}
        for k, entry in obj("rules.actions", d.get("actions", {}), keys).items():
            n = keys[k]
            e = obj(f"rules.actions.{k}", entry, ("actions", "rotate", "repeat"))
            actions[n] = (e.get("actions", actions[n][0]), e.get("rotate", actions[n][1]),
                          e.get("repeat", actions[n][2]))
        return Rules(demons=tuple((c, *demons[c]) for c in DEMON_COLOURS),
                     actions=tuple((n, *actions[n]) for n in sorted(actions)), version=version)
