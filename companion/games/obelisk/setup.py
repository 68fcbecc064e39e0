"""Game setup: who plays which colour, the difficulty, the map, who plays the Dark Realm, the Scrolls, the alternative
rules, the seed and the rules profile — one immutable value for the whole game.

Ids. A player is identified by the colour of their player guide ("blue", "yellow", "green", "black"), as the
actions, the state and `Outcome.winners` name them; names are for people. Obelisks belong to a player: in the 2-4
player game they are the player's colour (with 2 players each also takes one black die, the box having 3 of each
colour), in the solo game any colour, all the player's.

Chance. `realm` says who draws the Stone Demons, the Quarry's starting stones and the Scrolls: "app" (the engine,
with random.Random seeded from `seed`, hidden from the screen) or "table" (the real box top: the group says what
came out). `dice` says who rolls the D6s of Burnout and Instability: "app" or "table". The map is laid by the group
(given as notation) or by the app (left out: shuffled from `seed`).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from companion.games.errors import InvalidInput
from companion.games.obelisk.box import (
    DEFAULT_DIFFICULTY, DEMON_COLOURS, DEMONS_IN_BOX, DIFFICULTIES, MAX_PLAYERS, MIN_PLAYERS, OBELISKS_PER_PLAYER,
    PLAYER_COLOURS, QUARRY_START, TILES, horde,
)
from companion.games.obelisk.readers import stones
from companion.games.obelisk.model import DIRECTIONS, SIZE, GameMap, Stones, Tile
from companion.games.obelisk.notation import map_from_text, map_to_text
from companion.games.obelisk.rules import Rules
from companion.games.checks import choice, flag, obj, typed_name, unique_name, whole

CHANCE = ("app", "table")
MAX_SEED = 2**63 - 1
_FIELDS = ("players", "difficulty", "scrolls", "map", "mountains", "realm", "dice", "quarry", "leadership", "leader",
           "time_trials", "seed", "rules")


def lay_map(rng: random.Random, keep_mountains: bool) -> GameMap:
    """The rulebook's random map: the 25 tiles shuffled face up into a 5 × 5 grid, each pointing a random way; the
    Mountains then removed (left empty) unless they stay (Scrolls, or the Mountain tile's alternative rule)."""
    kinds = [k for k, n in TILES.items() for _ in range(n)]
    rng.shuffle(kinds)
    tiles = []
    for kind in kinds:
        facing = DIRECTIONS[rng.randrange(4)]
        tiles.append(None if kind == "M" and not keep_mountains else Tile(kind, facing))
    assert len(tiles) == SIZE * SIZE
    return GameMap(tuple(tiles))


def supply_at_start(difficulty: str, scrolls: bool) -> Stones:
    """The Stone Demons left in the Supply once the horde is in the Dark Realm."""
    h = horde(difficulty, scrolls)
    return Stones(*(DEMONS_IN_BOX[c] - h[c] for c in ("green", "yellow", "blue")))


def draw_quarry(seed: int, supply: Stones, n: int) -> Stones:
    """The app's draw of the Quarry's starting stones from the Supply."""
    pool = [c for c in DEMON_COLOURS for _ in range(supply[c])]
    return Stones.of(random.Random(f"obelisk-quarry:{seed}").sample(pool, n))


@dataclass(frozen=True)
class Setup:
    players: tuple[tuple[str, str], ...]     # (name, colour) in seating order (clockwise: "on their left" is next)
    map: GameMap
    difficulty: str = DEFAULT_DIFFICULTY
    scrolls: bool = False
    realm: str = "app"
    dice: str = "app"
    quarry: Stones | None = None             # the Quarry's starting stones; None: the app draws them (realm "app")
    leadership: bool = False                 # Rotating Leadership
    leader: int = 0                          # who holds the leader token first (seat index): the longest hair
    time_trials: bool = False                # Time Trials: one minute per Day and per Night
    seed: int = 0
    rules: Rules = field(default_factory=Rules)

    def __post_init__(self):
        if not isinstance(self.rules, Rules):
            raise InvalidInput("rules: expected a Rules profile")
        if not isinstance(self.players, (tuple, list)):
            raise InvalidInput("players: expected a list of (name, colour)")
        players = tuple(tuple(p) if isinstance(p, (tuple, list)) else p for p in self.players)
        n = len(players)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise InvalidInput(f"players: Obelisk is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}")
        names, colours, clean = set(), set(), []
        for i, p in enumerate(players):
            if not (isinstance(p, tuple) and len(p) == 2):
                raise InvalidInput(f"players[{i}]: expected (name, colour)")
            where = f"players[{i}].name"
            name = unique_name(where, typed_name(where, p[0]), names)
            colour = choice(f"players[{i}].colour", p[1], PLAYER_COLOURS, "a player colour (blue, yellow, green, "
                                                                         "black)")
            if colour in colours:
                raise InvalidInput(f"players[{i}].colour: {colour} is already taken")
            colours.add(colour)
            clean.append((name, colour))
        object.__setattr__(self, "players", tuple(clean))
        if not isinstance(self.map, GameMap) or self.map.portal is None:
            raise InvalidInput("map: expected a map with one Portal")
        choice("difficulty", self.difficulty, DIFFICULTIES, "a difficulty (" + ", ".join(DIFFICULTIES) + ")")
        flag("scrolls", self.scrolls)
        choice("realm", self.realm, CHANCE, "'app' or 'table'")
        choice("dice", self.dice, CHANCE, "'app' or 'table'")
        flag("leadership", self.leadership)
        whole("leader", self.leader, 0, n - 1)
        flag("time_trials", self.time_trials)
        whole("seed", self.seed, 0, MAX_SEED)
        object.__setattr__(self, "quarry", self._starting_quarry())

    def _starting_quarry(self) -> Stones:
        due = QUARRY_START[self.n_players]
        supply = supply_at_start(self.difficulty, self.scrolls)
        if self.quarry is None:
            if due and self.realm == "table":
                raise InvalidInput(f"quarry: with {self.n_players} players the Quarry starts with {due} stones drawn "
                                   "from the Supply: say which came out")
            return draw_quarry(self.seed, supply, due)
        if not isinstance(self.quarry, Stones):
            raise InvalidInput("quarry: expected stones by colour")
        if self.quarry.total != due:
            raise InvalidInput(f"quarry: with {self.n_players} player(s) the Quarry starts with {due} stones, "
                               f"not {self.quarry.total}")
        for colour in DEMON_COLOURS:
            if self.quarry[colour] > supply[colour]:
                raise InvalidInput(f"quarry.{colour}: the Supply holds only {supply[colour]} {colour} demons")
        if self.realm == "app" and self.quarry != draw_quarry(self.seed, supply, due):
            raise InvalidInput("quarry: the app draws the Quarry's stones when it plays the Dark Realm")
        return self.quarry

    # ----------------------------------------------------------------- who is who

    @property
    def n_players(self) -> int:
        return len(self.players)

    @property
    def colours(self) -> tuple[str, ...]:
        return tuple(c for _, c in self.players)

    def name_of(self, colour: str) -> str:
        for name, c in self.players:
            if c == colour:
                return name
        raise KeyError(colour)

    def seat(self, colour: str) -> int:
        return self.colours.index(colour)

    @property
    def obelisks_each(self) -> int:
        return OBELISKS_PER_PLAYER[self.n_players]

    @property
    def horde(self) -> Stones:
        h = horde(self.difficulty, self.scrolls)
        return Stones(h["green"], h["yellow"], h["blue"])

    @property
    def supply(self) -> Stones:
        """The Supply's Stone Demons at the start of the game (the Quarry's starting stones taken out)."""
        return supply_at_start(self.difficulty, self.scrolls) - self.quarry

    # ----------------------------------------------------------------- JSON

    def to_json(self) -> dict:
        return {
            "players": [{"name": name, "colour": colour} for name, colour in self.players],
            "difficulty": self.difficulty,
            "scrolls": self.scrolls,
            "map": map_to_text(self.map),
            "realm": self.realm,
            "dice": self.dice,
            "quarry": self.quarry.to_json(),
            "leadership": self.leadership,
            "leader": self.leader,
            "time_trials": self.time_trials,
            "seed": self.seed,
            "rules": self.rules.to_json(),
        }

    @staticmethod
    def from_json(d) -> "Setup":
        """The setup a JSON object describes. Only `players` is required; without `map` the app lays one from the
        seed (`mountains`: keep the Mountains on it, as Scrolls always do). InvalidInput names the field."""
        obj("", d, _FIELDS, required=("players",))
        raw = d["players"]
        if not isinstance(raw, list):
            raise InvalidInput("players: expected a list")
        if len(raw) > MAX_PLAYERS:
            raise InvalidInput(f"players: Obelisk is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(raw)}")
        players = []
        for i, p in enumerate(raw):
            p = obj(f"players[{i}]", p, ("name", "colour"), required=("name", "colour"))
            players.append((p["name"], p["colour"]))
        seed = whole("seed", d.get("seed", 0), 0, MAX_SEED)
        scrolls = flag("scrolls", d.get("scrolls", False))
        if d.get("map") is not None:
            if "mountains" in d:
                raise InvalidInput("mountains: the map given already shows whether the Mountains are on it")
            game_map = map_from_text(d["map"])
        else:
            keep = scrolls or flag("mountains", d.get("mountains", False))
            game_map = lay_map(random.Random(f"obelisk-map:{seed}"), keep)
        quarry = d.get("quarry")
        return Setup(
            players=tuple(players),
            map=game_map,
            difficulty=d.get("difficulty", DEFAULT_DIFFICULTY),
            scrolls=scrolls,
            realm=d.get("realm", "app"),
            dice=d.get("dice", "app"),
            quarry=None if quarry is None else stones("quarry", quarry),
            leadership=d.get("leadership", False),
            leader=d.get("leader", 0),
            time_trials=d.get("time_trials", False),
            seed=seed,
            rules=Rules.from_json(d.get("rules")),
        )
