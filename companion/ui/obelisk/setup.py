"""Obelisk setup: the players (1 to 4, each with a player guide's colour), the difficulty, the Scrolls, and the map —
laid by the app from the table's seed, or laid by the group by hand and typed in as the map notation
(docs/obelisk-engine.md). The Setup itself, and every check on it, is the engine's.

`SetupModel` is the view-model (one method per tap); `ObeliskSetupScreen` is layout only (setup.kv).
"""
from __future__ import annotations

import random
from pathlib import Path

from kivy.event import EventDispatcher
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.games.errors import N_, InvalidInput
from companion.games.obelisk.box import DEFAULT_DIFFICULTY, DIFFICULTIES, MAX_PLAYERS, MIN_PLAYERS, PLAYER_COLOURS
from companion.games.obelisk.setup import Setup
from companion.games.obelisk.vocabulary import COLOUR, DIFFICULTY
from companion.i18n.messages import translate_error
from companion.session.store import StoreError

DEFAULT_NAMES = ("", "", "", "")
EASIEST = N_("This is the easiest level")
HARDEST = N_("This is the hardest level")
SAME_NAME = N_("Two players are called {name}: give each a different name")
PLAYER_N = N_("Player {n}")
MAP_HINT = N_("e.g. PE GE FS CW GN / GN FN FS GW FW / …")


class SetupModel(EventDispatcher):
    count = NumericProperty(2)
    seats = ListProperty()
    difficulty = NumericProperty(DIFFICULTIES.index(DEFAULT_DIFFICULTY))
    difficulty_text = StringProperty("")
    scrolls = BooleanProperty(False)
    map_by = StringProperty("app")      # "app": the app lays it; "table": the group typed it in
    map_text = StringProperty("")
    error = StringProperty("")

    def __init__(self, plugin, **kwargs):
        super().__init__(**kwargs)
        self.plugin = plugin
        self.app = plugin.app
        self.reset()

    def reset(self) -> None:
        self._names = list(DEFAULT_NAMES)
        self._colours = list(PLAYER_COLOURS)
        self.count = 2
        self.difficulty = DIFFICULTIES.index(DEFAULT_DIFFICULTY)
        self.scrolls = False
        self.map_by = "app"
        self.map_text = ""
        self.error = ""
        self.refresh()

    def refresh(self) -> None:
        t = self.app.t
        self.seats = [{"index": i, "name": self._names[i], "hint": t(PLAYER_N).format(n=i + 1),
                       "colour": self._colours[i], "colour_text": t(COLOUR[self._colours[i]])}
                      for i in range(self.count)]
        self.difficulty_text = t(DIFFICULTY[DIFFICULTIES[self.difficulty]])

    # -- taps --------------------------------------------------------------------------------------------------------
    def set_count(self, n: int) -> None:
        self.count = max(MIN_PLAYERS, min(MAX_PLAYERS, n))
        self.refresh()

    def set_name(self, index: int, text: str) -> None:
        if index < len(self._names):
            self._names[index] = text

    def next_colour(self, index: int) -> None:
        """The next player colour nobody else at the table has (with 4 players: swap with the next seat's)."""
        taken = set(self._colours[:self.count]) - {self._colours[index]}
        i = PLAYER_COLOURS.index(self._colours[index])
        for k in range(1, len(PLAYER_COLOURS) + 1):
            colour = PLAYER_COLOURS[(i + k) % len(PLAYER_COLOURS)]
            if colour not in taken:
                break
        else:
            colour = self._colours[(index + 1) % self.count]
        if colour in self._colours:   # the colour a seat beyond the table (or the next seat) held: swap
            other = self._colours.index(colour)
            self._colours[other] = self._colours[index]
        self._colours[index] = colour
        self.refresh()

    def step_difficulty(self, by: int) -> None:
        to = self.difficulty + by
        if not 0 <= to < len(DIFFICULTIES):
            self.app.say(self.app.t(EASIEST if to < 0 else HARDEST))
            return
        self.difficulty = to
        self.refresh()

    def toggle_scrolls(self) -> None:
        self.scrolls = not self.scrolls

    def set_map_by(self, by: str) -> None:
        self.map_by = by
        self.error = ""

    def set_map_text(self, text: str) -> None:
        self.map_text = text

    def show_rulings(self) -> None:
        from companion.games.obelisk.rules import Rules

        self.app.show_rulings("obelisk", Rules())

    def start(self) -> None:
        from companion.session.table import Table

        t = self.app.t
        players = [((self._names[i].strip() or t(PLAYER_N).format(n=i + 1)), self._colours[i])
                   for i in range(self.count)]
        names = [n.casefold() for n, _ in players]
        twice = next((n for n, _ in players if names.count(n.casefold()) > 1), None)
        if twice:
            self.error = t(SAME_NAME).format(name=twice)
            return
        seed = self.app.seed if self.app.seed is not None else random.SystemRandom().randrange(2**62)
        d = {"players": [{"name": n, "colour": c} for n, c in players], "difficulty": DIFFICULTIES[self.difficulty],
             "scrolls": self.scrolls, "seed": seed}
        if self.map_by == "table":
            d["map"] = self.map_text.strip()
        try:
            setup = Setup.from_json(d)
            table = Table.create(self.app.store, "obelisk", setup, title=", ".join(n for n, _ in players),
                                 clock=self.app.clock)
        except (InvalidInput, ValueError, StoreError) as err:
            self.error = translate_error(err, self.app.lang)
            return
        self.error = ""
        self.app.attach(table)


class ObeliskSetupScreen(Screen):
    model = ObjectProperty(None, rebind=True)


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
