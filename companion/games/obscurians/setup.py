"""Game setup: who sits where, how the event cards are shuffled, which missions are in play."""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from companion.games.errors import N_, IllegalAction, InvalidInput, Term
from companion.games.checks import typed_name, unique_name
from companion.games.text import key, shown
from companion.games.obscurians.constants import (
    BASE_MISSIONS, COLOURS, CONTROL_COLOUR, EVENTS, MISSIONS, SANDSTORM,
)
from companion.games.obscurians.rules import Rules

# The 4-player draw removes one mission of each trio (rulebook "Game Setup").
TRIO_A = ("keep", "take", "collect")
TRIO_B = ("give", "select", "lose")
DECKS = ("app", "physical")
MAX_SEED = 2**63  # fits SQLite's integer and any exported file; a larger seed is never one the app made


def deal_missions(rng: random.Random, n_players: int) -> tuple[str, ...]:
    """Missions in seat order. RULING obscurians-players: 4 players use the trio draw; 7 add Control."""
    if n_players == 4:
        drop_a, drop_b = rng.choice(TRIO_A), rng.choice(TRIO_B)
        pool = [m for m in TRIO_A if m != drop_a] + [m for m in TRIO_B if m != drop_b]
    elif n_players in (5, 6):
        pool = list(BASE_MISSIONS)
    elif n_players == 7:
        pool = list(MISSIONS)
    else:
        raise InvalidInput(f"n_players: Obscurians is for 4 to 7 players, not {n_players}")
    rng.shuffle(pool)
    return tuple(pool[:n_players])


