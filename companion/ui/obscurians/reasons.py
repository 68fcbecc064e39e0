"""Why a tap on the round screen does nothing, in the players' words: the engine's refusal of the move the tap
would mean (an IllegalAction from a representative action), or, where no rule is involved, the app's sentence
(a Refusal). Never a dead tap (docs/ui.md, "Never a silent no").

`Reasons` is a part of TurnEntry (turn.py): it reads the taps so far (the player a chip is for, the picks, the
dice picked) and the legal moves TurnEntry lists. `EXPLAIN` says which reason a dimmed option of each kind gives.
"""
from __future__ import annotations

from companion.games.errors import N_, IllegalAction
from companion.games.obscurians.actions import (
    Choose, Donate, PlaceChip, Relocate, Reroll, RevealEvent, Roll, Secure, Steal, Swap,
)
from companion.games.obscurians.constants import MISSIONS, N_DICE
from companion.games.obscurians.vocabulary import FACE
from companion.ui.obscurians import drops
from companion.ui.obscurians.choices import (
    ChipMission, ChooseAction, FaceCount, PayReroll, PickGood, PickKind, PickSeat, Reveal, SecurePair,
)
from companion.ui.obscurians.goods import good_sort_key
from companion.ui.obscurians.refusal import Refusal


class Reasons:
    """The reasons TurnEntry gives (a mixin: `self` is the TurnEntry)."""

    def _engine_reason(self, state, action) -> Exception:
        """The engine's refusal of `action`, or a plain app reason if (surprisingly) it is legal."""
        try:
            state.apply(action)
        except IllegalAction as err:
            return err
        return Refusal(N_("This option is not available now"))

    def _representative(self, state, kind, seat=None, good=None):
        """An execution of `kind` through `seat` (and `good`) for the engine to judge."""
        me, colours = state.active, self.colours(state)
        theirs = (state.goods[seat] or state.secured[seat]) if seat is not None else {}
        their_good = good or next(iter(sorted(theirs, key=good_sort_key)), colours[seat] if seat is not None else "")
        mine = next(iter(sorted(state.goods[me], key=good_sort_key)), colours[me])
        other = next((i for i in range(state.n_players) if i not in (me, seat)), me)
        seat = me if seat is None else seat
        if kind == "steal":
            return Steal(colours[seat], their_good)
        if kind == "donate":
            return Donate(colours[seat], good or mine)
        if kind == "swap":
            return Swap(colours[seat], good if seat == me and good else mine, their_good)
        if kind == "relocate":
            return Relocate(colours[seat], colours[other], their_good)
        if kind == "secure":
            return Secure((good or mine, good or mine))
        return Steal(colours[seat], their_good)

    def _seat_reason(self, state, kind, seat) -> Exception:
        if state.phase == "reveal":
            return self._engine_reason(state, PlaceChip(self.colours(state)[seat], MISSIONS[0]))
        if state.step == "rolled":
            return self._engine_reason(state, self._representative(state, "steal", seat))
        if kind is None:
            if state.chosen == "all":
                return Refusal(N_("Tap the action to carry out next first"))
            return self._engine_reason(state, self._representative(state, state.chosen or "steal", seat))
        if kind == "secure":
            return Refusal(N_("Secure uses only your own goods: tap them on your row"))
        if kind == "donate" and any(self._fields(state, a)["to"] == seat for a in self._candidates(state, kind)):
            return Refusal(N_("To give {name} a good, tap it on {name}'s row"), name=state.name(seat))
        if kind == "relocate" and "source" in self.picks and seat == self.picks["source"]:
            return self._engine_reason(state, Relocate(self.colours(state)[seat], self.colours(state)[seat],
                                                       self.picks.get("good", self.colours(state)[seat])))
        return self._engine_reason(state, self._representative(state, kind, seat))

    def _good_reason(self, state, kind, seat, good) -> Exception:
        if state.phase != "turn" or state.step != "acting":
            return self._seat_reason(state, kind, seat)
        me = state.active
        taps = self._cell_options(state, kind) if kind else set()
        if (seat, good) in self._drag_sources(state, kind) and (seat, good) not in taps:  # lit for a drag only
            if kind is None:
                return Refusal(N_("Tap the action to carry out next, or drag the good to where it goes"))
            if kind == "donate" and seat == me:
                return Refusal(N_("Drag it onto the player who receives it, or tap its colour on their row"))
            return Refusal(N_("Drag this good to where it goes"))
        if kind is None:
            return Refusal(N_("Tap the action to carry out next first"))
        if kind == "steal" and seat == me:  # my own good under Steal: what Steal needs (not a hint to drag it)
            return Refusal(drops.NEEDS[kind])
        if kind == "secure" and seat != me:
            return Refusal(N_("Secure uses only your own goods: tap them on your row"))
        if kind == "swap" and seat == me:
            return self._engine_reason(state, self._representative(state, "swap", self.picks.get("other", me), None)
                                       if "other" in self.picks else Swap(state.colour(me), good, good))
        return self._engine_reason(state, self._representative(state, kind, seat, good))

    def _kind_reason(self, state, kind) -> Exception:
        if kind not in state.pending:
            return self._engine_reason(state, self._representative(state, kind, (state.active + 1) % state.n_players))
        return Refusal(N_("Nobody can be the target of {action} now"), action=FACE[kind])  # a msgid: translated

    def _explain_default(self, state, choice):
        return Refusal(N_("This option is not available now"))

    def _explain_reveal(self, state, choice: Reveal):
        return self._engine_reason(state, RevealEvent(choice.card))

    def _explain_chip(self, state, choice: ChipMission):
        if not any(isinstance(a, PlaceChip) and a.mission == choice.mission for a in self._legal(state)):
            # Placed already, or none left in hand: the engine's reason, not the hint to drag it.
            on = self.chip_on if self.chip_on is not None else (state.active + 1) % state.n_players
            return self._engine_reason(state, PlaceChip(self.colours(state)[on], choice.mission))
        if self.chip_on is None:
            return Refusal(N_("Drag the chip onto the player you suspect, or tap that player first"))
        return self._engine_reason(state, PlaceChip(self.colours(state)[self.chip_on], choice.mission))

    def _explain_count(self, state, choice: FaceCount):
        try:
            self._face_count_check(state, choice)
        except (IllegalAction, Refusal) as err:
            return err
        return Refusal(N_("This option is not available now"))

    def _face_count_check(self, state, choice: FaceCount):
        if state.dice is None and "roll" not in state.legal_types():
            state.apply(Roll(tuple([choice.face] * N_DICE)))
        self._check_count(choice, self._dice_to_enter(state))

    def _explain_pay(self, state, choice: PayReroll):
        if sum(self.counts.values()) != len(self.sel_dice) or not self.sel_dice:
            return Refusal(N_("Tap in the new faces of the selected dice first"))
        return self._engine_reason(state, Reroll(tuple(sorted(self.sel_dice)), tuple(self._dice_entered()),
                                                 choice.discard))

    def _explain_choose(self, state, choice: ChooseAction):
        return self._engine_reason(state, Choose(choice.kind, choice.wilds))

    def _explain_kind(self, state, choice: PickKind):
        return self._kind_reason(state, choice.kind)

    def _explain_seat(self, state, choice: PickSeat):
        return self._seat_reason(state, self._exec_kind(state), choice.seat)

    def _explain_good(self, state, choice: PickGood):
        return self._good_reason(state, self._exec_kind(state), choice.seat, choice.good)


    def _explain_pair(self, state, choice: SecurePair):
        return self._engine_reason(state, Secure((choice.good, choice.good)))


EXPLAIN = {
    Reveal: Reasons._explain_reveal, ChipMission: Reasons._explain_chip, FaceCount: Reasons._explain_count,
    PayReroll: Reasons._explain_pay,
    ChooseAction: Reasons._explain_choose, PickKind: Reasons._explain_kind, PickSeat: Reasons._explain_seat,
    PickGood: Reasons._explain_good, SecurePair: Reasons._explain_pair,
}
