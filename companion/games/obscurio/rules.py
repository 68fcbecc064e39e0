"""The editable rulings of Obscurio (RULINGS.md) as one value: the group's "rules profile"."""
from __future__ import annotations

from dataclasses import dataclass

from companion.games.errors import InvalidInput
from companion.games.checks import choice, is_whole, only_fields, whole
from companion.games.rulings import rules_version_from_json
from companion.games.obscurio.constants import (
    DARK_SMALL, DEFAULT_BAG, DEFAULT_COHESION, MAX_COHESION, MAX_PLAYERS, MAX_TRAP_COPIES, MIN_PLAYERS, PURPLE,
    TRAPS, rulebook_dark,
)

DANGEROUS_ROOM = ("door", "chip")  # RULING obscurio-dangerous-room: per distinct wrong door, or per wrong chip
MAX_TRACK = 10       # spaces on a time track
MAX_BONUS = 10       # extra traps one space can give
HOURGLASS = (10, 600)  # seconds an hourglass may be set to
MAX_BAG = 30         # tokens in an edited bag (the box has 14)
# The version of how this engine applies the rules (docs/persistence.md "Rules versions"), recorded with every
# table (Rules.version); a correction that changes what a table may do makes it 2, and older tables replay as 1.
RULES_VERSION = 1


@dataclass(frozen=True)
class Rules:
    # RULING obscurio-hourglass: seconds per hourglass (step 4 and the accusation's discussion).
    hourglass: int = 60
    # RULING obscurio-time-track: the extra traps of each space, first space first.
    time_track: tuple[int, ...] = (0, 1, 2)
    # RULING obscurio-cohesion: default total tokens by players incl. the Grimoire, as (players, total) pairs.
    cohesion: tuple[tuple[int, int], ...] = DEFAULT_COHESION
    # RULING obscurio-cohesion: dark-area tokens with 2-3 players (4-8: the rulebook's 5/7).
    dark_2_3: int = DARK_SMALL
    # RULING obscurio-traps: the bag, as (trap, copies) pairs in TRAPS order (zero copies allowed).
    traps: tuple[tuple[str, int], ...] = DEFAULT_BAG
    # RULING obscurio-evanescent: the Evanescent Room tile's track (replaces the time track that turn).
    evanescent_track: tuple[int, ...] = (0,)
    # RULING obscurio-watcher: None = announced only; a trap id = the Watcher acts as that trap every turn.
    watcher: str | None = None
    # RULING obscurio-dangerous-room: "door" (each distinct wrong door with a chip) or "chip" (each wrong chip).
    dangerous_room: str = "door"
    # The rules version the table is played under: today's (RULES_VERSION) for every new table.
    version: int = RULES_VERSION

    def __post_init__(self):
        rules_version_from_json({"version": self.version}, RULES_VERSION)
        whole("rules.hourglass", self.hourglass, *HOURGLASS)
        object.__setattr__(self, "time_track", _track("rules.time_track", self.time_track))
        object.__setattr__(self, "evanescent_track", _track("rules.evanescent_track", self.evanescent_track))
        whole("rules.dark_2_3", self.dark_2_3, 1, MAX_COHESION - 1)
        object.__setattr__(self, "cohesion", _cohesion_table(self.cohesion, self.dark_2_3))
        object.__setattr__(self, "traps", _bag(self.traps))
        if self.watcher is not None:
            choice("rules.watcher", self.watcher, TRAPS, "a trap (or null)")
        choice("rules.dangerous_room", self.dangerous_room, DANGEROUS_ROOM, "'door' or 'chip'")

    def total_for(self, n_players: int) -> int:
        return dict(self.cohesion)[n_players]

    def dark_for(self, n_players: int) -> int:
        return rulebook_dark(n_players) or self.dark_2_3

    def bag_for(self, with_traitor: bool) -> dict[str, int]:
        """The bag's contents for a game; purple traps leave it with 2-3 players (RULING obscurio-2-3-players)."""
        return {t: n for t, n in self.traps if n and (with_traitor or t not in PURPLE)}

    def to_json(self) -> dict:
        return {
            "hourglass": self.hourglass,
            "time_track": list(self.time_track),
            "cohesion": {str(n): total for n, total in self.cohesion},
            "dark_2_3": self.dark_2_3,
            "traps": dict(self.traps),
            "evanescent_track": list(self.evanescent_track),
            "watcher": self.watcher,
            "dangerous_room": self.dangerous_room,
            "version": self.version,
        }

    @staticmethod
    def from_json(d) -> "Rules":
        """A profile; missing fields keep their defaults. InvalidInput names the field ("rules.time_track[1]")."""
        if d is None:
            return Rules()
        if not isinstance(d, dict):
            raise InvalidInput("rules: expected an object")
        only_fields("rules", d, _FIELDS)
        values = {}
        values["version"] = rules_version_from_json(d, RULES_VERSION)
        for name in ("hourglass", "dark_2_3", "watcher", "dangerous_room"):
            if name in d:
                values[name] = d[name]
        for name in ("time_track", "evanescent_track"):
            if name in d:
                if not isinstance(d[name], list):
                    raise InvalidInput(f"rules.{name}: expected a list of extra traps per space")
                values[name] = tuple(d[name])
        if "cohesion" in d:
            table = d["cohesion"]
            if not isinstance(table, dict):
                raise InvalidInput("rules.cohesion: expected an object from players (2-8) to total tokens")
            pairs = []
            for key, total in table.items():
                if not (isinstance(key, str) and key.isdigit() and len(key) == 1):
                    raise InvalidInput(f"rules.cohesion.{str(key)[:20]}: expected a number of players 2-8")
                pairs.append((int(key), total))
            values["cohesion"] = tuple(sorted(pairs))
        if "traps" in d:
            bag = d["traps"]
            if not isinstance(bag, dict):
                raise InvalidInput("rules.traps: expected an object from trap to copies in the bag")
            for trap in bag:
                choice(f"rules.traps.{str(trap)[:30]}", trap, TRAPS, "a trap")
            values["traps"] = tuple((t, bag.get(t, 0)) for t in TRAPS)
        return Rules(**values)


