"""Obscurio setup: who sits where (the Grimoire, each wizard's character chip), the numbers of the group's own box
(difficulty, cohesion tokens, the dark area), the hourglass and the time track, how traps are drawn and how loyalty
is dealt, and every ruling. The Setup itself, and every check on it, is the engine's.

`SetupModel` is the view-model (one method per tap); `ObsoSetupScreen` is layout only (setup.kv).
"""
from __future__ import annotations

import random
from pathlib import Path

from kivy.event import EventDispatcher
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.games.errors import N_, InvalidInput
from companion.games.obscurio.constants import (
    CHARACTERS, DEFAULT_DIFFICULTY, GRIMOIRE, MAX_COHESION, TRAITOR_FROM,
)
from companion.games.obscurio.rules import HOURGLASS, MAX_BONUS, MAX_TRACK, Rules
from companion.games.obscurio.setup import COUNTDOWN, Setup
from companion.games.obscurio.vocabulary import (
    CHARACTER, COHESION_DARK_VALUE, COHESION_TABLE_VALUE, COHESION_VALUE, DANGEROUS_ROOM_VALUE, TRAP, WATCHER_ACTS,
    WATCHER_NONE,
)
from companion.session.store import StoreError
from companion.ui.obscurio import widgets as _own_widgets  # noqa: F401  (this game's widget rules)

HOURGLASS_STEP = 10   # seconds per tap on the hourglass stepper
COUNTDOWN_STEP = 15   # seconds per tap on the night's countdown (0: the night waits for the Grimoire's tap)
BONUS_CYCLE = 5       # a time-track space's bonus goes 0, 1 … 4 and round again


def ruling_value(ruling_id: str, rules: Rules, t, box: tuple[int, int] | None = None) -> str | None:
    """The table's value of an editable ruling in the players' language; `box`: the (cohesion, dark) numbers this
    table uses (typed from the group's box), which the cohesion ruling shows instead of its whole table."""
    track = lambda spaces: ", ".join(f"+{b}" for b in spaces)  # noqa: E731
    if ruling_id == "obscurio-hourglass":
        return f"{rules.hourglass} s"
    if ruling_id == "obscurio-time-track":
        return track(rules.time_track)
    if ruling_id == "obscurio-evanescent":
        return track(rules.evanescent_track)
    if ruling_id == "obscurio-cohesion" and box is not None:
        return t(COHESION_TABLE_VALUE).format(total=box[0], dark=box[1])
    if ruling_id == "obscurio-cohesion":
        return "; ".join([t(COHESION_VALUE).format(n=n, total=total) for n, total in rules.cohesion]
                         + [t(COHESION_DARK_VALUE).format(n=rules.dark_2_3)])
    if ruling_id == "obscurio-traps":
        return ", ".join(f"{t(TRAP[x])} ×{n}" for x, n in rules.traps if n)
    if ruling_id == "obscurio-watcher":
        return t(WATCHER_NONE) if rules.watcher is None else t(WATCHER_ACTS).format(trap=t(TRAP[rules.watcher]))
    if ruling_id == "obscurio-dangerous-room":
        return t(DANGEROUS_ROOM_VALUE[rules.dangerous_room])
    return None


