"""The dice and boards at the open table (any game): while a table is open, the dice the group bound on the devices
screen roll into it, and the hourglass stand turns its hourglass (companion/session/devices.py routes them through
the table's observation door). When the door will not apply a throw on its own — a die landed crooked, a reading is
doubtful, the engine refuses what the dice say — its question is shown here, for the whole table, with the answers
it allows: use the dice as read, roll again, or enter the move on the screen by hand. Nothing is applied silently
and nothing is lost: the question stays until someone answers it or the next throw replaces it.
"""
from __future__ import annotations

from types import SimpleNamespace

from kivy.clock import Clock

from companion.games.errors import N_, IllegalAction, InvalidInput
from companion.i18n.messages import translate_error
from companion.session.observe import CONFIRM, READ_AGAIN, TYPE_IN

ANSWERS = {
    CONFIRM: N_("Yes, use these dice"),
    READ_AGAIN: N_("We roll again"),
    TYPE_IN: N_("We enter it on the screen"),
}


class DiceAtTable:
    """The shell's link between its DeviceService and the open table."""

    def __init__(self, app):
        self.app = app
        self.door = None
        self.sheet = None  # the question's sheet while it is shown
        self._lit = None   # the role whose dice are lit to be rolled again
        self._unsubscribe = None

    def attach(self, table) -> None:
        devices = getattr(self.app, "devices", None)
        if devices is None:
            return
        self.door = devices.attach(table, on_question=self._on_question, on_applied=self._on_applied)
        # Whatever changes the table (a tap, the dice, Undo) ends what the players had announced for the next throw.
        self._unsubscribe = table.subscribe(lambda _table, _kind: self._forget_expectation())

    def detach(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        devices = getattr(self.app, "devices", None)
        if self.door is not None and devices is not None:
            devices.detach()
        self.door = None
        self._close()

    def expect(self, role: str, indices) -> None:
        """The players picked dice on the screen to roll again: only those are expected (the door asks about any
        other die that moves) and they light up; none picked: any throw is read as it comes."""
        devices = getattr(self.app, "devices", None)
        if self.door is None or devices is None:
            return
        indices = sorted(indices)
        self.door.expect({"reroll": indices} if indices else None)
        devices.light(role, indices)
        self._lit = role if indices else None

    def _on_applied(self, _action) -> None:
        self._forget_expectation()  # the throw is in: the dice that were lit to be rolled again go dark

    def _forget_expectation(self) -> None:
        if self.door is not None:
            self.door.expect(None)
        devices = getattr(self.app, "devices", None)
        if self._lit is not None and devices is not None:
            devices.light(self._lit, ())
        self._lit = None

    # -- the door's questions ------------------------------------------------------------------------------------
    def _on_question(self, question) -> None:
        # Readings arrive on the app's asyncio loop; the sheet is drawn on the next frame.
        Clock.schedule_once(lambda _dt: self._show(question), 0)

    def text(self, question) -> str:
        """The question in the players' language: what the door asks, and the engine's reason when it refused."""
        lang = self.app.lang
        text = translate_error(SimpleNamespace(template=question.why, params=question.params), lang)
        if question.error is not None:
            text = f"{text}: {translate_error(question.error, lang)}"
        return text

    def _show(self, question) -> None:
        if self.door is None or question is not self.door.question:
            return  # answered, replaced or the table closed in the meantime
        if question is None:
            self._close()
            return
        t = self.app.t
        options = [{"text": t(ANSWERS[choice]), "action": (lambda c=choice: self.answer(c))}
                   for choice in question.options if choice != CONFIRM or question.action is not None]
        self.app.choose_sheet(self.text(question), options)
        self.sheet = self.app.sheet

    def answer(self, choice: str) -> None:
        """The players' answer (a tap on the sheet): TYPE_IN drops the readings and leaves the move to the screen."""
        door = self.door
        self._close()
        if door is None or door.question is None:
            return
        try:
            door.answer(choice)
        except (IllegalAction, InvalidInput) as err:  # the engine refused at the last moment: say why, keep asking
            self.app.say(translate_error(err, self.app.lang))

    def _close(self) -> None:
        if self.sheet is not None and self.app.sheet is self.sheet:
            self.app.close_sheet()
        self.sheet = None