_FIELDS = ("hourglass", "time_track", "cohesion", "dark_2_3", "traps", "evanescent_track", "watcher",
           "dangerous_room", "version")


def _track(where: str, track) -> tuple[int, ...]:
    if not isinstance(track, (tuple, list)) or not 1 <= len(track) <= MAX_TRACK:
        raise InvalidInput(f"{where}: expected 1 to {MAX_TRACK} spaces")
    return tuple(whole(f"{where}[{i}]", b, 0, MAX_BONUS) for i, b in enumerate(track))


def _cohesion_table(table, dark_2_3) -> tuple[tuple[int, int], ...]:
    if not isinstance(table, (tuple, list)):
        raise InvalidInput("rules.cohesion: expected totals for 2 to 8 players")
    out = {}
    for pair in table:
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2 and is_whole(pair[0])):
            raise InvalidInput("rules.cohesion: expected (players, total) pairs")
        n, total = pair
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise InvalidInput(f"rules.cohesion.{n}: expected a number of players 2-8")
        dark = rulebook_dark(n) or dark_2_3
        # The normal area must hold at least one token, or the game would start in the Accusation Phase.
        out[n] = whole(f"rules.cohesion.{n}", total, dark + 1, MAX_COHESION)
    missing = [n for n in range(MIN_PLAYERS, MAX_PLAYERS + 1) if n not in out]
    if missing:
        raise InvalidInput(f"rules.cohesion.{missing[0]}: missing")
    return tuple(sorted(out.items()))


def _bag(bag) -> tuple[tuple[str, int], ...]:
    if not isinstance(bag, (tuple, list)):
        raise InvalidInput("rules.traps: expected (trap, copies) pairs")
    counts = {}
    for pair in bag:
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
            raise InvalidInput("rules.traps: expected (trap, copies) pairs")
        trap, n = pair
        choice("rules.traps", trap, TRAPS, "a trap")
        counts[trap] = whole(f"rules.traps.{trap}", n, 0, MAX_TRAP_COPIES)
    if sum(n for t, n in counts.items() if t not in PURPLE) < 1:
        # Every turn draws at least one token, also in a 2-3 player game without the purple ones.
        raise InvalidInput("rules.traps: the bag needs at least one brown or green trap")
    if sum(counts.values()) > MAX_BAG:
        raise InvalidInput(f"rules.traps: at most {MAX_BAG} tokens in the bag")
    return tuple((t, counts.get(t, 0)) for t in TRAPS)
