"""Step 3, the traitor's night: the app narrates `night.script(state)` line by line (spoken where the system has a
speech engine, always shown large, a chime at the moments everyone must notice), under a quiet masking sound (the
book: any sound would betray the Traitor). At the Traitor's choice the narration waits for the Grimoire's tap — the
card holder is closed — (a countdown only if the group set one at setup); the narration can be paused.

How many cards the Traitor picked is nobody else's business: it is asked only when a trap's limit needs checking
(Dark Magic), while the wizards' eyes are closed, and never shown again before the end.

`NightModel` is the view-model; the plug-in's Narrator runs the lines on the table's timers (so a killed app picks
the night up where it stood) and tells this model each line. `ObsoNightScreen` is layout only (night.kv).
"""
from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.games.errors import N_
from companion.games.obscurio.actions import Decoys
from companion.games.obscurio.night import choice_line, count_needed, script
from companion.i18n import RULES_DOMAIN, translations
from companion.ui.obscurio import widgets as _own_widgets  # noqa: F401  (this game's widget rules)
from companion.ui.obscurio.model import TableModel
from companion.ui.obscurio.turn import play

MASK = "mask"   # the night's masking sound (companion/ui/sounds/mask.wav), a loop that follows the sound switch


class NightModel(TableModel):
    line = StringProperty("")          # the line being spoken / shown now, large
    count_text = StringProperty("")    # "line 3 of 9"
    pause = NumericProperty(0.0)       # the wait after the line (or the countdown): 1 just said … 0 the next one
    countdown_text = StringProperty("")
    narrating = BooleanProperty(False)
    paused = BooleanProperty(False)
    can_pause = BooleanProperty(False) # a line's pause or the Traitor's countdown is running (or held)
    choosing = BooleanProperty(False)  # the Traitor's choice: the narration waits for the Grimoire's tap
    closed = BooleanProperty(False)    # the card holder is closed (step 3 recorded): the last lines run
    ask_count = BooleanProperty(False) # a trap's limit needs the count: the Grimoire taps it, hidden
    voice_text = StringProperty("")    # spoken aloud, or read it out: the screen says which
    count_options = ListProperty()
    grimoire_text = StringProperty("")

    # -- the narration -------------------------------------------------------------------------------------------
    @property
    def narrator(self):
        return self.plugin.narrator

    @property
    def active(self) -> bool:
        """The night screen is up: step 3, or its last lines after the card holder was closed."""
        return self.narrator is not None and self.narrator.running

    def key(self) -> str:
        return f"turn {self.table.state.turn}"

    def begin(self, at: int = 0) -> None:
        """Start the night's script (on reaching step 3; "Again"; `at` the choice after an undo)."""
        self.narrator.start(script(self.table.state), key=self.key(), at=at)
        self.plugin.loop_sound(MASK)

    def resume_or_begin(self) -> None:
        """A table reopened: the night goes on where it stood; in step 3 with no night under way, it starts."""
        if self.narrator.restore(script(self.table.state), key=self.key()):
            self.plugin.loop_sound(MASK)
        elif self.table.state.phase == "traitor":
            self.begin()

    def back_to_choice(self) -> None:
        """Undo took back the closed card holder: the night stands at the Traitor's choice again."""
        lines = script(self.table.state)
        at = choice_line(lines)
        if at is not None:
            self.begin(at)

    def end(self) -> None:
        """The night is over or left (undo to step 2, Home): no narration, no masking sound."""
        if self.narrator is not None and self.narrator.running:
            self.narrator.stop()
        self.plugin.stop_sound(MASK)

    def line_text(self, line) -> str:
        """A line in the players' language (the night's lines are in the `rules` catalogue with the engine)."""
        template = translations(self.app.lang, RULES_DOMAIN).gettext(line.template)
        try:
            return template.format(**line.params)
        except (KeyError, IndexError, ValueError):
            return line.text

    def narrated(self, line) -> None:
        """The narrator moved on (or paused, resumed, ran out its countdown): `line` now; None: the night is over."""
        if line is None:
            self.plugin.stop_sound(MASK)
            self.plugin.night_over()
            return
        speaker = self.narrator.speaker
        if (line.chime or not getattr(speaker, "available", False)) and not self.narrator.paused:
            self.plugin.sound("night")
        if line.wait and self.narrator.timed_out and not count_needed(self.table.state) \
                and self.table.state.phase == "traitor":
            self.close_holder()   # the countdown set at setup ran out: the card holder is closed
            return
        self.refresh()

    def redraw(self) -> None:
        narrator = self.narrator
        left = narrator.remaining() if narrator is not None else None
        line = narrator.line if narrator is not None else None
        if line is None or left is None or not line.seconds:
            self.pause, self.countdown_text = 0.0, ""
            return
        self.pause = max(0.0, min(1.0, left / line.seconds))
        self.countdown_text = f"{int(left + 0.999) // 60}:{int(left + 0.999) % 60:02d}" if line.wait else ""

    # -- taps ----------------------------------------------------------------------------------------------------
    def toggle_pause(self) -> None:
        narrator = self.narrator
        if narrator.paused:
            narrator.resume()
        elif not narrator.pause():
            self.app.say(self.app.t(N_("Nothing to pause: the night waits for the Grimoire's tap")))
        self.refresh()

    def next_line(self) -> None:
        narrator = self.narrator
        if narrator.waiting:
            self.app.say(self.app.t(N_("The night waits for the Traitor's choice: Grimoire, tap below once the card "
                                       "holder is closed")))
            return
        narrator.skip()

    def again(self) -> None:
        if self.table.state.phase != "traitor":
            self.app.say(self.app.t(N_("The card holder is closed: the night ends with the next lines")))
            return
        self.begin()

    def close_holder(self) -> None:
        """The Grimoire's tap: the Traitor has chosen and the card holder is closed."""
        if self._not_now():
            return
        if count_needed(self.table.state):
            self.app.say(self.app.t(N_("Dark Magic: tap how many cards the Traitor picked (only you see it now)")))
            return
        if play(self, Decoys(None)):
            self.narrator.go_on()

    def pick(self, cards: int) -> None:
        """Under Dark Magic: how many cards the Traitor picked, tapped by the Grimoire while the wizards' eyes are
        closed. The number is recorded and never shown again until the end."""
        if self._not_now():
            return
        if play(self, Decoys(cards)):
            self.narrator.go_on()

    def _not_now(self) -> bool:
        t = self.app.t
        if self.table.state.phase != "traitor":
            self.app.say(t(N_("The card holder is closed: the night ends with the next lines")))
            return True
        if not self.narrator.waiting:
            self.app.say(t(N_("Wait for the Traitor's choice")))
            return True
        return False

    # -- what the screen shows -----------------------------------------------------------------------------------
    def refresh(self) -> None:
        if self.table is None or self.narrator is None:
            return
        state, t = self.table.state, self.app.t
        narrator = self.narrator
        line = narrator.line
        self.narrating = line is not None
        self.paused = narrator.paused
        self.choosing = narrator.waiting
        self.can_pause = line is not None and narrator.remaining() is not None and not narrator.timed_out
        self.closed = state.phase != "traitor"
        self.ask_count = count_needed(state) and state.phase == "traitor"
        if line is not None:
            self.line = self.line_text(line)
            self.count_text = t(N_("Line {i} of {n}")).format(i=narrator.index + 1, n=narrator.total)
            if narrator.paused:
                self.count_text += "  ·  " + t(N_("PAUSED"))
        else:
            self.line, self.count_text = "", ""
        speaker = narrator.speaker
        voice = (t(N_("The app speaks the lines aloud.")) if getattr(speaker, "available", False)
                 else t(N_("No voice on this device: Grimoire, read each line aloud.")))
        self.voice_text = voice
        if self.closed:
            self.grimoire_text = t(N_("The card holder is closed."))
        elif self.ask_count:
            self.grimoire_text = t(N_("Grimoire: how many cards did the Traitor pick? (Dark Magic; hidden until "
                                      "the end)"))
        else:
            self.grimoire_text = t(N_("Grimoire: tap when the Traitor has chosen and the card holder is closed."))
        # No button keeps the count it was given: nothing on screen tells it afterwards.
        self.count_options = [{"value": n, "text": str(n), "enabled": self.choosing and not self.closed}
                              for n in range(state.max_decoys + 1)] if self.ask_count or (
            self.closed and state.decoys is not None) else []


class ObsoNightScreen(Screen):
    model = ObjectProperty(None, rebind=True)


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
