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
from kivy.properties import (
    BooleanProperty, DictProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty,
)
from kivy.uix.screenmanager import Screen

from companion.games.errors import N_, InvalidInput
from companion.games.obelisk.box import (
    DEFAULT_DIFFICULTY, DIFFICULTIES, MAX_PLAYERS, MIN_PLAYERS, PLAYER_COLOURS, QUARRY_START,
)
from companion.games.obelisk.setup import Setup
from companion.games.obelisk.vocabulary import COLOUR, DIFFICULTY
from companion.i18n.messages import translate_message
from companion.session.store import StoreError
from companion.ui.obelisk import camera_map
from companion.ui.obelisk.setup_map import SetupMap  # noqa: F401  (the kv rule draws the group's map with it)

DEFAULT_NAMES = ("", "", "", "")
EASIEST = N_("This is the easiest level")
HARDEST = N_("This is the hardest level")
SAME_NAME = N_("Two players are called {name}: give each a different name")
PLAYER_N = N_("Player {n}")
QUARRY_STONES = N_("{n} {colour}")
NO_BOARD = N_("No tile board has read a tile yet: add one under Dice and boards, then lay the tiles on it")
BOARD_READ = N_("Read from the board: check the map against the table, then start")
BOARD_MOUNTAINS = N_("Mountains on {cells}: without Scrolls the rulebook takes them off the map")
BOARD_UNKNOWN = N_("Tiles the app does not know: {ids}")
TEACH_NONE = N_("Lay one tile on the board first: the app then asks which land it is")
TEACH_ASK = N_("Tile {id} lies on {cell}: which land is it?")
TAUGHT = N_("Tile {id} is {land} from now on")


