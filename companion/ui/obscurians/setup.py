"""Obscurians setup: who sits where in which colour, who starts, the event deck, the house rules.

`SetupModel` is the view-model (a Kivy EventDispatcher the .kv binds to); `SetupScreen` is layout only
(setup.kv). The Setup itself, and every check on it, is the engine's (companion.games.obscurians.setup).
"""
from __future__ import annotations

import random
from pathlib import Path

from kivy.event import EventDispatcher
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.games.errors import N_, InvalidInput
from companion.games.obscurians.constants import BASE_COLOURS, COLOURS
from companion.games.obscurians.rules import Rules
from companion.games.obscurians.setup import Setup
from companion.session.store import StoreError
from companion.ui import widgets  # noqa: F401  (shared widget rules first)
from companion.ui.obscurians import widgets as _own_widgets  # noqa: F401  (this game's widget classes)


class SetupModel(EventDispatcher):
    rows = ListProperty()
    count = NumericProperty(4)
    deck = StringProperty("app")
    error = StringProperty("")
    take_cap = BooleanProperty(True)   # the house rule for Take (RULING obscurians-take-cap)

    def __init__(self, plugin, **kwargs):
        super().__init__(**kwargs)
        self.plugin = plugin
        self.app = plugin.app
        self._players: list[dict] = []
        self._start = 0

    def reset(self) -> None:
        self._players = [{"name": "", "colour": c} for c in BASE_COLOURS[:4]]
        self._start = 0
        self.deck = "app"
        self.take_cap = True
        self.error = ""
        self.refresh()

    def refresh(self) -> None:
        if not self._players:
            return
        n = len(self._players)
        palette = COLOURS if n == 7 else BASE_COLOURS
        t = self.app.t
        rows = []
        for i, p in enumerate(self._players):
            taken = {q["colour"] for j, q in enumerate(self._players) if j != i}
            rows.append({
                "index": i, "name": p["name"], "hint": t(N_("Player {n}")).format(n=i + 1),
                "colour": p["colour"], "starter": i == self._start,
                "swatches": [{"index": i, "colour": c, "selected": c == p["colour"], "enabled": c not in taken}
                             for c in palette],
            })
        self.count = n
        self.rows = rows

    # -- intents (one per tap) -----------------------------------------------------------------------------------
    def set_player_count(self, n: int) -> None:
        n = max(4, min(7, int(n)))
        players = self._players[:n]
        palette = COLOURS if n == 7 else BASE_COLOURS
        for p in players:
            if p["colour"] not in palette:
                p["colour"] = ""
        while len(players) < n:
            players.append({"name": "", "colour": ""})
        for p in players:  # give everyone without a colour the first free one
            if not p["colour"]:
                used = {q["colour"] for q in players}
                p["colour"] = next(c for c in palette if c not in used)
        self._players = players
        self._start = min(self._start, n - 1)
        self.refresh()

    def set_player_name(self, index: int, name: str) -> None:
        if index < len(self._players) and self._players[index]["name"] != name:
            self._players[index]["name"] = name
            self.error = ""

    def set_player_colour(self, index: int, colour: str) -> None:
        others = {q["colour"] for j, q in enumerate(self._players) if j != index}
        if colour not in others:
            self._players[index]["colour"] = colour
            self.refresh()

    def set_start_player(self, index: int) -> None:
        self._start = index
        self.refresh()

    def set_deck(self, deck: str) -> None:
        self.deck = deck

    def toggle_take_cap(self) -> None:
        self.take_cap = not self.take_cap

    def rules(self) -> Rules:
        """The house rules chosen here, as the engine's rules profile."""
        return Rules(take_cap=self.take_cap)

    def show_rulings(self) -> None:
        self.app.show_rulings("obscurians", self.rules())

    def start(self) -> None:
        from companion.session.table import Table

        players = []
        for i, p in enumerate(self._players):
            name = p["name"].strip() or self.app.t(N_("Player {n}")).format(n=i + 1)
            players.append((name, p["colour"]))
        seed = self.app.seed if self.app.seed is not None else random.SystemRandom().randrange(2**31)
        try:
            setup = Setup(players=tuple(players), start=self._start, deck=self.deck, seed=seed, rules=self.rules())
            table = Table.create(self.app.store, "obscurians", setup, title=", ".join(n for n, _ in players))
        except (InvalidInput, ValueError, StoreError) as err:
            self.error = str(err)
            return
        self.app.attach(table)


class SetupScreen(Screen):
    model = ObjectProperty(None, rebind=True)


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
