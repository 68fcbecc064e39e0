"""The end of an Obscurio game: first, when the app never knew the Traitor, everyone shows their loyalty card and
the group taps who it was; then the winning side and why, large, every player's part, and the export.

`EndModel` is the view-model; `ObsoEndScreen` is layout only (end.kv).
"""
from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.games.errors import N_
from companion.games.obscurio.actions import Unmask
from companion.games.obscurio.vocabulary import ROLE
from companion.ui.obscurio import look, texts
from companion.ui.obscurio import widgets as _own_widgets  # noqa: F401  (this game's widget rules)
from companion.ui.obscurio.model import TableModel
from companion.ui.obscurio.turn import play


class EndModel(TableModel):
    mode = StringProperty("")          # "unmask": who was the Traitor?  "over": the result
    headline = StringProperty("")
    why = StringProperty("")
    headline_rgba = ListProperty(list(look.GOLD))
    prompt = StringProperty("")
    unmask_options = ListProperty()
    player_lines = ListProperty()
    secret_text = StringProperty("")   # the Traitor's card counts the Grimoire entered in secret, shown now
    export_text = StringProperty("")
    read_only = BooleanProperty(False)  # opened from Home's finished games: only to be looked at (no Undo)

    def reset_entry(self) -> None:
        self.export_text = ""

    # -- taps ----------------------------------------------------------------------------------------------------
    def unmask(self, chip: str) -> None:
        play(self, Unmask(chip))

    def export(self) -> None:
        """Write the log (and the BG Stats record, where the game has one) and say in words where they went."""
        done = self.app.export(self.table)
        if done is not None:
            where, paths = done
            t = self.app.t
            self.export_text = t(N_("Saved: {paths}")).format(paths="\n".join(str(p) for p in paths))
            self.app.say(t(N_("The game is saved in {folder}")).format(folder=where))

    # -- what the screen shows -----------------------------------------------------------------------------------
    def refresh(self) -> None:
        if self.table is None:
            return
        state, t = self.table.state, self.app.t
        if state.phase not in ("unmask", "over"):
            return
        self.mode = state.phase
        # The shell marks a table opened from the history (GamePlugin.opened_from_history, where it has it).
        self.read_only = state.is_over and bool(getattr(self.plugin, "opened_from_history", False))
        self.headline, self.why = texts.ending(state, t)
        self.headline_rgba = list(look.GOLD if state.side == "wizards" else look.STOP)
        setup = state.setup
        if state.phase == "unmask":
            self.prompt = t(N_("Everyone, turn your loyalty card over: who was the Traitor?"))
            self.unmask_options = [{"value": c, "text": setup.name_of(c), "enabled": c not in state.cleared,
                                    "rgba": list(look.CHIP[c]), "ink": list(look.INK[c])} for c in setup.wizards]
            self.player_lines = []
            return
        self.prompt = t(N_("The Traitor was {name}")).format(name=setup.name_of(state.traitor)) \
            if state.traitor else ""
        self.unmask_options = []
        self.player_lines = [self._line(p, state, t) for p in state.outcome().players]
        self.secret_text = "\n".join(texts.hidden_counts(self.plugin.moves.moves, t))

    def _line(self, result, state, t) -> dict:
        role_id, chip = result.extra["role"], result.extra["id"]
        won = chip in state.outcome().winners
        role = t(ROLE[role_id])
        parts = [f"{result.name} — {role}", t(N_("wins")) if won else t(N_("loses"))]
        if chip != "grimoire":
            chips = (chip,) + ((state.setup.companion,) if state.setup.companion else ())
            lost = sum(state.tokens_on(c) for c in chips)
            parts.append(t(N_("tokens taken: {n}")).format(n=lost))
            if chip in state.cleared:
                parts.append(t(N_("accused, Loyal")))
            if chip == state.traitor and state.exposed:
                parts.append(t(N_("exposed")))
        mark = look.CHIP.get(chip, look.CHIP["grimoire"])
        return {"text": " · ".join(parts), "mark_rgba": list(mark)}


class ObsoEndScreen(Screen):
    model = ObjectProperty(None, rebind=True)


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
