"""The Obscurians UI plug-in: setup, round and end screens with their view-models (companion/ui/plugin.py).

The shell imports this package only through the registry (`Game.ui_plugin`); the package may use the Obscurians
engine, the shell's shared widgets and the session, never another game.
"""
from __future__ import annotations

from companion.games.errors import N_
from companion.ui.plugin import GamePlugin


class Plugin(GamePlugin):
    game = "obscurians"

    def __init__(self, app):
        super().__init__(app)
        from companion.ui.obscurians.layout import LAYOUT
        from companion.ui.obscurians.setup import SetupModel

        # Every size from the window's, followed when it is resized (issue 14 §7): the panels are placed again.
        LAYOUT.follow_window()
        LAYOUT.bind(width=self._relayout, height=self._relayout)
        self.setup = SetupModel(self)
        self.round = None   # RoundModel of the open table
        self.end = None     # EndModel of the open table
        self.table = None
        self._unsubscribe = None
        self.hand = False      # "in the hand": every panel upright (else around the edges, for a flat tablet)
        self.first_seat = 0    # which seat sits at the first place of the ring (the group turns it to fit)
        self.speaker = None    # None: the system's (espeak-ng where it exists); tests put their own here
        self.voice = None      # says the moments and whose turn it is (voice.py), for the open table

    def new_table(self) -> None:
        from companion.ui.obscurians.setup import ObsnSetupScreen

        self.setup.reset()
        self.app.show("setup", ObsnSetupScreen, self.setup)

    def attach(self, table) -> None:
        from companion.ui.obscurians.end import EndModel
        from companion.ui.obscurians.round import RoundModel

        self.detach()
        self.table = table
        self.first_seat = 0
        self.round = RoundModel(self, table)
        self.end = EndModel(self, table)
        from companion.ui.obscurians.voice import TableVoice

        self.voice = TableVoice(self._speaker(), lambda: self.app.lang)
        self.voice.follow(table.state)
        self._unsubscribe = table.subscribe(self._on_table_change)
        self._show()

    def detach(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._unsubscribe = None
        if self.voice is not None:
            self.voice.stop()
        self.table = self.round = self.end = self.voice = None

    def refresh(self) -> None:
        self.setup.refresh()
        if self.table is not None:
            self.round.refresh()
            self.end.refresh()

    def _relayout(self, *_) -> None:
        # Only the screen on show is placed again (the round screen is placed afresh each time it is shown).
        if self.round is not None and self.app.sm.current == "round":
            self.round._place()

    def ruling_value(self, ruling_id: str, rules) -> str | None:
        from companion.games.obscurians.vocabulary import FACE, TAKE_CAP_VALUE

        t = self.app.t
        if ruling_id == "obscurians-take-cap":
            return t(TAKE_CAP_VALUE[rules.take_cap])
        if ruling_id == "obscurians-dice":
            return ", ".join(f"{p} {t(FACE[f])}" for p, f in rules.pips)
        return None

    def _on_table_change(self, table, kind: str) -> None:
        if kind == "action":
            self.round.entry.after_action(table.state)  # keep the receiver of a Donate etc. for the next one
        else:
            self.round.entry.reset()
        self._show()
        if kind != "action":
            self.voice.follow(table.state)
            return
        said = self._moment(table)
        name = table.state.setup.players[table.state.active][0]
        self.voice.after_move(table.state, said, self.app.t(N_("{name}'s turn")).format(name=name))

    def _speaker(self):
        if self.speaker is not None:
            return self.speaker
        from companion.session.speech import MutedWhen, system_speaker

        # As Obscurio's narrator: the sound switch is read at every line (muted: nothing is said).
        return MutedWhen(system_speaker(), lambda: bool(getattr(getattr(self.app, "sounds", None), "muted", False)))

    def _announce(self, title: str, text: str, sound: str, **kwargs) -> list[str]:
        """A moment on the screen, and what is said aloud with it (the title and the text)."""
        self.app.announce(title, text, sound, **kwargs)
        return [title + ".", text]

    def _moment(self, table) -> list[str]:
        """The moments of a game, for the whole table: an event card revealed, the sandstorm, a round from which
        the sandstorm can come, the winners. Returns what is to be said aloud."""
        from companion.games.obscurians.actions import EndTurn, RevealEvent, RevealMissions
        from companion.games.obscurians.constants import SANDSTORM_ROUND
        from companion.games.obscurians.vocabulary import EVENT, EVENT_EFFECT

        t, state, action = self.app.t, table.state, table.actions[-1]
        if isinstance(action, RevealEvent):
            if action.card == "sandstorm":
                return self._announce(t(EVENT["sandstorm"]), t(N_("The sandstorm sweeps over the bazaar: the game "
                                                                  "is over. Reveal your mission cards.")),
                                      "sandstorm", tint=(0.98, 0.55, 0.20, 1))
            text = t(EVENT_EFFECT[action.card])
            if state.round >= SANDSTORM_ROUND:
                text = t(N_("Not the sandstorm: the game goes on.")) + "\n" + text
            return self._announce(t(EVENT[action.card]), text, "event")
        if isinstance(action, EndTurn) and state.phase == "reveal" and state.round >= SANDSTORM_ROUND:
            return self._announce(t(N_("Round {n}")).format(n=state.round),
                                  t(N_("From now on the next event card can be the sandstorm, which ends the game "
                                       "at once.")), "warning", tint=(0.98, 0.55, 0.20, 1))
        if isinstance(action, RevealMissions) or (state.phase == "over" and isinstance(action, RevealEvent)):
            self.end.announce_winners()
        return []

    def show(self) -> None:
        """Back to the table (from the camera): fresh models, and the ring turned as the group had turned it."""
        first_seat = self.first_seat
        if self.table is None and self.app.table is not None:
            self.attach(self.app.table)
        if first_seat != self.first_seat:
            self.first_seat = first_seat
            self.refresh()

    def _show(self) -> None:
        from companion.ui.obscurians.end import ObsnEndScreen
        from companion.ui.obscurians.round import ObsnRoundScreen

        if self.table.state.phase in ("missions", "over"):
            self.end.refresh()
            self.app.show("end", ObsnEndScreen, self.end)
        else:
            self.round.refresh()
            self.app.show("round", ObsnRoundScreen, self.round)
