"""Obscurians setup: who sits where in which colour, who starts, the event deck, the mission cards a 4-player game
puts back, the house rules.

`SetupModel` is the view-model (a Kivy EventDispatcher the .kv binds to); `ObsnSetupScreen` is layout only
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
from companion.games.obscurians.constants import BASE_COLOURS, COLOURS, FACES, OPPOSITE
from companion.games.obscurians.rules import DEFAULT_PIPS, Rules, with_pip
from companion.games.obscurians.setup import TRIO_A, TRIO_B, Setup
from companion.games.obscurians.vocabulary import FACE, MISSION
from companion.session.store import StoreError
from companion.ui import widgets  # noqa: F401  (shared widget rules first)
from companion.ui.obscurians import widgets as _own_widgets  # noqa: F401  (this game's widget classes)


class SetupModel(EventDispatcher):
    rows = ListProperty()
    count = NumericProperty(4)
    deck = StringProperty("app")
    error = StringProperty("")
    take_cap = BooleanProperty(True)   # the house rule for Take (RULING obscurians-take-cap)
    pips_text = StringProperty("")     # the smart dice's faces, pip by pip (RULING obscurians-dice)
    # 4 players: two mission cards go back in the box unseen (rulebook "Game Setup"), so nobody learns them before
    # the game is over: "unseen" (the app is told nothing), or "seen" (a group that looked taps them in).
    put_back_mode = StringProperty("unseen")
    put_back_text = StringProperty("")
    put_back_a = ListProperty()        # Keep / Take / Collect buttons (tapped in from the real cards)
    put_back_b = ListProperty()        # Give / Select / Lose buttons

    def __init__(self, plugin, **kwargs):
        super().__init__(**kwargs)
        self.plugin = plugin
        self.app = plugin.app
        self._players: list[dict] = []
        self._start = 0
        self._seed = 0
        self._picked: dict[str, str] = {}  # trio ("a"/"b") -> the card the table put back
        self._pips: dict[int, str] = dict(DEFAULT_PIPS)

    def reset(self) -> None:
        self._players = [{"name": "", "colour": c} for c in BASE_COLOURS[:4]]
        self._start = 0
        self.deck = "app"
        self.take_cap = True
        self._pips = dict(DEFAULT_PIPS)
        self.error = ""
        self.put_back_mode = "unseen"
        self._picked = {}
        self._seed = self.app.seed if self.app.seed is not None else random.SystemRandom().randrange(2**31)
        self.refresh()

    def refresh(self) -> None:
        if not self._players:
            return
        self._refresh_pips()
        n = len(self._players)
        palette = COLOURS if n == 7 else BASE_COLOURS
        t = self.app.t
        holder = {p["colour"]: j for j, p in enumerate(self._players)}
        rows = []
        for i, p in enumerate(self._players):
            rows.append({
                "index": i, "name": p["name"], "hint": t(N_("Player {n}")).format(n=i + 1),
                "colour": p["colour"], "starter": i == self._start,
                # A colour someone else has shows their seat number; tapping it swaps the two colours.
                "swatches": [{"index": i, "colour": c, "selected": c == p["colour"], "enabled": True,
                              "taken_by": str(holder[c] + 1) if c in holder and holder[c] != i else ""}
                             for c in palette],
            })
        self.count = n
        self.rows = rows
        self._refresh_put_back()

    def _refresh_put_back(self) -> None:
        t = self.app.t
        if self.count != 4:
            self.put_back_text, self.put_back_a, self.put_back_b = "", [], []
            return
        if self.put_back_mode == "unseen":
            self.put_back_text = t(N_("Shuffle Keep, Take and Collect face down and put one back in the box unseen; "
                                      "the same with Give, Select and Lose. Shuffle the other four and deal them "
                                      "face down."))
        else:
            self.put_back_text = t(N_("You looked at the two cards put back: tap them in, and the app will refuse "
                                      "them as missions at the end."))
        seen = self.put_back_mode == "seen"
        self.put_back_a = [{"mission": m, "text": t(MISSION[m]), "selected": self._picked.get("a") == m,
                            "enabled": seen} for m in TRIO_A]
        self.put_back_b = [{"mission": m, "text": t(MISSION[m]), "selected": self._picked.get("b") == m,
                            "enabled": seen} for m in TRIO_B]

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
        """Take `colour`; if another seat has it, the two seats swap colours."""
        other = next((j for j, q in enumerate(self._players) if q["colour"] == colour and j != index), None)
        if other is not None:
            self._players[other]["colour"] = self._players[index]["colour"]
        self._players[index]["colour"] = colour
        self.refresh()

    def move_player(self, index: int, to: int) -> None:
        """Move a seat (name, colour, and being the starter) to place `to` in the clockwise order."""
        if not (0 <= index < len(self._players) and 0 <= to < len(self._players)) or index == to:
            return
        starter = self._players[self._start]
        player = self._players.pop(index)
        self._players.insert(to, player)
        self._start = self._players.index(starter)
        self.refresh()

    def move_up(self, index: int) -> None:
        """The fallback for dragging: one place earlier in the clockwise order (the first goes last)."""
        self.move_player(index, (index - 1) % len(self._players))

    def set_start_player(self, index: int) -> None:
        self._start = index
        self.refresh()

    def set_deck(self, deck: str) -> None:
        self.deck = deck

    def set_put_back_mode(self, mode: str) -> None:
        self.put_back_mode = mode
        self._picked = {}
        self._refresh_put_back()

    def tap_put_back(self, mission: str) -> None:
        if self.put_back_mode != "seen":
            self.app.say(self.app.t(N_("The two cards go back unseen. Only a group that looked at them taps them "
                                       "in: choose “We looked at them”")))
            return
        trio = "a" if mission in TRIO_A else "b"
        self._picked[trio] = None if self._picked.get(trio) == mission else mission
        self._picked = {k: v for k, v in self._picked.items() if v}
        self._refresh_put_back()

    def toggle_take_cap(self) -> None:
        self.take_cap = not self.take_cap

    # -- the smart dice's faces (RULING obscurians-dice) -----------------------------------------------------------
    def edit_pips(self) -> None:
        """Which face a smart die's pips stand for: pick a pip, then its face. Opposite pips keep opposite faces:
        the pair moves together, and the pair that had that face takes the pip's old one."""
        t = self.app.t
        self.app.choose_sheet(t(N_("Smart dice: which pip do you change?")),
                              [{"text": f"{pip}: {t(FACE[face])}", "action": (lambda p=pip: self._pick_face(p))}
                               for pip, face in sorted(self._pips.items())])

    def _pick_face(self, pip: int) -> None:
        t = self.app.t
        self.app.choose_sheet(
            t(N_("Pip {pip} shows (pip {other} then shows the opposite face):")).format(pip=pip, other=7 - pip),
            [{"text": f"{t(FACE[face])} · {7 - pip}: {t(FACE[OPPOSITE[face]])}",
              "action": (lambda f=face: self.set_pip(pip, f))} for face in FACES])

    def set_pip(self, pip: int, face: str) -> None:
        self._pips = with_pip(self._pips, pip, face)
        self._refresh_pips()
        self.app.say(self.pips_text)

    def _refresh_pips(self) -> None:
        t = self.app.t
        self.pips_text = t(N_("Smart dice: {faces}")).format(
            faces=" · ".join(f"{pip} {t(FACE[face])}" for pip, face in sorted(self._pips.items())))

    def rules(self) -> Rules:
        """The house rules chosen here, as the engine's rules profile."""
        return Rules(take_cap=self.take_cap, pips=tuple(sorted(self._pips.items())))

    def show_rulings(self) -> None:
        self.app.show_rulings("obscurians", self.rules())

    def open_menu(self) -> None:
        self.app.open_menu(0)

    def put_back(self):
        """The mission cards this table put back (4 players): the two a group that looked tapped in, else None
        (put back unseen: the app knows no more than the players)."""
        if self.count != 4 or self.put_back_mode != "seen":
            return None
        if len(self._picked) == 2:
            return (self._picked["a"], self._picked["b"])
        return None

    def start(self) -> None:
        from companion.session.table import Table

        t = self.app.t
        if self.count == 4 and self.put_back_mode == "seen" and len(self._picked) == 1:
            self.error = t(N_("Tap one card of each group of three, or none (put back unseen)."))
            return
        players = []
        for i, p in enumerate(self._players):
            name = p["name"].strip() or t(N_("Player {n}")).format(n=i + 1)
            players.append((name, p["colour"]))
        try:
            setup = Setup(players=tuple(players), start=self._start, deck=self.deck, seed=self._seed,
                          rules=self.rules(), put_back=self.put_back())
            table = Table.create(self.app.store, "obscurians", setup, title=", ".join(n for n, _ in players))
        except (InvalidInput, ValueError, StoreError) as err:
            self.error = str(err)
            return
        self.app.attach(table)
        if setup.deck == "app":  # the app's deck: the first event card is revealed as the game starts (announced)
            self.app.try_move(lambda: table.apply(table.state.legal_actions()[0]))


class ObsnSetupScreen(Screen):
    model = ObjectProperty(None, rebind=True)


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
