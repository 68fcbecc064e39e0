"""The dice and boards at the open table (any game): while a table is open, the dice the group bound on the devices
screen roll into it, and the hourglass stand turns its hourglass (companion/session/devices.py routes them through
the table's observation door). When the door will not apply a throw on its own — a die landed crooked, a reading is
doubtful, the engine refuses what the dice say, or nobody asked for that throw (a reroll that would cost a chip) —
its question is shown here, in the players' words, for the whole table, with the answers it allows. Nothing is
applied silently and nothing is lost: the question stays until someone answers it or the next throw replaces it, and
it is only ever shown over the table it is about (never over Home).

Simulated dice bound to the table are thrown only when someone asks: the menu's "Throw the simulated dice" opens a
sheet with a Roll button per die, Roll all, and (when dice were picked to roll again) Roll the picked dice.
"""
from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from types import SimpleNamespace

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import ListProperty, StringProperty

from companion.games.errors import N_, IllegalAction, InvalidInput
from companion.i18n.messages import translate_message
from companion.session.observe import CONFIRM, IGNORE, READ_AGAIN, TYPE_IN
from companion.ui.sheets import Sheet
from companion.ui.widgets.buttons import BigButton
from firmware_bridge.errors import DeviceError

log = logging.getLogger(__name__)

ANSWERS = {
    CONFIRM: N_("Yes, use these dice"),
    READ_AGAIN: N_("We roll again"),
    TYPE_IN: N_("We enter it on the screen"),
    IGNORE: N_("No, ignore this throw"),
}
LEAVE = N_("No, leave it")   # IGNORE for a die set down or turned by hand: nothing was thrown
TAKEN = N_("The table took these dice: Back shows the move in its log.")


