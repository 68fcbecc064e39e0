"""The Accusation Phase: the minute of talk (the hourglass), every wizard's vote or abstention, the result, the
accused showing their loyalty cards, and again until the Traitor is found or the cohesion runs out.

`AccuseModel` is the view-model (one method per tap); `ObsoAccuseScreen` is layout only (accuse.kv). Nobody votes
for the Grimoire: only wizards are offered. With app-dealt loyalty the engine reveals the cards itself.
"""
from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.games.errors import N_
from companion.games.obscurio.actions import Loyalty, Sand, Votes
from companion.ui.obscurio import look, texts
from companion.ui.obscurio import widgets as _own_widgets  # noqa: F401  (this game's widget rules)
from companion.ui.obscurio.model import TableModel
from companion.ui.obscurio.turn import play

ABSTAIN = "-"
VIEWS = {"discussion": "ObsoTalkView", "vote": "ObsoVoteView", "loyalty": "ObsoShowCardsView"}


class AccuseModel(TableModel):
    view = StringProperty("")
    prompt = StringProperty("")
    result = StringProperty("")        # the last round's result, as the table saw it
    vote_rows = ListProperty()
    count_enabled = BooleanProperty(False)
    count_text = StringProperty("")
    card_options = ListProperty()

    def __init__(self, plugin, **kwargs):
        super().__init__(plugin, **kwargs)
        self._votes: dict[str, str] = {}   # voter -> accused character, or ABSTAIN

    def reset_entry(self) -> None:
        self._votes = {}

    # -- taps ----------------------------------------------------------------------------------------------------
    def vote_now(self) -> None:
        """The group is ready before the sand has run out: the talk is over."""
        play(self, Sand())

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
        # The last round's result, until this round's cards are shown (in "loyalty" they are not yet).
        self.result = texts.accusation_result(state, t) if state.accusation > 1 and state.phase != "loyalty" else ""
        if state.phase == "discussion":
            first = state.accusation == 1
            self.prompt = (t(N_("The normal area is empty: who is the Traitor? Talk until the sand runs out."))
                           if first else t(N_("The Traitor was not found: talk again until the sand runs out.")))
        elif state.phase == "vote":
            self.prompt = t(N_("On the count of three, every wizard points at a wizard or at nobody. Tap each vote."))
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
            rows.append({"voter": voter, "name": setup.name_of(voter), "chip_rgba": list(look.CHIP[voter]),
                         "chip_ink": list(look.INK[voter]), "cells": cells})
        self.vote_rows = rows
        done = len(self._votes)
        self.count_enabled = done == len(setup.wizards)
        self.count_text = t(N_("Count the votes ({k} of {n})")).format(k=done, n=len(setup.wizards))


class ObsoAccuseScreen(Screen):
    model = ObjectProperty(None, rebind=True)


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
