"""Step 3, the traitor's night: the app narrates `night.script(state)` line by line (spoken where the system has a
speech engine, always shown large, a chime at the moments everyone must notice), then the Grimoire taps how many
cards the Traitor picked — a count, nothing secret.

`NightModel` is the view-model; the plug-in's Narrator runs the lines on the app's clock and tells this model each
line (`on_line`). `ObsoNightScreen` is layout only (night.kv).
"""
from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.games.errors import N_
from companion.games.obscurio.actions import Decoys
from companion.games.obscurio.night import script
from companion.i18n import RULES_DOMAIN, translations
from companion.ui.obscurio import widgets as _own_widgets  # noqa: F401  (this game's widget rules)
from companion.ui.obscurio.model import TableModel
from companion.ui.obscurio.turn import play


class NightModel(TableModel):
    line = StringProperty("")          # the line being spoken / shown now, large
    count_text = StringProperty("")    # "line 3 of 8"
    pause = NumericProperty(0.0)       # the wait after the line: 1 just said … 0 the next one comes
    narrating = BooleanProperty(False)
    voice_text = StringProperty("")    # spoken aloud, or read it out: the screen says which
    decoy_options = ListProperty()
    prompt = StringProperty("")

    def __init__(self, plugin, **kwargs):
        super().__init__(plugin, **kwargs)
        self._line = None
        self._index = 0
        self._total = 0
        self._since = 0.0

    # -- the narration -------------------------------------------------------------------------------------------
    def begin(self) -> None:
        """Start the night's script from its first line (on reaching step 3, or "Again")."""
        lines = script(self.table.state)
        self._index, self._total = 0, len(lines)
        self.plugin.narrator.start(lines)

    def line_text(self, line) -> str:
        """A line in the players' language (the night's lines are in the `rules` catalogue with the engine)."""
        template = translations(self.app.lang, RULES_DOMAIN).gettext(line.template)
        try:
            return template.format(**line.params)
        except (KeyError, IndexError, ValueError):
            return line.text

    def narrated(self, line) -> None:
        """The narrator moved on: `line` is shown now (None: the script is over)."""
        self._line = line
        self._since = self.app.clock.now()
        if line is not None:
            self._index += 1
            speaker = self.plugin.narrator.speaker if self.plugin.narrator else None
            if line.chime or not getattr(speaker, "available", False):
                self.plugin.sound("night")
        self.refresh()

    def redraw(self) -> None:
        if self._line is None:
            self.pause = 0.0
            return
        left = self._line.seconds - (self.app.clock.now() - self._since)
        self.pause = max(0.0, min(1.0, left / self._line.seconds)) if self._line.seconds else 0.0

    # -- taps ----------------------------------------------------------------------------------------------------
    def next_line(self) -> None:
        if self._over():
            return
        self.plugin.narrator.skip()

    def again(self) -> None:
        self.begin()

    def skip_night(self) -> None:
        if self._over():
            return
        self.plugin.narrator.stop()

    def _over(self) -> bool:
        """Nothing left to narrate: say so (the buttons for the lines are dimmed then, never silent)."""
        if self.plugin.narrator.running:
            return False
        self.app.say(self.app.t(N_("The night is over: tap how many cards the Traitor picked")))
        return True

    def pick(self, cards: int) -> None:
        if self.plugin.narrator.running:
            self.app.say(self.app.t(N_("Wait until everyone's eyes are open, or skip the night")))
            return
        play(self, Decoys(cards))

    # -- what the screen shows -----------------------------------------------------------------------------------
    def refresh(self) -> None:
        if self.table is None or self.table.state.phase != "traitor":
            return
        state, t = self.table.state, self.app.t
        narrating = self._line is not None
        self.narrating = narrating
        if narrating:
            self.line = self.line_text(self._line)
            self.count_text = t(N_("Line {i} of {n}")).format(i=self._index, n=self._total)
        else:
            self.line = t(N_("Everyone's eyes are open."))
            self.count_text = ""
        speaker = self.plugin.narrator.speaker if self.plugin.narrator else None
        self.voice_text = (t(N_("The app speaks the lines aloud.")) if getattr(speaker, "available", False)
                           else t(N_("No voice on this device: Grimoire, read each line aloud.")))
        self.prompt = t(N_("How many cards did the Traitor pick?"))
        self.decoy_options = [{"value": n, "text": str(n), "enabled": not narrating}
                              for n in range(state.max_decoys + 1)]


class ObsoNightScreen(Screen):
    model = ObjectProperty(None, rebind=True)


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
