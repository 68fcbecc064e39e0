"""Game setup: who sits where, who is the Grimoire, the cohesion gauge, how traps are drawn and loyalty is dealt.

Ids. The Grimoire is a player whose id is "grimoire"; each wizard is identified by the colour of their character
chip ("blue", "red" …, constants.CHARACTERS), exactly as actions, the state and `Outcome.winners` name them. Player
names are for people and appear only in the setup and in texts. With 2 players the single wizard also moves a
companion chip, named by its colour too (`Setup.companion`); the companion is a chip, not a player.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from companion.games.errors import InvalidInput
from companion.games.checks import choice, is_whole, only_fields, typed_name, unique_name, whole
from companion.games.obscurio.constants import (
    CHARACTERS, COMPANION_COST, DEFAULT_DIFFICULTY, GRIMOIRE, MAX_COHESION, MAX_PLAYERS, MIN_PLAYERS, OWN_CHIP_COST,
    TRAITOR_FROM,
)
from companion.games.obscurio.rules import Rules

BAGS = ("app", "physical")      # "app": the engine draws with Random(seed); "physical": the group names the tokens
LOYALTY = ("table", "app")      # "table": real loyalty cards, the app never knows; "app": dealt secretly by the app
MAX_SEED = 2**63 - 1
COUNTDOWN = (10, 600)  # seconds the Traitor's choice may be given in the night (0: the night waits for the Grimoire)
_FIELDS = ("players", "companion", "difficulty", "cohesion", "dark", "bag", "loyalty", "seed", "rules", "countdown")


def deal_traitor(seed: int, wizards: tuple[str, ...]) -> str:
    """The wizard the app's loyalty deal makes the Traitor: one Traitor card among as many cards as wizards."""
    return random.Random(f"obscurio-loyalty:{seed}").choice(wizards)


