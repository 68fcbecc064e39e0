"""The Obelisk UI plug-in: the setup (players, difficulty, Scrolls, the app's map or the group's), and the table
(the map, the Day's actions, the Night's captures with the advisor's plan, the Quarry, the moves and Undo), with their
view-models (companion/ui/plugin.py). It uses the Obelisk engine, the shell's widgets and the session, no other
game.
"""
from __future__ import annotations

from companion.ui.plugin import GamePlugin

TABLE = "obelisk-table"
SETUP = "obelisk-setup"
TICK = 0.25   # seconds between looks at the Time Trials minute


class Plugin(GamePlugin):
    game = "obelisk"

    def __init__(self, app):
        super().__init__(app)
        from companion.ui.obelisk import widgets  # noqa: F401  (this game's widget rules)
        from companion.ui.obelisk.setup import SetupModel
        from companion.ui.obelisk.table import TableModel

        self.setup = SetupModel(self)
        self.table_model = TableModel(self)
        self.table = None
        self._unsubscribe = None
        self._unsubscribe_board = None
        self.gameclock = None        # Time Trials: the session's GameClock keeps the minute where the rules want it
        self._tick_ev = None
        self._last_state = None      # the table as it stood before the last change (for the moments)
        self.camera_turns: dict = {}  # turns the camera screen saw while the table's screen was released …
        self.camera_table = None      # … on this table

    def new_table(self) -> None:
        from companion.ui.obelisk.setup import ObeliskSetupScreen

        self.setup.reset()
        self.app.show(SETUP, ObeliskSetupScreen, self.setup)

    def attach(self, table) -> None:
        from companion.ui.obelisk.table import ObeliskTableScreen

        self.detach()
        self.table = table
        self._last_state = table.state
        self._unsubscribe = table.subscribe(self._on_change)
        if table.state.setup.time_trials and not self.opened_from_history:
            from kivy.clock import Clock

            from companion.session.gameclock import GameClock

            self.gameclock = GameClock(table, on_error=lambda err: self.app.say(str(err)))
            self._tick_ev = Clock.schedule_interval(self._tick, TICK)
        self.table_model.start(table)
        if self.camera_turns:
            self._propose_camera_turns(table)
        devices = getattr(self.app, "devices", None)
        if devices is not None:
            self._unsubscribe_board = devices.subscribe(self._observed)
        self.app.show(TABLE, ObeliskTableScreen, self.table_model)

    def detach(self) -> None:
        if self._tick_ev is not None:
            self._tick_ev.cancel()
        self._tick_ev = None
        if self.gameclock is not None:
            self.gameclock.close()
        self.gameclock = None
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._unsubscribe = None
        if self._unsubscribe_board is not None:
            self._unsubscribe_board()
        self._unsubscribe_board = None
        self.table = None
        self.table_model.stop()

    def map_read(self, reading) -> str | None:
        """The camera screen over this open table read the map: turned tiles become the proposed Rotate, shown on
        the map when the group goes back (camera_map.py)."""
        from companion.ui.obelisk import camera_map

        if self.app.table is None or self.app.table.game != self.game:
            return None
        return camera_map.seen_from_camera_screen(self, reading)

    def _propose_camera_turns(self, table) -> None:
        """Back from the camera screen: its turns proposed on the map, if the engine still takes them (a move made
        meanwhile, by dice the camera read, may have made them illegal: then they are dropped and said)."""
        from companion.games.obelisk.actions import Rotate
        from companion.games.obelisk.model import cell_name
        from companion.ui.obelisk import camera_map, texts

        turns, self.camera_turns = self.camera_turns, {}
        if table is not self.camera_table:
            return                   # another table opened since: the camera saw that one's map
        model = self.table_model
        t = self.app.t
        why = (model._refusal(Rotate(model.actor, tuple(turns.items())), model.state) if model.actor else
               t(texts.NO_ONE))
        if why is not None:
            self.app.say(why)
            return
        model.pending = turns
        model.refresh()
        self.app.say(t(camera_map.TURNED if len(turns) == 1 else camera_map.TURNED_MANY).format(
            cells=", ".join(cell_name(c) for c in sorted(turns))))

    def refresh(self) -> None:
        self.setup.refresh()
        if self.table is not None:
            self.table_model.refresh()

    def ruling_value(self, ruling_id: str, rules) -> str | None:
        """The rules profile's values in the players' language (rulings.values writes them in English)."""
        from companion.games.obelisk.vocabulary import ACTIONS_VALUE, COLOUR, DEMONS_VALUE, REPEAT_VALUE

        t = self.app.t
        if ruling_id == "obelisk-demons":
            return "; ".join(t(DEMONS_VALUE).format(colour=t(COLOUR[c]), speed=speed, strength=strength)
                             for c, speed, strength in rules.demons)
        if ruling_id == "obelisk-actions":
            return "; ".join(t(ACTIONS_VALUE["one" if n == 1 else "other"]).format(n=n, actions=count, rotate=rotate)
                             + (", " + t(REPEAT_VALUE) if repeat else "") for n, count, rotate, repeat in rules.actions)
        return None

    def pick(self, question: str, options: list, angle: int = 0) -> None:
        """A question and its options ({"text", "action"}), scrolling when they are more than the window holds;
        turned by `angle` to face the player it is for (the far side: 180)."""
        from companion.ui.obelisk.widgets import ObeliskPickSheet

        self.app.open_sheet(ObeliskPickSheet(question=question, extras=options), angle)

    def open_menu(self) -> None:
        """The shell's menu (language, sound) with this table's rulings."""
        self.app.open_menu(extras=self._menu_extras)

    def _menu_extras(self) -> list[dict]:
        from companion.games.errors import N_
        from companion.ui.obelisk import dice, texts

        if self.table is None:
            return []
        from companion.ui.camera import first_camera
        from companion.ui.obelisk import camera_map

        rules = self.table.state.rules
        camera = [{"text": self.app.t(camera_map.MENU), "action": lambda: camera_map.propose_turns(self.table_model)}]
        return [{"text": self.app.t(N_("Rulings")), "action": lambda: self.app.show_rulings("obelisk", rules)},
                {"text": self.app.t(N_("Turn the screen to the other side")), "action": self.table_model.turn_around},
                {"text": self.app.t(texts.SEATS), "action": self.table_model.seats_sheet},
                {"text": self.app.t(dice.MENU), "action": self.table_model.dice.open},
                *(camera if first_camera(self.app) else [])]

    def _tick(self, _dt) -> None:
        """Time Trials: a minute that ran out becomes the engine's Timeout (the GameClock applies it); the clock on
        screen follows the timer service."""
        if self.gameclock is None:
            return
        self.gameclock.poll()
        self.table_model.show_clock()

    def _observed(self, obs) -> None:
        """The tile-grid board read a tile on the open table's map (a demo board playing by itself is ignored)."""
        from firmware_bridge.observations import TileRead

        from companion.session.devices import plays_by_itself

        if isinstance(obs, TileRead) and not plays_by_itself(obs.source) and self.table is not None:
            self.table_model.board_read(obs.cell, obs.tile, obs.direction)

    def _on_change(self, table, kind: str) -> None:
        self.app.dismiss_banner()   # a refusal said before this move no longer applies
        before = self._last_state
        self._last_state = table.state
        self.table_model.changed(before if kind == "action" else None)
        if kind == "action" and before is not None:
            self._moment(before, table.state)

    def _moment(self, before, after) -> None:
        """Table rule 7: the Night falling and the end are announced, large and with their sound (a tap closes the
        announcement and does nothing else); a new Day is a sound only, so that the Day's first tap is a move."""
        from companion.ui.obelisk import texts

        t = self.app.t
        if after.is_over:
            won = after.result == "won"
            self.app.announce(t(texts.OVER), self.table_model.prompt, sound="winner" if won else "end",
                              tint=(0.55, 0.85, 0.45, 1) if won else (0.95, 0.45, 0.40, 1))
        elif after.is_night and not before.is_night:
            self.app.announce(t(texts.NIGHT).format(n=after.day), t(texts.NIGHT_MAP), sound="night",
                              tint=(0.55, 0.60, 0.95, 1))
        elif after.phase == "day" and before.day != after.day:
            self._sound("flip")

    def _sound(self, name: str) -> None:
        sounds = getattr(self.app, "sounds", None)
        if sounds is not None:
            try:
                sounds.play(name)
            except Exception:  # a sound that cannot play must never stop the game  # noqa: BLE001
                pass