class SetupModel(EventDispatcher):
    rows = ListProperty()
    count = NumericProperty(5)
    companion_swatches = ListProperty()   # 2 players: the companion chip's colour
    difficulty = StringProperty(DEFAULT_DIFFICULTY)
    cohesion = NumericProperty(18)
    dark = NumericProperty(5)
    hourglass = NumericProperty(60)
    countdown = NumericProperty(0)
    countdown_text = StringProperty("")
    track = ListProperty()
    bag = StringProperty("app")
    loyalty = StringProperty("table")
    loyalty_possible = BooleanProperty(True)
    error = StringProperty("")

    def __init__(self, plugin, **kwargs):
        super().__init__(**kwargs)
        self.plugin = plugin
        self.app = plugin.app
        self._players: list[dict] = []
        self._companion = None
        self._track = [0, 1, 2]

    def reset(self) -> None:
        rules = Rules()
        self._players = [{"name": "", "role": GRIMOIRE}] + [{"name": "", "role": c} for c in CHARACTERS[:4]]
        self._companion = None
        self._track = list(rules.time_track)
        self.hourglass = rules.hourglass
        self.countdown = 0
        self.difficulty, self.bag, self.loyalty, self.error = DEFAULT_DIFFICULTY, "app", "table", ""
        self._box_defaults()
        self.refresh()

    def _box_defaults(self) -> None:
        """The ruling's numbers for this many players, until the group types those of its own box."""
        rules, n = Rules(), len(self._players)
        self.cohesion, self.dark = rules.total_for(n), rules.dark_for(n)

    def refresh(self) -> None:
        if not self._players:
            return
        t = self.app.t
        rows = []
        for i, p in enumerate(self._players):
            taken = {q["role"] for j, q in enumerate(self._players) if j != i} | {self._companion}
            rows.append({
                "index": i, "name": p["name"], "hint": t(N_("Player {n}")).format(n=i + 1),
                "grimoire": p["role"] == GRIMOIRE,
                "swatches": [{"index": i, "value": c, "selected": p["role"] == c, "enabled": c not in taken}
                             for c in CHARACTERS],
            })
        self.rows = rows
        self.count = len(self._players)
        used = {p["role"] for p in self._players}
        self.companion_swatches = [{"index": -1, "value": c, "selected": c == self._companion,
                                    "enabled": c not in used} for c in CHARACTERS] if self.count == 2 else []
        self.track = [{"index": i, "text": f"+{b}"} for i, b in enumerate(self._track)]
        self.loyalty_possible = self.count >= TRAITOR_FROM
        self.countdown_text = (t(N_("{n} s")).format(n=int(self.countdown)) if self.countdown
                               else t(N_("off")))

    # -- taps ------------------------------------------------------------------------------------------------------
    def set_player_count(self, n: int) -> None:
        n = max(2, min(8, int(n)))
        players = self._players[:n]
        if not any(p["role"] == GRIMOIRE for p in players):
            players[0]["role"] = GRIMOIRE  # the Grimoire's seat was cut off: the first seat takes the book
        self._companion = None  # from 2 players to more: the companion chip goes back to the box first
        while len(players) < n:
            used = {p["role"] for p in players}
            players.append({"name": "", "role": next(c for c in CHARACTERS if c not in used)})
        self._players = players
        if n == 2:
            used = {p["role"] for p in players}
            self._companion = next(c for c in CHARACTERS if c not in used)
        if n < TRAITOR_FROM:
            self.loyalty = "table"
        self._box_defaults()
        self.refresh()

    def set_player_name(self, index: int, name: str) -> None:
        if index < len(self._players) and self._players[index]["name"] != name:
            self._players[index]["name"] = name
            self.error = ""

    def make_grimoire(self, index: int) -> None:
        """This seat is the Grimoire; the seat that was gets this seat's chip."""
        old = next(i for i, p in enumerate(self._players) if p["role"] == GRIMOIRE)
        self._players[old]["role"], self._players[index]["role"] = self._players[index]["role"], GRIMOIRE
        self.refresh()

    def set_chip(self, index: int, colour: str) -> None:
        t = self.app.t
        if index < 0:   # the companion's swatch
            owner = next((p for p in self._players if p["role"] == colour), None)
            if owner is not None:
                self.app.say(t(N_("The {colour} chip is already a wizard's")).format(colour=t(CHARACTER[colour])))
                return
            self._companion = colour
            self.refresh()
            return
        for j, p in enumerate(self._players):
            if j != index and p["role"] == colour:
                name = p["name"].strip() or t(N_("Player {n}")).format(n=j + 1)
                self.app.say(t(N_("The {colour} chip is {name}'s")).format(colour=t(CHARACTER[colour]), name=name))
                return
        if colour == self._companion:
            self.app.say(t(N_("The {colour} chip is the companion")).format(colour=t(CHARACTER[colour])))
            return
        self._players[index]["role"] = colour
        self.refresh()

    def set_difficulty(self, text: str) -> None:
        self.difficulty = text

    def step(self, what: str, delta: int) -> None:
        """The − and + of a number: cohesion tokens, the dark area, the hourglass, the time track's spaces."""
        t = self.app.t
        if what == "cohesion":
            value = self.cohesion + delta
            if value > MAX_COHESION:
                self.app.say(t(N_("The box holds {n} cohesion tokens")).format(n=MAX_COHESION))
            elif value <= self.dark:
                self.app.say(t(N_("The normal area needs at least one token: lower the dark area first")))
            else:
                self.cohesion = value
        elif what == "dark":
            value = self.dark + delta
            if value < 1:
                self.app.say(t(N_("The dark area holds at least one token")))
            elif value >= self.cohesion:
                self.app.say(t(N_("The normal area needs at least one token: add cohesion tokens first")))
            else:
                self.dark = value
        elif what == "hourglass":
            low, high = HOURGLASS
            value = self.hourglass + delta * HOURGLASS_STEP
            if not low <= value <= high:
                self.app.say(t(N_("The hourglass runs {low} to {high} seconds")).format(low=low, high=high))
            else:
                self.hourglass = value
        elif what == "countdown":
            if not self.loyalty_possible:
                self.app.say(t(N_("With 2 or 3 players there is no Traitor and no night")))
                return
            low, high = COUNTDOWN
            value = self.countdown + delta * COUNTDOWN_STEP
            if value < 0:
                self.app.say(t(N_("No countdown: the night waits for the Grimoire's tap")))
                return
            if value < low:
                value = 0   # below the shortest countdown: none, the night waits for the Grimoire
            if value > high:
                self.app.say(t(N_("The Traitor's countdown runs {low} to {high} seconds")).format(low=low, high=high))
            else:
                self.countdown = value
                self.refresh()
        elif what == "spaces":
            if not 1 <= len(self._track) + delta <= MAX_TRACK:
                self.app.say(t(N_("The time track has 1 to {n} spaces")).format(n=MAX_TRACK))
            elif delta > 0:
                self._track.append(min(MAX_BONUS, self._track[-1] + 1))
            else:
                self._track.pop()
            self.refresh()

    def cycle_bonus(self, index: int) -> None:
        """A time-track space's bonus (extra traps next turn): each tap one more, round to +0 after +4."""
        self._track[index] = (self._track[index] + 1) % BONUS_CYCLE
        self.refresh()

    def set_bag(self, bag: str) -> None:
        self.bag = bag

    def set_loyalty(self, loyalty: str) -> None:
        if not self.loyalty_possible:
            self.app.say(self.app.t(N_("With 2 or 3 players there is no Traitor and no loyalty card")))
            return
        self.loyalty = loyalty

    def rules(self) -> Rules:
        return Rules(hourglass=int(self.hourglass), time_track=tuple(self._track))

    def show_rulings(self) -> None:
        self.plugin.box = (int(self.cohesion), int(self.dark))
        self.app.show_rulings("obscurio", self.rules())

    def start(self) -> None:
        from companion.session.table import Table

        t = self.app.t
        players = []
        for i, p in enumerate(self._players):
            players.append((p["name"].strip() or t(N_("Player {n}")).format(n=i + 1), p["role"]))
        names = [n.casefold() for n, _ in players]
        twice = next((n for n, _ in players if names.count(n.casefold()) > 1), None)
        if twice:
            self.error = t(N_("Two players are called {name}: give each a different name")).format(name=twice)
            return
        seed = self.app.seed if self.app.seed is not None else random.SystemRandom().randrange(2**62)
        try:
            setup = Setup(players=tuple(players), companion=self._companion,
                          difficulty=self.difficulty.strip() or DEFAULT_DIFFICULTY, cohesion=int(self.cohesion),
                          dark=int(self.dark), bag=self.bag, loyalty=self.loyalty, seed=seed, rules=self.rules(),
                          countdown=int(self.countdown) if self.loyalty_possible else 0)
            table = Table.create(self.app.store, "obscurio", setup, title=", ".join(n for n, _ in players),
                                 clock=self.app.clock)
        except (InvalidInput, ValueError, StoreError) as err:
            self.error = str(err)
            return
        plugin = self.plugin
        self.app.attach(table)
        if setup.loyalty == "app":
            plugin.open_loyalty_deal()
        plugin.show_checklist()   # before turn 1: what the box must hold for this table


class ObsoSetupScreen(Screen):
    model = ObjectProperty(None, rebind=True)


Builder.load_file(str(Path(__file__).with_name("setup_rows.kv")))  # the pieces first, then the screen
Builder.load_file(str(Path(__file__).with_suffix(".kv")))