class SetupModel(EventDispatcher):
    count = NumericProperty(2)
    seats = ListProperty()
    difficulty = NumericProperty(DIFFICULTIES.index(DEFAULT_DIFFICULTY))
    difficulty_text = StringProperty("")
    scrolls = BooleanProperty(False)
    time_trials = BooleanProperty(False)
    leadership = BooleanProperty(False)
    map_by = StringProperty("app")      # "app": the app lays it; "table": the group typed it in
    realm = StringProperty("app")       # who draws the demons: "app" (hidden, seeded) or "table" (the real box top)
    quarry_due = NumericProperty(0)     # the real box top with 1 or 3 players: stones drawn for the Quarry at setup
    quarry = ListProperty([0, 0, 0])    # … green, yellow, blue, as the group drew them
    quarry_texts = ListProperty(["", "", ""])
    map_text = StringProperty("")
    error = StringProperty("")
    picture = DictProperty()   # the group's map as the engine reads it, drawn for them to check against the table

    def __init__(self, plugin, **kwargs):
        super().__init__(**kwargs)
        self.plugin = plugin
        self.app = plugin.app
        self.reset()

    def reset(self) -> None:
        self._board: dict[int, tuple[int, str]] = {}   # what a tile-grid board read while the setup was open
        self._last_read: tuple[int, int] | None = None   # (cell, tile id) the board read last: the tile to teach
        self.follow_board()
        self._names = list(DEFAULT_NAMES)
        self._colours = list(PLAYER_COLOURS)
        self.count = 2
        self.difficulty = DIFFICULTIES.index(DEFAULT_DIFFICULTY)
        self.scrolls = False
        self.time_trials = False
        self.leadership = False
        self.map_by = "app"
        self.realm = "app"
        self.quarry = [0, 0, 0]
        self.map_text = ""
        self.error = ""
        self.refresh()

    def refresh(self) -> None:
        t = self.app.t
        self.seats = [{"index": i, "name": self._names[i], "hint": t(PLAYER_N).format(n=i + 1),
                       "colour": self._colours[i], "colour_text": t(COLOUR[self._colours[i]])}
                      for i in range(self.count)]
        self.difficulty_text = t(DIFFICULTY[DIFFICULTIES[self.difficulty]])
        self.quarry_due = QUARRY_START[self.count] if self.realm == "table" else 0
        self.quarry_texts = [t(QUARRY_STONES).format(n=n, colour=t(COLOUR[c]))
                             for n, c in zip(self.quarry, ("green", "yellow", "blue"))]

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

    def set_realm(self, realm: str) -> None:
        self.realm = realm
        self.refresh()

    def more_quarry(self, index: int) -> None:
        """One more stone of that colour drawn for the Quarry (round again to none after the number due)."""
        stones = list(self.quarry)
        stones[index] = (stones[index] + 1) % (self.quarry_due + 1)
        self.quarry = stones
        self.refresh()

    def toggle_leadership(self) -> None:
        """Rotating Leadership: the first seat holds the leader token first (seat the one with the longest hair
        there)."""
        self.leadership = not self.leadership

    def toggle_time_trials(self) -> None:
        self.time_trials = not self.time_trials

    def set_map_by(self, by: str) -> None:
        self.map_by = by
        self.error = ""
        self._draw_map()

    # -- the tile-grid board ------------------------------------------------------------------------------------------
    def follow_board(self) -> None:
        """Keep what a tile-grid board reads (the app's devices); nothing changes until the players ask for it."""
        devices = getattr(self.app, "devices", None)
        if devices is None or getattr(self, "_following", None) is devices:
            return
        self._following = devices
        devices.subscribe(self._observed)

    def _observed(self, obs) -> None:
        from firmware_bridge.observations import TileGrid, TileRead

        from companion.session.devices import plays_by_itself

        if plays_by_itself(getattr(obs, "source", "")):
            return   # a demo board playing by itself never lays a group's map
        if isinstance(obs, TileGrid):
            self._board = {c.cell: (c.tile, c.direction) for c in obs.cells}
        elif isinstance(obs, TileRead):
            self._board[obs.cell] = (obs.tile, obs.direction)
            self._last_read = (obs.cell, obs.tile)

    def read_board(self) -> None:
        """The map the board read, proposed: shown as the group's map for them to check, mountains flagged."""
        from companion.games.obelisk.model import cell_name
        from companion.ui.obelisk.board import cell_of, map_text

        t = self.app.t
        self.follow_board()
        if not any(tile for tile, _ in self._board.values()):
            self.app.say(t(NO_BOARD))
            return
        from companion.ui.obelisk.board import kinds

        text, mountains, unknown = map_text(self._board, kinds(self.app.store.data_dir))
        self.map_by = "table"
        self.map_text = text
        self._draw_map()
        said = [t(BOARD_READ)]
        if mountains and not self.scrolls:
            said.append(t(BOARD_MOUNTAINS).format(cells=", ".join(cell_name(cell_of(i)) for i in mountains)))
        if unknown:
            said.append(t(BOARD_UNKNOWN).format(ids=", ".join(map(str, unknown))))
        self.error = ""
        self.app.say(" · ".join(said))

    # -- the camera (camera_map.py): its map proposed, unread cells filled in by hand -------------------------------
    def read_camera(self) -> None:
        camera_map.propose_setup(self)

    def use_camera_map(self, text: str) -> None:
        """The players confirmed the camera's map: it is the group's map (unread cells still "??")."""
        self.map_by = "table"
        self.error = ""
        self.set_map_text(text)
        if camera_map.unread(text):
            self.app.say(self.app.t(camera_map.FILL_HINT))

    def fill_cell(self, cell, word: str) -> None:
        self.set_map_text(camera_map.filled(self.map_text, cell, word))

    def teach_tile(self) -> None:
        """Once per box: the tile the board read last, and which land it is (five choices); remembered beside the
        tables for every later game."""
        from companion.games.obelisk.model import cell_name
        from companion.games.obelisk.vocabulary import LAND
        from companion.ui.obelisk.board import ORDER, cell_of

        t = self.app.t
        self.follow_board()
        if self._last_read is None or not self._last_read[1]:
            self.app.say(t(TEACH_NONE))
            return
        cell, tile = self._last_read
        self.plugin.pick(t(TEACH_ASK).format(id=tile, cell=cell_name(cell_of(cell))), [
            {"text": t(LAND[kind]), "action": (lambda kind=kind: self._taught(tile, kind))} for kind in ORDER])

    def _taught(self, tile: int, kind: str) -> None:
        from companion.games.obelisk.vocabulary import LAND
        from companion.ui.obelisk.board import teach

        teach(self.app.store.data_dir, tile, kind)
        self.app.say(self.app.t(TAUGHT).format(id=tile, land=self.app.t(LAND[kind])))

    def set_map_text(self, text: str) -> None:
        self.map_text = text
        self._draw_map()

    def _draw_map(self) -> None:
        """The typed (or read) map drawn as it will lie on the table, when the engine can read it; nothing else."""
        from companion.games.obelisk.model import all_cells
        from companion.games.obelisk.notation import map_from_text
        from companion.ui.obelisk.texts import land_word

        if self.map_by == "table" and camera_map.unread(self.map_text):
            self.picture = camera_map.picture(self.map_text, self.app.t)   # the camera's gaps drawn as "?"
            return
        try:
            game_map = map_from_text(self.map_text.strip()) if self.map_by == "table" else None
        except (InvalidInput, ValueError):
            game_map = None
        if game_map is None:
            self.picture = {}
            return
        tiles = [(c, None if (tile := game_map[c]) is None else (tile.kind, tile.facing, False, None,
                                                                  land_word(tile.kind, self.app.t)))
                 for c in all_cells()]
        self.picture = {"tiles": tiles, "routes": [], "demons": [], "obelisks": []}

    # a map drawn at setup is only looked at, but for the cells the camera could not read: tapped, they are asked
    def tap_cell(self, cell) -> None:
        if self.map_by == "table" and tuple(cell) in camera_map.unread(self.map_text):
            camera_map.ask_cell(self, tuple(cell))

    def tap_corner(self, corner) -> None:
        pass

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
        gaps = camera_map.unread(self.map_text) if self.map_by == "table" else []
        if gaps:
            from companion.games.obelisk.model import cell_name

            self.error = t(camera_map.START_UNREAD).format(cells=", ".join(cell_name(c) for c in gaps))
            return
        seed = self.app.seed if self.app.seed is not None else random.SystemRandom().randrange(2**62)
        d = {"players": [{"name": n, "colour": c} for n, c in players], "difficulty": DIFFICULTIES[self.difficulty],
             "scrolls": self.scrolls, "time_trials": self.time_trials,
             "leadership": self.leadership, "seed": seed}
        if self.realm == "table":
            # A group that draws from the real box top plays all of chance by hand: the Scrolls' D6 too.
            d["realm"] = "table"
            d["dice"] = "table"
            if QUARRY_START[self.count]:
                d["quarry"] = dict(zip(("green", "yellow", "blue"), self.quarry))
        if self.map_by == "table":
            d["map"] = self.map_text.strip()
        try:
            setup = Setup.from_json(d)
            table = Table.create(self.app.store, "obelisk", setup, title=", ".join(n for n, _ in players),
                                 clock=self.app.clock)
        except (InvalidInput, ValueError, StoreError) as err:
            self.error = translate_message(err, self.app.lang)
            return
        self.error = ""
        self.app.attach(table)


class ObeliskSetupScreen(Screen):
    model = ObjectProperty(None, rebind=True)


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