def shuffle_events(rng: random.Random) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(event deck for rounds 1-4, sandstorm deck for rounds 5-7), top card first."""
    cards = list(EVENTS)
    rng.shuffle(cards)
    sandstorm_deck = cards[4:6] + [SANDSTORM]
    rng.shuffle(sandstorm_deck)
    return tuple(cards[:4]), tuple(sandstorm_deck)


def missions_problem_of(missions, n_players: int, put_back=None) -> tuple[str, dict] | None:
    """Why `missions` cannot be the missions of an n-player game, as (English template, params), or None.

    `put_back`: the two cards a 4-player table put back in the box, when the table told the app (Setup.put_back).
    The templates are sentences (the engine's refusals, `rules` catalogue); `missions_problem` gives the text.
    """
    if len(missions) != n_players:
        return N_("Expected {n} missions, one per player, got {got}"), {"n": n_players, "got": len(missions)}
    for m in missions:
        if m not in MISSIONS:
            return N_("{mission} is not a mission"), {"mission": shown(m)}
    if len(set(missions)) != len(missions):
        return N_("Each mission card exists only once"), {}
    if n_players == 7:
        return None if "control" in missions else (N_("7 players need the Control mission"), {})
    if "control" in missions:
        return N_("The Control mission is only used with 7 players"), {}
    if n_players == 4:
        if sum(m in TRIO_A for m in missions) != 2 or sum(m in TRIO_B for m in missions) != 2:
            return N_("With 4 players two of Keep/Take/Collect and two of Give/Select/Lose are in play"), {}
        for m in put_back or ():
            if m in missions:
                return PUT_BACK_REFUSAL, {"mission": _mission_term(m)}
    return None


PUT_BACK_REFUSAL = N_("{mission} was put back in the box at the start of the game")


def mission_refusals(picked, n_players: int, put_back=None) -> list[dict[str, IllegalAction | None]]:
    """While the players tap in the revealed missions: for each seat, every mission card of the game and why it
    cannot be that seat's card given the others' picks (an IllegalAction, not raised), or None when it can.

    A partial deal can always be completed as long as no card is used twice, no card put back in the box
    (`put_back`, 4 players) is used and, with 4 players, no trio has more than two cards (RULING
    obscurians-players), so those are the only reasons.
    """
    pool = MISSIONS if n_players == 7 else BASE_MISSIONS
    out = []
    for seat in range(n_players):
        others = [m for i, m in enumerate(picked) if i != seat and m]
        reasons: dict[str, IllegalAction | None] = {}
        for m in pool:
            trio = TRIO_A if m in TRIO_A else TRIO_B if m in TRIO_B else ()
            if m in (put_back or ()):
                reasons[m] = IllegalAction.of(PUT_BACK_REFUSAL, "RULING obscurians-players",
                                              mission=_mission_term(m))
            elif m in others:
                reasons[m] = IllegalAction.of("Each mission card exists only once: another player has {mission}",
                                              "RULING obscurians-players", mission=_mission_term(m))
            elif n_players == 4 and trio and sum(o in trio for o in others) >= 2:
                reasons[m] = IllegalAction.of("With 4 players only two of {a}, {b} and {c} are in play, and two are "
                                              "taken", "RULING obscurians-players",
                                              **{k: _mission_term(x) for k, x in zip("abc", trio)})
            else:
                reasons[m] = None
        out.append(reasons)
    return out


def _mission_term(m: str) -> Term:
    return Term("mission", m, m.capitalize())


def missions_problem(missions, n_players: int, put_back=None) -> str | None:
    """Why `missions` cannot be the missions of an n-player game (lower-case, to follow "missions: "), or None."""
    problem = missions_problem_of(missions, n_players, put_back)
    if problem is None:
        return None
    template, params = problem
    return (template[:1].lower() + template[1:]).format(**params)


@dataclass(frozen=True)
class Setup:
    players: tuple[tuple[str, str], ...]  # (name, colour) in clockwise seating order
    start: int = 0                         # index of the starting player (who last sold something)
    deck: str = "app"                      # "app": shuffled with Random(seed); "physical": the group tells each card
    seed: int = 0
    missions: tuple[str, ...] | None = None  # known missions in seat order, or None: revealed at the end
    rules: Rules = field(default_factory=Rules)
    # 4 players: the two mission cards put back in the box (one of Keep/Take/Collect, one of Give/Select/Lose), when
    # a group that looked at them tapped them in; None: put back unseen, as the rulebook says (the usual case).
    put_back: tuple[str, ...] | None = None

    def __post_init__(self):
        players = self.players
        if not isinstance(players, (tuple, list)):
            raise InvalidInput("players: expected a list of (name, colour)")
        players = tuple(tuple(p) if isinstance(p, (tuple, list)) else p for p in players)
        object.__setattr__(self, "players", players)
        n = len(players)
        # RULING obscurians-players: 4-6, 7 only with the Control module.
        if not 4 <= n <= 7:
            raise InvalidInput(f"players: Obscurians is for 4 to 7 players, not {n}")
        names, colours, seated = set(), set(), []
        for i, p in enumerate(players):
            if not (isinstance(p, tuple) and len(p) == 2):
                raise InvalidInput(f"players[{i}]: expected (name, colour)")
            where, colour = f"players[{i}].name", p[1]
            seated.append((unique_name(where, typed_name(where, p[0]), names), colour))
            if not isinstance(colour, str) or colour not in COLOURS:
                raise InvalidInput(f"players[{i}].colour: {shown(colour)} is not a player colour")
            if colour in colours:
                raise InvalidInput(f"players[{i}].colour: {colour} is already taken")
            if colour == CONTROL_COLOUR and n != 7:
                raise InvalidInput(f"players[{i}].colour: turquoise comes with the Control module (7 players)")
            colours.add(colour)
        object.__setattr__(self, "players", tuple(seated))
        if isinstance(self.start, bool) or not isinstance(self.start, int) or not 0 <= self.start < n:
            raise InvalidInput(f"start: expected a seat index from 0 to {n - 1}")
        if self.deck not in DECKS:
            raise InvalidInput(f"deck: expected 'app' or 'physical', not {shown(self.deck)}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or not 0 <= self.seed < MAX_SEED:
            raise InvalidInput(f"seed: expected a whole number from 0 to {MAX_SEED - 1}")
        if self.put_back is not None:
            self._check_put_back(n)
        if self.missions is not None:
            if not isinstance(self.missions, (tuple, list)):
                raise InvalidInput("missions: expected a list of missions or null")
            object.__setattr__(self, "missions", tuple(self.missions))
            problem = missions_problem(self.missions, n, self.put_back)
            if problem:
                raise InvalidInput(f"missions: {problem}")
        if not isinstance(self.rules, Rules):
            raise InvalidInput("rules: expected a Rules profile")

    def _check_put_back(self, n: int) -> None:
        if not isinstance(self.put_back, (tuple, list)):
            raise InvalidInput("put_back: expected a list of two missions or null")
        object.__setattr__(self, "put_back", tuple(self.put_back))
        if n != 4:
            raise InvalidInput(f"put_back: only a 4-player game puts mission cards back, not a {n}-player game")
        a = [m for m in self.put_back if m in TRIO_A]
        b = [m for m in self.put_back if m in TRIO_B]
        if len(self.put_back) != 2 or len(a) != 1 or len(b) != 1:
            raise InvalidInput("put_back: expected one of keep/take/collect and one of give/select/lose")

    @property
    def n_players(self) -> int:
        return len(self.players)

    @property
    def control(self) -> bool:
        """The Control module is in play: 7 players, 7 chips each."""
        return len(self.players) == 7

    @property
    def chip_missions(self) -> tuple[str, ...]:
        """The missions printed on each player's suspicion chips (RULING obscurians-players)."""
        return MISSIONS if self.control else BASE_MISSIONS

    def name(self, seat: int) -> str:
        return self.players[seat][0]

    def colour(self, seat: int) -> str:
        return self.players[seat][1]

    def to_json(self) -> dict:
        return {
            "players": [{"name": name, "colour": colour} for name, colour in self.players],
            "start": self.start,
            "deck": self.deck,
            "seed": self.seed,
            "missions": None if self.missions is None else list(self.missions),
            "rules": self.rules.to_json(),
        } | ({} if self.put_back is None else {"put_back": list(self.put_back)})
        # put_back is written only when known: older setups (and their stored JSON) stay exactly as they were.

    @staticmethod
    def from_json(d) -> "Setup":
        if not isinstance(d, dict):
            raise InvalidInput("setup: expected an object")
        unknown = set(d) - {"players", "start", "deck", "seed", "missions", "rules", "put_back"}
        if unknown:
            raise InvalidInput(f"{key(sorted(unknown, key=str)[0])}: unknown field")
        raw = d.get("players")
        if not isinstance(raw, list):
            raise InvalidInput("players: expected a list")
        players = []
        for i, p in enumerate(raw):
            if isinstance(p, dict):
                extra = set(p) - {"name", "colour"}
                if extra:
                    raise InvalidInput(f"players[{i}].{key(sorted(extra, key=str)[0])}: unknown field")
                if "name" not in p:
                    raise InvalidInput(f"players[{i}].name: missing")
                if "colour" not in p:
                    raise InvalidInput(f"players[{i}].colour: missing")
                players.append((p["name"], p["colour"]))
            elif isinstance(p, list) and len(p) == 2:
                players.append(tuple(p))
            else:
                raise InvalidInput(f"players[{i}]: expected {{'name': ..., 'colour': ...}}")
        missions = d.get("missions")
        if missions is not None and not isinstance(missions, list):
            raise InvalidInput("missions: expected a list or null")
        put_back = d.get("put_back")
        if put_back is not None and not isinstance(put_back, list):
            raise InvalidInput("put_back: expected a list of two missions or null")
        return Setup(
            players=tuple(players),
            start=d.get("start", 0),
            deck=d.get("deck", "app"),
            seed=d.get("seed", 0),
            missions=None if missions is None else tuple(missions),
            rules=Rules.from_json(d.get("rules")),
            put_back=None if put_back is None else tuple(put_back),
        )
