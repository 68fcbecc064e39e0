"""The Accusation Phase: first what the turn cost (the group sees who lost tokens before it argues), then the glass
turned for the minute of talk with the tokens on each character card in sight, every wizard's vote or abstention,
the accused showing their loyalty cards, and again until the Traitor is found or the cohesion runs out.

`AccuseModel` is the view-model (one method per tap); `ObsoAccuseScreen` is layout only (accuse.kv). Nobody votes
for the Grimoire: only wizards are offered. With app-dealt loyalty the engine reveals the cards itself.
"""
from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.games.errors import N_
from companion.games.obscurio.actions import Loyalty, Votes
from companion.ui.obscurio import look, texts
from companion.ui.obscurio import widgets as _own_widgets  # noqa: F401  (this game's widget rules)
from companion.ui.obscurio.model import TableModel
from companion.ui.obscurio.turn import play, result_head, result_rows

ABSTAIN = "-"
VIEWS = {"discussion": "ObsoTalkView", "vote": "ObsoVoteView", "loyalty": "ObsoShowCardsView"}


class AccuseModel(TableModel):
    view = StringProperty("")
    prompt = StringProperty("")
    moment = StringProperty("")
    moment_rgba = ListProperty(list(look.STOP))
    headline = StringProperty("")
    result_lines = ListProperty()
    cost_chips = ListProperty()
    other_lines = ListProperty()
    turn_text = StringProperty("")
    card_lines = ListProperty()        # the tokens on each character card, for the talk
    card_cols = NumericProperty(1)
    vote_rows = ListProperty()
    row_height = NumericProperty(dp(60))
    prompt_shown = BooleanProperty(True)
    count_enabled = BooleanProperty(False)
    count_text = StringProperty("")
    card_options = ListProperty()

    def __init__(self, plugin, **kwargs):
        super().__init__(plugin, **kwargs)
        self._votes: dict[str, str] = {}   # voter -> accused character, or ABSTAIN

    def reset_entry(self) -> None:
        self._votes = {}

    # -- taps ----------------------------------------------------------------------------------------------------
    def turn_glass(self) -> None:
        """The group has seen the result: the glass is turned for the minute of talk."""
        if self.app.try_move(self.plugin.gameclock.turn):
            self.plugin.sound("flip")
        self.plugin.board.redraw_sand()
        self.refresh()

    def vote_now(self) -> None:
        """The group is ready before the sand has run out: the talk is over (the glass counts as run out)."""
        self.app.try_move(self.plugin.gameclock.run_out)

    def tap_vote(self, voter: str, target: str) -> None:
        state = self.table.state
        if state.phase != "vote":
            play(self, Votes(()))  # the engine says why (not the time to vote)
            return
        if self._votes.get(voter) == target:
            del self._votes[voter]   # a second tap takes the vote back
        else:
            self._votes[voter] = target
        self.refresh()

    def count_votes(self) -> None:
        state, t = self.table.state, self.app.t
        missing = [w for w in state.setup.wizards if w not in self._votes]
        if state.phase == "vote" and missing:
            self.app.say(t(N_("Still to vote or abstain: {names}")).format(
                names=", ".join(state.setup.name_of(w) for w in missing)))
            return
        votes = tuple((w, None if x == ABSTAIN else x) for w, x in self._votes.items())
        if play(self, Votes(votes)):
            self._votes = {}

    def showed(self, traitor: str | None) -> None:
        play(self, Loyalty(traitor or None))

    # -- what the screen shows -----------------------------------------------------------------------------------
    def refresh(self) -> None:
        if self.table is None:
            return
        state, t = self.table.state, self.app.t
        self.view = VIEWS.get(state.phase, "")
        if not self.view:
            return
        setup = state.setup
        if state.phase == "discussion" and self.plugin.gameclock is not None and self.plugin.gameclock.waiting:
            self._result(state, t)
            return
        self.prompt_shown = True
        if state.phase == "discussion":
            first = state.accusation == 1
            self.prompt = (t(N_("The normal area is empty: who is the Traitor? Talk until the sand runs out."))
                           if first else t(N_("The Traitor was not found: talk again until the sand runs out.")))
            self._cards(state, t)
        elif state.phase == "vote":
            self.prompt = t(N_("On the count of three, every wizard points at a wizard or at nobody. Tap each vote."))
            self.fit_rows()
            self._vote_rows(state, t)
        else:
            names = ", ".join(setup.name_of(c) for c in state.accused)
            self.prompt = t(N_("Accused: {names}. Show your loyalty cards: who showed the Traitor card?")).format(
                names=names)
            options = [{"value": c, "text": t(N_("{name}: Traitor")).format(name=setup.name_of(c)),
                        "enabled": c not in state.cleared, "rgba": list(look.CHIP[c]), "ink": list(look.INK[c])}
                       for c in state.accused]
            options.append({"value": "", "text": t(N_("Nobody: every card shown is Loyal")), "enabled": True,
                            "rgba": list(look.QUIET), "ink": list(look.WHITE)})
            self.card_options = options

    def _result(self, state, t) -> None:
        """Before the talk: what the turn cost (the Exit, the Dangerous Room, the accusations so far)."""
        self.view = "ObsoAccuseResultView"
        if state.accusation == 1:
            self.moment, self.headline = result_head(state, t, self.app.lang)
            self.moment_rgba = list(look.GOLD if state.last and state.last.advanced else look.STOP)
            self.prompt = t(N_("The normal area is empty: the Accusation Phase begins."))
            self.turn_text = t(N_("Turn the glass: one minute to find the Traitor"))
        else:
            self.moment = t(N_("The Traitor was not found"))
            self.moment_rgba = list(look.STOP)
            self.headline = texts.accusation_result(state, t, self.app.lang)
            self.prompt = t(N_("Another round of the Accusation Phase."))
            self.turn_text = t(N_("Turn the glass again: one more minute"))
        self.result_lines, self.cost_chips, self.other_lines = result_rows(self.plugin.moves.this_turn(), state, t,
                                                                           self.app.lang)

    def _cards(self, state, t) -> None:
        setup = state.setup
        self.card_lines = [{"text": t(N_("{name}: {n} on their card")).format(name=setup.name_of(c),
                                                                           n=state.tokens_on(c)),
                            "mark_rgba": list(look.CHIP[c])} for c in setup.wizards]
        self.card_cols = 1 if len(setup.wizards) <= 4 else 2

    def fit_rows(self, view_height: float | None = None) -> None:
        """The vote rows as tall as the view allows, and in the same place every round (the prompt over them keeps
        one height; on a small screen with many wizards it gives its room to the rows)."""
        if view_height is not None:
            self._view_height = view_height
        height = getattr(self, "_view_height", 0)
        state = self.table.state if self.table is not None else None
        if not height or state is None:
            return
        rows = len(state.setup.wizards)
        grid = height - self.plugin.layout.button_h - 3 * dp(8) - (rows - 1) * dp(6) - dp(4)
        room = (grid - dp(72)) / rows
        self.prompt_shown = room >= dp(40) or rows <= 4
        if not self.prompt_shown:
            room = grid / rows
        self.row_height = max(dp(34), min(dp(64), room))

    def _vote_rows(self, state, t) -> None:
        setup = state.setup
        rows = []
        for voter in setup.wizards:
            cells = [{"voter": voter, "target": target, "text": setup.name_of(target),
                      "picked": self._votes.get(voter) == target, "enabled": True,
                      "chip_rgba": list(look.CHIP[target]), "chip_ink": list(look.INK[target])}
                     for target in setup.wizards if target != voter]
            cells.append({"voter": voter, "target": ABSTAIN, "text": t(N_("nobody")),
                          "picked": self._votes.get(voter) == ABSTAIN, "enabled": True,
                          "chip_rgba": list(look.QUIET), "chip_ink": list(look.WHITE)})
            rows.append({"voter": voter, "name": setup.name_of(voter), "tokens": str(state.tokens_on(voter)),
                         "chip_rgba": list(look.CHIP[voter]), "chip_ink": list(look.INK[voter]), "cells": cells})
        self.vote_rows = rows
        done = len(self._votes)
        self.count_enabled = done == len(setup.wizards)
        self.count_text = t(N_("Count the votes ({k} of {n})")).format(k=done, n=len(setup.wizards))


class ObsoAccuseScreen(Screen):
    model = ObjectProperty(None, rebind=True)


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