@dataclass(frozen=True)
class Setup:
    players: tuple[tuple[str, str], ...]   # (name, character or "grimoire") in seating order
    companion: str | None = None           # 2 players: the wizard's companion chip
    difficulty: str = DEFAULT_DIFFICULTY   # the level's name, as printed in the group's box
    cohesion: int | None = None            # total cohesion tokens; None: RULING obscurio-cohesion's table
    dark: int | None = None                # tokens in the dark area; None: the rulebook (RULING for 2-3 players)
    bag: str = "app"
    loyalty: str = "table"
    seed: int = 0
    rules: Rules = field(default_factory=Rules)
    # The night (step 3): 0, the narration waits at the Traitor's choice until the Grimoire taps; else a countdown
    # of that many seconds, set at setup. A table preference, not a rule: the game is the same either way.
    countdown: int = 0

    def __post_init__(self):
        if not isinstance(self.rules, Rules):
            raise InvalidInput("rules: expected a Rules profile")
        players = self.players
        if not isinstance(players, (tuple, list)):
            raise InvalidInput("players: expected a list of (name, character)")
        players = tuple(tuple(p) if isinstance(p, (tuple, list)) else p for p in players)
        object.__setattr__(self, "players", players)
        n = len(players)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise InvalidInput(f"players: Obscurio is for {MIN_PLAYERS} to {MAX_PLAYERS} players "
                               f"(the Grimoire included), not {n}")
        names, roles, seated = set(), [], []
        for i, p in enumerate(players):
            if not (isinstance(p, tuple) and len(p) == 2):
                raise InvalidInput(f"players[{i}]: expected (name, character)")
            where, role = f"players[{i}].name", p[1]
            seated.append((unique_name(where, typed_name(where, p[0]), names), role))
            choice(f"players[{i}].character", role, CHARACTERS + (GRIMOIRE,), "a character or 'grimoire'")
            if role in roles:
                raise InvalidInput(f"players[{i}].character: {role} is already taken")
            roles.append(role)
        object.__setattr__(self, "players", tuple(seated))
        if GRIMOIRE not in roles:
            raise InvalidInput("players: one player is the Grimoire")
        # RULING obscurio-2-3-players: with 2 players the single wizard also has a companion chip.
        if n == 2:
            choice("companion", self.companion, CHARACTERS, "a character chip")
            if self.companion in roles:
                raise InvalidInput(f"companion: {self.companion} is the wizard's own chip")
        elif self.companion is not None:
            raise InvalidInput("companion: only a 2-player game has a companion chip")
        object.__setattr__(self, "difficulty", typed_name("difficulty", self.difficulty))
        cohesion = self.rules.total_for(n) if self.cohesion is None else self.cohesion
        whole("cohesion", cohesion, 2, MAX_COHESION)
        dark = self.rules.dark_for(n) if self.dark is None else self.dark
        # At least one token in each area: the normal area empties first, then the dark area ends the game.
        whole("dark", dark, 1, cohesion - 1)
        object.__setattr__(self, "cohesion", cohesion)
        object.__setattr__(self, "dark", dark)
        choice("bag", self.bag, BAGS, "'app' or 'physical'")
        choice("loyalty", self.loyalty, LOYALTY, "'table' or 'app'")
        if self.loyalty == "app" and n < TRAITOR_FROM:
            raise InvalidInput("loyalty: there are no loyalty cards with 2 or 3 players")
        whole("seed", self.seed, 0, MAX_SEED)
        if self.countdown != 0:
            whole("countdown", self.countdown, *COUNTDOWN)
        elif not is_whole(self.countdown):
            raise InvalidInput("countdown: expected 0 or a whole number of seconds")
        if not self.rules.bag_for(self.has_traitor):
            raise InvalidInput("rules.traps: the bag is empty for this game")

    # ----------------------------------------------------------------- who is who

    @property
    def n_players(self) -> int:
        return len(self.players)

    @property
    def has_traitor(self) -> bool:
        """4+ players: a Traitor, loyalty cards, step 3 and the Accusation Phase (RULING obscurio-2-3-players)."""
        return len(self.players) >= TRAITOR_FROM

    @property
    def wizards(self) -> tuple[str, ...]:
        """The wizards' characters in seat order (the Traitor is one of them, unknown to the app)."""
        return tuple(role for _, role in self.players if role != GRIMOIRE)

    @property
    def chips(self) -> tuple[str, ...]:
        """Every character chip on the table in resolution order: the wizards in seat order, then a companion."""
        return self.wizards + ((self.companion,) if self.companion else ())

    def chip_cost(self, chip: str) -> int:
        """Tokens a wrong or unplaced chip costs. RULING obscurio-2-3-players: 2 players, own 2 / companion 1."""
        if self.companion is None:
            return 1
        return COMPANION_COST if chip == self.companion else OWN_CHIP_COST

    def name_of(self, role: str) -> str:
        """The player name behind a character or "grimoire"; the companion chip belongs to the single wizard."""
        if role == self.companion:
            role = self.wizards[0]
        for name, r in self.players:
            if r == role:
                return name
        raise KeyError(role)

    @property
    def grimoire(self) -> str:
        return self.name_of(GRIMOIRE)

    # ----------------------------------------------------------------- JSON

    def to_json(self) -> dict:
        out = {
            "players": [{"name": name, "character": role} for name, role in self.players],
            "companion": self.companion,
            "difficulty": self.difficulty,
            "cohesion": self.cohesion,
            "dark": self.dark,
            "bag": self.bag,
            "loyalty": self.loyalty,
            "seed": self.seed,
            "rules": self.rules.to_json(),
        }
        if self.countdown:  # only when set: a table without one reads exactly as before
            out["countdown"] = self.countdown
        return out

    @staticmethod
    def from_json(d) -> "Setup":
        """The setup a JSON object describes; missing options take their defaults; InvalidInput names the field."""
        if not isinstance(d, dict):
            raise InvalidInput("setup: expected an object")
        only_fields("", d, _FIELDS)
        raw = d.get("players")
        if not isinstance(raw, list):
            raise InvalidInput("players: expected a list")
        if len(raw) > MAX_PLAYERS:
            raise InvalidInput(f"players: Obscurio is for {MIN_PLAYERS} to {MAX_PLAYERS} players "
                               f"(the Grimoire included), not {len(raw)}")
        players = []
        for i, p in enumerate(raw):
            if not isinstance(p, dict):
                raise InvalidInput(f"players[{i}]: expected {{'name': ..., 'character': ...}}")
            only_fields(f"players[{i}]", p, ("name", "character"))
            for key in ("name", "character"):
                if key not in p:
                    raise InvalidInput(f"players[{i}].{key}: missing")
            players.append((p["name"], p["character"]))
        for key in ("cohesion", "dark"):
            if d.get(key) is not None and not is_whole(d[key]):
                raise InvalidInput(f"{key}: expected a whole number")
        return Setup(
            players=tuple(players),
            companion=d.get("companion"),
            difficulty=d.get("difficulty", DEFAULT_DIFFICULTY),
            cohesion=d.get("cohesion"),
            dark=d.get("dark"),
            bag=d.get("bag", "app"),
            loyalty=d.get("loyalty", "table"),
            seed=d.get("seed", 0),
            rules=Rules.from_json(d.get("rules")),
            countdown=d.get("countdown", 0),
        )
