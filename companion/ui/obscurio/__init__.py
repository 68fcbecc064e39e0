"""The Obscurio UI plug-in: setup, the private loyalty deal, the table (steps 1, 2, 4, 5), the night (step 3), the
accusation and the end, with their view-models (companion/ui/plugin.py).

The plug-in keeps the open table's clock honest: a frame tick polls the session's GameClock (the hourglass where
the rules want it, set down until the first card is laid; `Sand` when it runs out; the night's lines, which run on
the same timers) and redraws the sand from the timer service — every timing comes from `app.clock`. The shell
imports this package only through the registry (`Game.ui_plugin`); it uses the Obscurio engine, the shell's shared
widgets and the session, no other game. Every size comes from the window (`layout`), followed when it is resized.
"""
from __future__ import annotations

import logging

from companion.ui.plugin import GamePlugin

log = logging.getLogger(__name__)

FRAME = 1 / 30   # the sand is redrawn (and the clocks polled) this often
SCREENS = {"private": "obscurio-loyalty", "traitor": "obscurio-night", "accuse": "obscurio-accusation",
           "end": "obscurio-end", "table": "obscurio-table"}


class Plugin(GamePlugin):
    game = "obscurio"

    def __init__(self, app):
        super().__init__(app)
        from companion.ui.obscurio import widgets  # noqa: F401  (this game's widget rules)
        from companion.ui.obscurio.accuse import AccuseModel
        from companion.ui.obscurio.board import Board
        from companion.ui.obscurio.end import EndModel
        from companion.ui.obscurio.layout import Layout
        from companion.ui.obscurio.loyalty import LoyaltyModel
        from companion.ui.obscurio.moves import MoveLog
        from companion.ui.obscurio.night import NightModel
        from companion.ui.obscurio.setup import SetupModel
        from companion.ui.obscurio.turn import TurnModel

        self.layout = Layout()
        self.layout.follow_window()
        self.setup = SetupModel(self)
        self.board = Board(self)
        self.turn = TurnModel(self)
        self.night = NightModel(self)
        self.accuse = AccuseModel(self)
        self.end = EndModel(self)
        self.loyalty = LoyaltyModel(self)
        self.moves = MoveLog()
        self.table = None
        self.gameclock = None
        self.narrator = None
        self.speaker = None          # None: the system's (espeak-ng where it exists); tests put their own here
        self.private = False         # the pass-the-tablet loyalty screen is open
        self.box = None              # (cohesion, dark) of the table whose rulings are shown
        self._unsubscribe: list = []
        self._tick_ev = None
        self.ticks = 0               # frame ticks so far (a test driver waits for the next one after moving its clock)
        self.layout.bind(height=lambda *_: self._relayout(), width=lambda *_: self._relayout())

    # -- the shell's calls ---------------------------------------------------------------------------------------
    def new_table(self) -> None:
        from companion.ui.obscurio.setup import ObsoSetupScreen

        self.setup.reset()
        self.app.show("obscurio-setup", ObsoSetupScreen, self.setup)

    def attach(self, table) -> None:
        """Show `table` where it stands (the night, too, where it stood)."""
        from kivy.clock import Clock

        from companion.session.gameclock import GameClock
        from companion.session.narrator import Narrator

        self.detach()
        self.table = table
        for model in self._models():
            model.table = table
        self.moves.start(table)
        # The GameClock follows the table before the screens do: a refresh then sees the glass already set.
        self.gameclock = GameClock(table, on_error=lambda err: self.app.say(str(err)))
        self.narrator = Narrator(self.app.clock, self._speaker(), timers=table.timers, lang=lambda: self.app.lang,
                                 text=self.night.line_text)
        self._unsubscribe = [table.subscribe(self._on_change), self.narrator.subscribe(self.night.narrated)]
        self.private = False
        if not self.opened_from_history:
            self.night.resume_or_begin()
        self._refresh()
        self._show()
        self._tick_ev = Clock.schedule_interval(self._tick, FRAME)

    def detach(self) -> None:
        if self._tick_ev is not None:
            self._tick_ev.cancel()
            self._tick_ev = None
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe = []
        if self.narrator is not None:
            self.narrator.close()   # the stored night stays where it stood: reopened, it goes on from there
        self.stop_sound("mask")
        if self.gameclock is not None:
            self.gameclock.close()
        self.narrator = self.gameclock = None
        self.table = None
        self.private = False
        for model in self._models():
            model.table = None

    def refresh(self) -> None:
        self.setup.refresh()
        if self.table is not None:
            self._refresh()

    def ruling_value(self, ruling_id: str, rules) -> str | None:
        from companion.ui.obscurio.setup import ruling_value

        return ruling_value(ruling_id, rules, self.app.t, self.box)

    def open_menu(self) -> None:
        """The shell's menu (language, sound) from every Obscurio screen, with this table's rulings and checklist;
        the shell makes the extras again when the language is switched in the menu."""
        self.app.open_menu(extras=self._menu_extras)

    def _menu_extras(self) -> list[dict]:
        from companion.games.errors import N_

        if self.table is None:
            return []
        t = self.app.t
        return [{"text": t(N_("Rulings")), "action": self.board.show_rulings},
                {"text": t(N_("The box: what to set up")), "action": self.show_checklist}]

    def show_checklist(self) -> None:
        """What the box must hold for this table (the real cards, the gauge, the bag): before turn 1, and on call."""
        from companion.games.errors import N_
        from companion.ui.obscurio.moments import ObsoChecklistSheet
        from companion.ui.obscurio.turn import checklist

        t = self.app.t
        self.app.open_sheet(ObsoChecklistSheet(title=t(N_("Before turn 1: the box")),
                                               lines=checklist(self.table.state, t),
                                               done_text=t(N_("Everything is set"))))

    # -- the private loyalty screen ------------------------------------------------------------------------------
    def open_loyalty_deal(self) -> None:
        """A new table whose loyalty cards the app dealt: every wizard looks at theirs before turn 1."""
        self._open_private(from_table=False)

    def open_loyalty(self) -> None:
        """From the table: a wizard who forgot their card asks to look again (noted in the move log)."""
        self._open_private(from_table=True)

    def _open_private(self, from_table: bool) -> None:
        if self.table is None or self.table.state.setup.loyalty != "app":
            return
        self.loyalty.reset(from_table=from_table)
        self.private = True
        self._show()

    def close_loyalty(self) -> None:
        self.private = False
        self._refresh()
        self._show()

    # -- following the table -------------------------------------------------------------------------------------
    def _models(self):
        return (self.board, self.turn, self.night, self.accuse, self.end, self.loyalty)

    def _on_change(self, table, kind: str) -> None:
        self.app.dismiss_banner()   # a refusal said before this move no longer applies
        before = self.moves.state
        self.moves.follow(table, kind)
        after = table.state
        for model in (self.turn, self.accuse, self.end):
            model.reset_entry()
        catching_up = self.gameclock is not None and self.gameclock.catching_up
        if kind == "action" and not catching_up:
            self._moment(before, after)
        self._night(before, after, kind)
        self._refresh()
        self._show()

    def _night(self, before, after, kind: str) -> None:
        """The night follows the table: it begins with step 3, goes back to the Traitor's choice when Undo takes
        back the closed card holder, and ends when Undo leaves step 3 for step 2."""
        if after.phase == "traitor" and before.phase != "traitor":
            if kind == "action":
                self.night.begin()
            elif before.phase == "doors":
                self.night.back_to_choice()
            else:
                self.night.begin()
        elif after.phase not in ("traitor", "doors") and self.narrator is not None and self.narrator.running:
            self.night.end()

    def night_over(self) -> None:
        """The night's last line is over: on to step 4."""
        self._refresh()
        self._show()

    def _moment(self, before, after) -> None:
        """The sounds and moments (table rule 7): the glass turned, "Stop!", the night, the reveal, the Watcher, the
        traps drawn from the app's bag, the end."""
        from companion.games.obscurio.actions import Draw

        last = self.table.actions[-1] if self.table.actions else None
        if after.phase in ("over", "unmask") and before.phase not in ("over", "unmask"):
            self.sound("end")
        elif after.phase == "exit" and after.stopped and not before.stopped:
            self.sound("stop")
        elif after.phase == "doors" and before.phase == "doors" and after.space != before.space:
            self.sound("flip")
        elif after.phase == "traitor" and before.phase != "traitor":
            self.sound("night")
        elif before.phase == "exit" and after.exit is not None:
            self.sound("flip")
        elif after.phase == "vote" and before.phase == "discussion":
            self.sound("stop")
        if after.watcher and not before.watcher and after.phase not in ("over", "unmask"):
            self._watcher_moment(after)
        elif isinstance(last, Draw) and after.setup.bag == "app" and before.phase == "traps":
            self._traps_moment(after)

    def _watcher_moment(self, state) -> None:
        from companion.games.errors import N_
        from companion.ui.obscurio.board import watcher_words

        t = self.app.t
        self.app.announce(t(N_("The Watcher is awake")), watcher_words(state, t), sound="watcher",
                          tint=(0.95, 0.45, 0.40, 1))

    def _traps_moment(self, state) -> None:
        """The tokens the app drew, for the whole table to see before step 2 (the Grimoire taps to go on)."""
        from companion.games.errors import N_
        from companion.games.obscurio.constants import TRAP_STEP
        from companion.games.obscurio.vocabulary import TRAP, TRAP_EFFECT
        from companion.ui.obscurio import look
        from companion.ui.obscurio.moments import ObsoTrapsSheet

        t = self.app.t
        traps = [{"name": t(TRAP[x]), "effect": t(TRAP_EFFECT[x]), "trap_rgba": list(look.TRAP_STEP_RGBA[TRAP_STEP[x]])}
                 for x in state.traps]
        title = t(N_("Traps this turn: {n}")).format(n=len(state.traps))
        self.app.open_sheet(ObsoTrapsSheet(title=title, traps=traps, hint=t(N_("Tap to continue"))))
        self.sound("event")

    def sound(self, name: str) -> None:
        """Play a moment's sound through the shell's sound service (it honours the group's mute); none yet: silent."""
        self._sounds("play", name)

    def loop_sound(self, name: str) -> None:
        self._sounds("loop", name)

    def stop_sound(self, name: str) -> None:
        self._sounds("stop_loop", name)

    def _sounds(self, how: str, name: str) -> None:
        sounds = getattr(self.app, "sounds", None)
        if sounds is None:
            return
        try:
            getattr(sounds, how)(name)
        except Exception as err:  # an unknown or broken sound must never stop the game
            log.info("sound %s (%s) not played: %s", name, how, err)

    def _speaker(self):
        if self.speaker is not None:
            return self.speaker
        from companion.session.speech import MutedWhen, system_speaker

        # The sound switch is read at every line, so muting in the middle of the night silences the next one.
        return MutedWhen(system_speaker(), lambda: bool(getattr(getattr(self.app, "sounds", None), "muted", False)))

    def _tick(self, _dt) -> None:
        self.ticks += 1
        if self.table is None:
            return
        self.gameclock.poll()     # a glass that ran out becomes Sand, a night line moves on (same timers)
        if self.table is None:
            return
        self.board.redraw_sand()
        self.night.redraw()

    def _relayout(self) -> None:
        """The window changed size: the sizes the models work out follow."""
        if self.table is not None:
            self._refresh()

    def _refresh(self) -> None:
        self.board.refresh()
        for model in (self.turn, self.night, self.accuse, self.end, self.loyalty):
            model.refresh()

    def _show(self) -> None:
        from companion.ui.obscurio.accuse import ObsoAccuseScreen
        from companion.ui.obscurio.end import ObsoEndScreen
        from companion.ui.obscurio.loyalty import ObsoLoyaltyScreen
        from companion.ui.obscurio.night import ObsoNightScreen
        from companion.ui.obscurio.turn import ObsoTableScreen

        phase = self.table.state.phase
        if self.private:
            self.app.show(SCREENS["private"], ObsoLoyaltyScreen, self.loyalty)
        elif phase == "traitor" or self.night.active:
            self.app.show(SCREENS["traitor"], ObsoNightScreen, self.night)
        elif phase in ("discussion", "vote", "loyalty"):
            self.app.show(SCREENS["accuse"], ObsoAccuseScreen, self.accuse)
        elif phase in ("unmask", "over"):
            self.app.show(SCREENS["end"], ObsoEndScreen, self.end)
        else:
            self.app.show(SCREENS["table"], ObsoTableScreen, self.turn)