class DiceAtTable:
    """The shell's link between its DeviceService and the open table."""

    def __init__(self, app):
        self.app = app
        self.door = None
        self.sheet = None  # the question's sheet while it is shown
        self._lit = None   # the role whose dice are lit to be rolled again
        self._picked: list[int] = []
        self._unsubscribe = None

    def attach(self, table) -> None:
        devices = getattr(self.app, "devices", None)
        if devices is None:
            return
        self.detach()  # attached twice (the devices came up after the table opened): one link, never two
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
        self._picked = []
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
        self._picked = indices

    @property
    def picked(self) -> list[int]:
        """The dice the players picked on the screen to roll again (their indices), until the throw is in."""
        return list(self._picked)

    def _on_applied(self, _action) -> None:
        self._forget_expectation()  # the throw is in: the dice that were lit to be rolled again go dark
        if self.app.screen == "camera":   # the table is behind the camera: say that the throw went in
            Clock.schedule_once(lambda _dt: self.app.say(self.app.t(TAKEN)), 0)

    def _forget_expectation(self) -> None:
        if self.door is not None:
            self.door.expect(None)
        devices = getattr(self.app, "devices", None)
        if self._lit is not None and devices is not None:
            devices.light(self._lit, ())
        self._lit = None
        self._picked = []

    # -- the door's questions ------------------------------------------------------------------------------------
    def _on_question(self, question) -> None:
        # Readings arrive on the app's asyncio loop; the sheet is drawn on the next frame.
        Clock.schedule_once(lambda _dt: self._show(question), 0)

    def text(self, question) -> str:
        """The question in the players' language: what the door asks (the move in words), and the engine's reason
        when it refused."""
        lang = self.app.lang
        text = translate_message(SimpleNamespace(template=question.why, params=question.params), lang)
        if question.error is not None:
            text = f"{text}: {translate_message(question.error, lang)}"
        return text

    def _show(self, question) -> None:
        if self.door is None or question is not self.door.question:
            return  # answered, replaced or the table closed in the meantime
        if question is None:
            self._close()
            return
        if self.app.table is not self.door.table or self.app.screen == "home":
            return  # the table it is about is not on screen: the question waits there, it never covers Home
        t = self.app.t
        options = [{"text": self.words(action), "action": (lambda a=action: self.answer(TYPE_IN, a))}
                   for action in question.choices]   # dice set by hand: the moves they can mean, one tap each
        options += [{"text": t(self.answer_text(question, choice)), "action": (lambda c=choice: self.answer(c))}
                    for choice in question.options if choice != CONFIRM or question.action is not None]
        seen = self._photo_of(question)
        if seen is not None:   # a camera read these dice: the photo with its boxes, so the players can look
            from companion.ui.photo import PhotoChoiceSheet

            sheet = PhotoChoiceSheet(question=self.text(question), extras=options)
            self.app.open_sheet(sheet)
            sheet.show(*seen)
        else:
            self.app.choose_sheet(self.text(question), options)
        self.sheet = self.app.sheet

    @staticmethod
    def answer_text(question, choice: str) -> str:
        """An answer's msgid: ignoring a die turned by hand is "No, leave it" (nobody threw it)."""
        return LEAVE if choice == IGNORE and question.by_hand else ANSWERS[choice]

    def _photo_of(self, question):
        """(photo, boxes) when the question's dice were read by a camera: its last reading, each die of the question
        boxed with its place and what it was read as; None for dice that are not a camera's."""
        from companion.session.observe import MIN_CONFIDENCE
        from companion.ui.photo import DOUBT_RGBA, SURE_RGBA

        devices = getattr(self.app, "devices", None)
        sources = {r.source for r in question.readings}
        if devices is None or len(sources) != 1:
            return None
        reading = getattr(devices.manager.device(next(iter(sources))), "last_reading", None)
        if reading is None:
            return None
        asked = {r.die: r for r in question.readings}
        boxes = [{"box": list(d.box), "text": f"{asked[die].index + 1}: {d.face} · {round(d.confidence * 100)} %",
                  "rgba": SURE_RGBA if d.confidence >= MIN_CONFIDENCE else DOUBT_RGBA}
                 for die, d in zip(reading.ids, reading.dice) if die in asked]
        return reading.image, boxes

    def words(self, action) -> str:
        """A move the dice propose, in the players' language (its notation when the game has no words for it)."""
        words = self.door.game.dice_words(self.door.table.state, action) if self.door is not None else None
        return translate_message(words, self.app.lang) if words is not None else action.to_text()

    def answer(self, choice: str, action=None) -> None:
        """The players' answer (a tap on the sheet): TYPE_IN without a move drops the readings and leaves the move to
        the screen; with one (a move the dice proposed, picked) it is played, the engine still judging."""
        door = self.door
        self._close()
        if door is None or door.question is None:
            return
        try:
            door.answer(choice, action)
        except (IllegalAction, InvalidInput) as err:  # the engine refused at the last moment: say why, keep asking
            self.app.say(translate_message(err, self.app.lang))

    def _close(self) -> None:
        if self.sheet is not None and self.app.sheet is self.sheet:
            self.app.close_sheet()
        self.sheet = None

    # -- simulated dice: thrown when someone asks ----------------------------------------------------------------
    def simulated(self) -> list[tuple[str, int, str]]:
        """(role, index, die) of the simulated dice bound to the open table's dice roles."""
        devices = getattr(self.app, "devices", None)
        if self.door is None or devices is None:
            return []
        return [(role, index, die) for role in self.door.game.dice_roles
                for index, die in devices.simulated_dice(role)]

    def menu_extras(self) -> list[dict]:
        """The table menu's entries: throwing simulated dice (when one is bound), the camera (when one was added)."""
        from companion.ui.camera import first_camera

        extras = []
        if self.simulated():
            extras.append({"text": self.app.t(N_("Throw the simulated dice")), "action": self.open_roll_sheet})
        camera = first_camera(self.app)
        if camera is not None and self.door is not None and self.door.game.dice_roles:  # a game that reads dice
            extras.append({"text": self.app.t(N_("Camera: read the dice")),
                           "action": lambda: self.app.show_camera(camera, keep_table=True)})
        return extras

    def open_roll_sheet(self, angle: int = 0) -> None:
        dice = self.simulated()
        if not dice:
            return
        t = self.app.t
        picked = [i for i in self._picked if any(i == index for _, index, _ in dice)]
        sheet = RollSheet(
            title=t(N_("Throw the simulated dice")),
            all_text=t(N_("Roll all {n}")).format(n=len(dice)),
            picked_text=(t(N_("Roll the picked dice: {numbers}")).format(numbers=", ".join(str(i + 1)
                                                                                        for i in picked))
                         if picked else ""),
            dice=[{"text": t(N_("Roll {n}")).format(n=index + 1), "die": die} for _, index, die in dice])
        sheet.on_roll = self.throw
        sheet.picked_dice = [die for _, index, die in dice if index in picked]
        sheet.all_dice = [die for _, _, die in dice]
        self.app.open_sheet(sheet, angle)

    def throw(self, dice) -> None:
        """Throw these simulated dice (their ids), as a hand would."""
        devices = getattr(self.app, "devices", None)
        if devices is None:
            return
        for die in dice:
            task = asyncio.ensure_future(devices.throw(die))
            task.add_done_callback(self._thrown)

    def _thrown(self, task) -> None:
        err = None if task.cancelled() else task.exception()
        if isinstance(err, DeviceError):
            self.app.say(str(err))
        elif err is not None:
            log.error("a simulated throw failed", exc_info=err)


class RollDieButton(BigButton):
    """One simulated die's Roll button on the RollSheet."""

    die = StringProperty("")


class RollSheet(Sheet):
    """A Roll button per simulated die, Roll all, and Roll the picked dice (layout in dice_at_table.kv)."""

    title = StringProperty("")
    all_text = StringProperty("")
    picked_text = StringProperty("")
    dice = ListProperty()             # [{"text": "Roll 3", "die": id}]

    on_roll = None
    picked_dice: list = []
    all_dice: list = []

    def roll(self, which) -> None:
        dice = self.all_dice if which == "all" else self.picked_dice if which == "picked" else [which]
        self.app.close_sheet()
        if self.on_roll is not None:
            self.on_roll(list(dice))


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
