"""Entering an Obscurians turn by taps, free of Kivy so that it can be tested and reasoned about alone.

`TurnEntry` turns an engine `State` plus the players' half-finished taps (the roll being tapped in, the player a
chip is for, the receiver of a Relocate …) into plain dicts the round screen shows, and taps into engine actions.
Every option is a typed `Choice` value (choices.py), handed back unchanged when tapped; no string is ever parsed.

Three promises, each one the round screen's (docs/ui.md, "The round screen"):

- **Stable.** An option keeps its slot for as long as its step lasts: all dice faces, all missions, all five
  actions, every player's row of goods are always listed in the same order; what is used up or not allowed stays
  where it was, disabled. Nothing is chosen for the players (no jump to "the one option left").
- **Explained.** Legality comes from the engine (`legal_actions()`, `legal_types()`, `apply()`); a disabled
  option, tapped, raises the engine's own refusal (an IllegalAction from a representative action) or, where no
  rule is involved, a `Refusal` with the app's sentence (reasons.py). Never a dead tap.
- **Few touches.** A roll is tapped in as "how many of each face" (one tap per face shown); every other move is one
  touch: a good is one tap on its owner's row ("Ben: blue" steals it); a Donate is one tap on the receiver's row,
  in the colour given ("Ben: blue" under Donate gives Ben one of my blue goods); a good dragged from where it is to
  where it goes is a Swap, a Relocate, a Steal or a Donate by its ends (drops.py), a chip dragged onto a player is
  placed on them; two goods of one colour go into the vault in one tap (Pair). The two-tap ways stay.

What needs no decision is not asked for, and never recorded behind the players' backs either: the screen shows it
as made and records it with the next move (`prefix`: dice turned over under Flip the Die, the empty Wild
assignment under All Actions Mandatory). With the app's deck, the last End turn of rounds 1-3 also reveals the
next card (it cannot be the sandstorm yet).
"""
from __future__ import annotations

from collections import Counter
from typing import Callable

from companion.games.errors import N_, IllegalAction
from companion.games.obscurians.actions import (
    AssignWilds, Choose, Donate, EndTurn, Flip, PlaceChip, Relocate, Reroll, RevealEvent, RevealMissions, Roll,
    Secure, Steal, Swap,
)
from companion.games.obscurians.constants import (
    ACTION_KINDS, EVENTS, FACE_DOWN, FACES, N_DICE, SANDSTORM, SANDSTORM_ROUND, UNCOLOURED, WILD_KINDS,
)
from companion.games.obscurians.state import TRADE_BAN_SECURES
from companion.games.obscurians.vocabulary import EVENT, FACE, MISSION
from companion.ui.obscurians import drops
from companion.ui.obscurians.choices import (
    NEW_ROLL, AssignWild, Cancel, ChipMission, Choice, ChooseAction, DieSlot, FaceCount, PayReroll, PickGood,
    PickKind, PickSeat, Reveal, SecureAll, SecurePair,
)
from companion.ui.obscurians.goods import good_label, goods_columns
from companion.ui.obscurians.reasons import EXPLAIN, Reasons
from companion.ui.obscurians.refusal import Refusal

ALL_CARDS = EVENTS + (SANDSTORM,)


# Per execution kind: the fields that name a player (tapped on their row's name or their panel) and the field a
# good tapped on a row fills, for someone else's row and for the active player's own row.
SEAT_FIELDS = {"steal": ("victim",), "donate": ("to",), "swap": ("other",), "relocate": ("source", "target")}
# The field a tap on a player (panel or row name) fills: for Relocate the receiver, since the good tapped on its
# owner's row already says where it comes from. (A Donate needs no such tap: its cell on the receiver's row says
# both who receives and what.)
SEAT_TAP = {"steal": "victim", "swap": "other", "relocate": "target"}
# A good tapped on another player's row: for Steal, Swap and Relocate that player's good; for Donate the good of
# that colour the active player gives to that player (one tap: "Ben: blue" gives Ben one of my blue goods).
THEIR_GOOD = {"steal": ("victim", "good"), "donate": ("to", "good"), "swap": ("other", "take"),
              "relocate": ("source", "good")}
OWN_GOOD = {"swap": "give"}
# Which picks stay selected for the next execution of the same kind ("repeat the last target").
STICKY = {"swap": ("other",), "relocate": ("target",)}
PROMPT = {
    "steal": N_("{name}: tap the good to steal, on its owner's row"),
    "donate": N_("{name}: tap the good to give, on the row of the player who receives it"),
    "swap": N_("{name}: drag your good onto the good you take (or tap theirs, then yours)"),
    "relocate": N_("{name}: drag the good from its owner's row onto the player who receives it"),
    "secure": N_("{name}: tap 2 of your goods, or drag one onto the other (Pair: two of one colour)"),
}


def rerolled(before: tuple, faces: list) -> tuple[tuple, tuple]:
    """(dice, new faces) of a reroll after which the five dice show `faces`: the dice whose face is no longer
    there were rolled again (the dice are alike: which ones does not matter). The same faces again: all five."""
    gone = Counter(before) - Counter(faces)
    came = sorted((Counter(faces) - Counter(before)).elements(), key=FACES.index)
    dice = []
    for i in reversed(range(len(before))):
        if gone[before[i]]:
            gone[before[i]] -= 1
            dice.append(i)
    if not dice:
        return tuple(range(len(before))), tuple(before)
    return tuple(sorted(dice)), tuple(came)


def _option(choice, text: str, enabled: bool = True, good: str = "", selected: bool = False,
            role: str = "button", seat: int | None = None, drag: bool = False, col: int = -1) -> dict:
    """One option as the screen shows it. `drag`: it can also be dragged (a good, a chip in hand: drops.py).
    `col`: its column in the action choice (0: no Wild, k: k Wilds added), whose cells have fixed widths."""
    return {"choice": choice, "text": text, "enabled": bool(enabled), "good": good, "selected": bool(selected),
            "role": role, "seat": seat, "drag": bool(drag), "col": col}


def _section(title: str, cols: int, items: list[dict], kind: str = "grid") -> dict:
    return {"title": title, "cols": cols, "items": items, "kind": kind}


class TurnEntry(Reasons):
    """Selection state of the round screen and the mapping taps -> actions. One instance per open table."""

    def __init__(self):
        self._legal_for = None  # the state whose legal actions are cached (states are immutable values)
        self._legal_list: list = []
        self.reset()

    def reset(self) -> None:
        """Forget every half-finished tap (undo, redo, Cancel)."""
        self.counts: Counter = Counter()   # faces tapped in: the roll, or the new faces of the selected dice
        self.sel_dice: list[int] = []      # dice chosen for a reroll or flip
        self.chip_on: int | None = None    # the player the next suspicion chip is for
        self.kind: str | None = None       # All Actions Mandatory: the rolled action being carried out
        self.picks: dict[str, object] = {}  # execution fields picked: seat fields hold seats, good fields goods
        self.secure_sel: list[str] = []
        self.assign: list[str] = []
        self.new_roll: tuple = ()          # (discard,) while the whole roll is tapped in again after a reroll

    def after_action(self, state) -> None:
        """An action was played: forget the taps that made it, keep what the next one is likely to repeat (the
        player a chip is for, the receiver of a Relocate, the partner of a Swap)."""
        keep = {f: v for f, v in self.picks.items() if f in STICKY.get(self._exec_kind(state) or "", ())}
        chip_on = self.chip_on if state.step == "chips" else None
        kind = self.kind if state.pending and self.kind in state.pending else None
        self.reset()
        self.picks, self.chip_on, self.kind = keep, chip_on, kind

    # -- what the screen shows as done before it is recorded ------------------------------------------------------
    def prefix(self, state) -> tuple:
        """Moves the screen already shows as made, recorded together with the next move: the dice turned over under
        Flip the Die (a die tapped again turns back, so nothing is final until the players go on), and, under All
        Actions Mandatory with no Wild rolled, the Wild assignment (there is nothing to assign)."""
        if state.step != "rolled":
            return ()
        if state.event == "flip_the_die" and self.sel_dice:
            return (Flip(tuple(sorted(self.sel_dice))),)
        if (state.event == "all_actions_mandatory" and "wild" not in state.dice and not self.sel_dice
                and not self.new_roll):
            return (AssignWilds(()),)
        return ()

    def shown(self, state):
        """The state the screen shows: `state` with the prefix played."""
        pre = self.prefix(state)
        cached = self.__dict__.get("_shown")
        if cached is not None and cached[0] is state and cached[1] == pre:
            return cached[2]
        out = state
        for action in pre:
            out = out.apply(action)
        self._shown = (state, pre, out)
        return out

    @staticmethod
    def _moves(pre: tuple, result) -> tuple:
        """What a tap records: nothing, or the prefix shown before it and the action it made."""
        return () if result is None else pre + (result,)

    # -- reading the state --------------------------------------------------------------------------------------
    @staticmethod
    def colours(state) -> list[str]:
        return [c for _, c in state.setup.players]

    @staticmethod
    def names(state) -> list[str]:
        return [n for n, _ in state.setup.players]

    def _exec_kind(self, state) -> str | None:
        """The kind being carried out: the chosen one, or under All Actions Mandatory the one picked (never guessed)."""
        if state.step != "acting":
            return None
        if state.chosen in ACTION_KINDS:
            return state.chosen
        return self.kind if self.kind in state.pending else None

    def _legal(self, state) -> list:
        if self._legal_for is not state:
            self._legal_for, self._legal_list = state, state.legal_actions()
        return self._legal_list

    def _candidates(self, state, kind: str) -> list:
        return [a for a in self._legal(state) if a.TYPE == kind]

    def _fields(self, state, action) -> dict:
        """An execution as the fields the players tap: seats for players, goods as they are."""
        seat = state.seat_of
        if isinstance(action, Steal):
            return {"victim": seat(action.victim), "good": action.good}
        if isinstance(action, Donate):
            return {"to": seat(action.to), "good": action.good}
        if isinstance(action, Swap):
            return {"other": seat(action.other), "take": action.take, "give": action.give}
        if isinstance(action, Relocate):
            return {"source": seat(action.source), "target": seat(action.target), "good": action.good}
        return {}

    def _matching(self, state, kind, picks) -> list:
        out = []
        for a in self._candidates(state, kind):
            f = self._fields(state, a)
            if all(f.get(k) == v for k, v in picks.items()):
                out.append(a)
        return out

    # -- the view -----------------------------------------------------------------------------------------------
    def view(self, state, t: Callable[[str], str]) -> dict:
        """What the screen shows for `state` and the taps so far (computed on the shown state, see `prefix`)."""
        base, state = state, self.shown(state)
        names = self.names(state)
        me = names[state.active]
        types = state.legal_types()
        v = {"prompt": "", "dice": [], "pad": [], "pad_title": "", "sections": [], "panel_targets": set(),
             "panel_selected": set(), "end_turn": "end" in types, "cancel": self._has_selection(),
             "stage": state.phase, "assigned": list(self.assign), "secure_sel": list(self.secure_sel),
             "dice_shown": False}
        if state.phase == "reveal":
            self._reveal_view(state, t, v)
        elif state.phase == "turn" and state.dice is None:
            v["stage"] = "chips"
            self._chips_view(state, types, t, v, me)
        elif state.step == "rolled":
            v["stage"], v["dice_shown"] = "rolled", True
            self._rolled_view(state, types, t, v, me, base)
        elif state.step == "acting" and base.step == "rolled" and self.kind is None:
            # All Actions Mandatory with no Wild (see `prefix`): which die first, or a reroll (the dice are there).
            v["stage"] = "acting"
            self._first_die_view(state, base, t, v, me)
        elif state.step == "acting":
            v["stage"] = "acting"
            self._acting_view(state, t, v, me)
        return v

    def _has_selection(self) -> bool:
        return bool(self.counts or self.sel_dice or self.chip_on is not None or self.picks or self.secure_sel
                    or self.assign or self.new_roll)

    def _reveal_view(self, state, t, v):
        starter = self.names(state)[state.start_player]
        cards = {a.card for a in self._legal(state)}
        if state.setup.deck == "app":
            v["prompt"] = t(N_("Round {round}: {name} reveals the next event card")).format(
                round=state.round, name=starter)
            v["sections"].append(_section("", 1, [_option(Reveal(next(iter(cards), "")), t(N_("Reveal the event card")),
                                                          bool(cards))]))
        else:
            v["prompt"] = t(N_("Round {round}: {name} reveals an event card. Tap the card you see")).format(
                round=state.round, name=starter)
            v["sections"].append(_section("", 3, [_option(Reveal(c), t(EVENT[c]), c in cards, role="card")
                                                  for c in ALL_CARDS]))

    def _dice_entered(self) -> list[str]:
        return [f for f in FACES for _ in range(self.counts[f])]

    def _dice_to_enter(self, state) -> int:
        """How many dice the pad taps in now: all five (a roll, a New roll) or the dice picked up to reroll."""
        return N_DICE if state.dice is None or self.new_roll else len(self.sel_dice)

    def _others(self, face: str) -> int:
        """The dice tapped in so far showing another face than `face`."""
        return sum(n for f, n in self.counts.items() if f != face)

    def _check_count(self, choice: FaceCount, total: int) -> None:
        """A count that would make more than `total` dice says so."""
        others = self._others(choice.face)
        if others + choice.n > total:
            raise Refusal(N_("That makes more than {n} dice: {left} still to tap in"), n=total, left=total - others)

    def _pad(self, t, total: int, enabled: bool) -> list[dict]:
        """Six rows (one per face) of count buttons 1-5; counts that would make more than `total` dice are off."""
        rows = []
        for face in FACES:
            mine, others = self.counts[face], self._others(face)
            counts = [{"choice": FaceCount(face, n), "text": str(n), "selected": mine == n,
                       "enabled": enabled and (mine == n or others + n <= total)} for n in range(1, N_DICE + 1)]
            rows.append({"face": face, "text": t(FACE[face]), "counts": counts})
        return rows

    def _entered_dice(self, t) -> list[dict]:
        """The five slots of a roll being tapped in: the faces so far ("?" for the rest; a tap takes a die out)."""
        entered = self._dice_entered()
        out = []
        for i in range(N_DICE):
            face = entered[i] if i < len(entered) else ""
            out.append({"index": i, "face": face, "text": t(FACE[face]) if face else "?", "selected": False,
                        "enabled": bool(face)})
        return out

    def _chips_view(self, state, types, t, v, me):
        names, colours = self.names(state), self.colours(state)
        v["dice"] = self._entered_dice(t)
        chips = [a for a in self._legal(state) if isinstance(a, PlaceChip)]
        v["panel_targets"] = {colours.index(a.on) for a in chips}
        if self.chip_on is not None and self.chip_on not in v["panel_targets"]:
            self.chip_on = None
        can_roll = "roll" in types
        v["pad"] = self._pad(t, N_DICE, can_roll)
        v["pad_title"] = t(N_("The roll: how many dice show each face?"))
        if can_roll and chips:
            v["prompt"] = t(N_("{name}: tap in the 5 dice rolled, or drag a suspicion chip onto a player")).format(
                name=me)
        elif can_roll:
            v["prompt"] = t(N_("{name}: roll the dice and tap in the 5 faces")).format(name=me)
        elif chips:
            v["prompt"] = t(N_("{name}: place more suspicion chips, or end the turn")).format(name=me)
        else:
            v["prompt"] = t(N_("{name}: end the turn")).format(name=me)
        if state.setup.chip_missions:
            target = self.chip_on
            on = colours[target] if target is not None else None
            possible = {a.mission for a in chips if a.on == on}
            in_hand = {a.mission for a in chips}  # a chip that can go on someone: it can be dragged onto them
            title = (t(N_("Suspicion chip on {target}:")).format(target=names[target]) if target is not None
                     else t(N_("Suspicion chip: drag it onto a player")))
            # Every chip can be dragged, the dimmed ones too: let go on a player, the engine says why it stays.
            items = [_option(ChipMission(m), t(MISSION[m]), m in (possible if target is not None else in_hand),
                             drag=True) for m in state.setup.chip_missions]
            v["sections"].append(_section(title, len(items), items, kind="chips"))
            if target is not None:
                v["panel_selected"].add(target)

    def _rolled_view(self, state, types, t, v, me, base):
        """The roll is in: rerolls, flips, the choice. `state` is the shown state (dice turned over under Flip the
        Die already turned), `base` the table's."""
        if self.new_roll:
            self._new_roll_view(state, types, t, v, me)
            return
        turning = state.event == "flip_the_die"  # a die tapped is turned over (see `prefix`), not picked up
        new = self._dice_entered()
        v["dice"] = self._dice_row(state, types, t)
        if self.sel_dice and not turning:
            k = len(self.sel_dice)
            if "reroll" in types:
                v["pad"] = self._pad(t, k, True)
                v["pad_title"] = t(N_("New faces of the {n} selected dice")).format(n=k)
            complete = sum(self.counts.values()) == k
            items = []
            if "reroll" in types:
                dice, faces = tuple(sorted(self.sel_dice)), tuple(new)
                paid = complete and state.is_legal(Reroll(dice, faces, FACE_DOWN))
                items.append(_option(PayReroll(FACE_DOWN), t(N_("Discard one chip, face down")), paid))
                if state.event == "reroll_once":
                    free = complete and state.is_legal(Reroll(dice, faces, None))
                    items.append(_option(PayReroll(None), t(N_("Free reroll (event card)")), free))
            v["sections"].append(_section("", 1, items))  # one under the other: each sentence whole
            v["prompt"] = t(N_("{name}: the new faces, then pay")).format(name=me)
            return
        if "assign" in types:
            self._assign_view(state, t, v, me)
            return
        hints = []
        if "flip" in types:
            hints.append(t(N_("tap dice to turn them over")))
        if "reroll" in types:
            hints.append(t(N_("tap New roll to reroll")) if turning else t(N_("tap dice to reroll them")))
        v["prompt"] = t(N_("{name}: choose one action")).format(name=me) + (
            " " + t(N_("(or {hint})")).format(hint=t(N_(", or ")).join(hints)) if hints else "")
        self._choose_section(state, t, v)
        if "choose" not in types and v["end_turn"]:
            v["prompt"] = t(N_("{name}: no action is possible with this roll, end the turn")).format(name=me)

    def _dice_row(self, state, types, t) -> list[dict]:
        """The rolled dice (tap to pick one up for a reroll, or under Flip the Die to turn it over) and New roll."""
        can_change = bool({"reroll", "flip"} & types)
        new = self._dice_entered()
        out = []
        for i, face in enumerate(state.dice):
            sel = i in self.sel_dice
            text = t(FACE[face])
            if sel and state.event != "flip_the_die" and self.counts:
                k = sorted(self.sel_dice).index(i)
                text = t(FACE[new[k]]) if k < len(new) else "?"
            out.append({"index": i, "face": face, "text": text, "selected": sel, "enabled": can_change})
        out.append(self._new_roll_slot(types, t))
        return out

    def _new_roll_slot(self, types, t) -> dict:
        """The slot after the five dice: the whole roll tapped in again after a reroll (however many dice were
        picked up: the dice are alike, only what they show counts)."""
        return {"index": NEW_ROLL, "face": "", "text": t(N_("New roll")), "selected": bool(self.new_roll),
                "enabled": "reroll" in types}

    def _new_roll_view(self, state, types, t, v, me):
        v["dice"] = self._entered_dice(t) + [self._new_roll_slot(types, t)]
        v["pad"] = self._pad(t, N_DICE, True)
        v["pad_title"] = t(N_("After the reroll: how many dice show each face?"))
        v["prompt"] = (t(N_("{name}: tap in all 5 dice as they lie now (free: Reroll Once)"))
                       if self.new_roll[0] is None else
                       t(N_("{name}: tap in all 5 dice as they lie now (one chip goes face down)"))).format(name=me)

    def _choose_section(self, state, t, v):
        """One row per action, always all five in the same order: the count with no Wild first, then one more
        button per Wild added; what the roll or the event card does not allow stays, disabled."""
        legal = {(a.action, a.wilds) for a in self._legal(state) if isinstance(a, Choose)}
        w_max = state.wilds_available()
        cols = 1 + w_max
        items = []
        # The Wilds a column adds, said once above it (the cells then hold just the count): "Wild +1 +2", short
        # enough for the narrow centre of a side seat in every language (never "+2 comodi…"). The heading row is
        # there with no Wild too, and every column has a fixed width: a Wild flipped or rerolled adds or takes a
        # column on the right, and no action moves.
        items.append(_option(None, t(FACE["wild"]) if w_max else "", False, role="label", col=0))
        items += [_option(None, f"+{w}", False, role="label", col=w) for w in range(1, cols)]
        for kind in ACTION_KINDS:
            for w in range(cols):
                ok = (kind, w) in legal
                n = state.executions(kind, w) if (w == 0 or kind != "relocate") else 0
                if w == 0:
                    text = t(FACE[kind]) + (f" × {n}" if ok else "")
                elif kind == "relocate":
                    items.append(_option(None, "", False, role="spacer", col=w))
                    continue
                else:
                    text = f"× {n}"
                items.append(_option(ChooseAction(kind, w), text, ok, col=w))
        v["sections"].append(_section("", cols, items, kind="choose"))

    def _assign_view(self, state, t, v, me):
        n = state.dice.count("wild")
        i = len(self.assign)
        v["prompt"] = t(N_("{name}: all rolled actions are mandatory. Wild {i} of {n} counts as")).format(
            name=me, i=min(i + 1, n), n=n)
        # (kind "wilds": four across, or 2 × 2 where a name would be cut: round.kv)
        v["sections"].append(_section("", len(WILD_KINDS), [_option(AssignWild(k), t(FACE[k])) for k in WILD_KINDS],
                                      kind="wilds"))

    def _kinds_section(self, state, t, kind) -> dict:
        """All Actions Mandatory: the five actions, always in the same places, each with what is left of it. No
        heading: the prompt asks "which action next?" (the line goes to the players' rows)."""
        items = []
        for k in ACTION_KINDS:
            left = state.pending.get(k, 0)
            # The count first: where five names do not fit (Verschieben, Intercambiar) the end of the name goes,
            # never what is left to do.
            text = (f"{left} × " if left else "") + t(FACE[k])
            items.append(_option(PickKind(k), text, k in state.legal_types(), selected=k == kind, role="kind"))
        return _section("", len(items), items, kind="kinds")

    def _first_die_view(self, state, base, t, v, me):
        """All Actions Mandatory, no Wild rolled: the five actions, and below them the dice (a reroll is still
        open: tap them to pick them up, or New roll). The goods rows come with the first action picked, in the dice's
        place: the row of actions stays where it is."""
        base_types = base.legal_types()
        v["sections"].append(self._kinds_section(state, t, None))
        dice = [_option(DieSlot(d["index"]), d["text"], d["enabled"], role="die", good=d["face"],
                        selected=d["selected"]) for d in self._dice_row(base, base_types, t)]
        v["sections"].append(_section("", 3, dice, kind="dice"))
        v["prompt"] = t(N_("{name}: which action next?")).format(name=me)
        if "reroll" in base_types:
            v["prompt"] += " " + t(N_("(or {hint})")).format(hint=t(N_("tap dice to reroll them")))

    def _acting_view(self, state, t, v, me):
        for i, face in enumerate(state.dice):
            v["dice"].append({"index": i, "face": face, "text": t(FACE[face]), "selected": False, "enabled": False})
        kind = self._exec_kind(state)
        if state.chosen == "all":
            v["sections"].append(self._kinds_section(state, t, kind))
        left = state.pending.get(kind, 0) if kind else 0
        if "end" in state.legal_types():
            v["prompt"] = t(N_("{name}: nothing left to do, end the turn")).format(name=me)
        elif kind is None:
            v["prompt"] = t(N_("{name}: which action next?")).format(name=me)
        else:
            head = t(N_("{action}: {n} left")).format(action=t(FACE[kind]), n=left) + " — "
            v["prompt"] = head + t(PROMPT[kind]).format(name=me)
            if kind == "secure" and left >= 4:
                v["prompt"] = head + t(N_("{name} secures all goods: a trade ban until the next turn")).format(
                    name=me)
                # (two lines' room: "Proteger todas las mercancías (bloqueo comercial)" whole)
                v["sections"].append(_section("", 1, [_option(SecureAll(), t(N_("Secure all goods (trade ban)")),
                                                              role="card")]))
                return
        self._drop_stale_picks(state, kind)
        v["sections"].append(self._goods_rows(state, t, kind))
        if kind == "secure":  # (under All Actions Mandatory once Secure is picked: below the rows, nothing moves)
            v["sections"].append(self._pair_row(state, t))
        for f in SEAT_FIELDS.get(kind or "", ()):
            if f in self.picks:
                v["panel_selected"].add(self.picks[f])
        v["panel_targets"] = self._seat_targets(state, kind)

    def _pair_row(self, state, t) -> dict:
        """Below the rows: two goods of one colour into the vault in one tap, in the columns of the rows above."""
        pairs = {a.goods[0] for a in self._candidates(state, "secure")
                 if len(a.goods) == 2 and a.goods[0] == a.goods[1]}
        items = [_option(None, t(N_("Pair:")), False, role="label")]
        for g in goods_columns(state):
            if g in UNCOLOURED:  # one of each in the game: never two
                items.append(_option(None, "", False, role="spacer"))
            else:
                items.append(_option(SecurePair(g), "×2", g in pairs, good=g, role="good", seat=state.active))
        return _section("", len(items), items, kind="goods")

    def _drag_sources(self, state, kind) -> set:
        """(seat, good) cells a drag is meant to start from: a good some legal execution moves, of the action being
        carried out or, under All Actions Mandatory with none picked, of any still to carry out (the drag's ends say
        which: drops.py)."""
        if kind is None and state.chosen == "all":  # none picked yet: the drag's ends will say which
            kinds = [k for k, n in state.pending.items() if n]
        else:  # the action picked: a drag is that action (drops.py), so only its goods are lit to be dragged
            kinds = [kind]
        moves = [a for k in kinds if k and state.pending.get(k) for a in self._candidates(state, k)]
        me, seat, out = state.active, state.seat_of, set()
        for a in moves:
            if isinstance(a, Steal):
                out.add((seat(a.victim), a.good))
            elif isinstance(a, Donate):
                out.add((me, a.good))
            elif isinstance(a, Swap):
                out |= {(me, a.give), (seat(a.other), a.take)}
            elif isinstance(a, Relocate):
                out.add((seat(a.source), a.good))
            elif isinstance(a, Secure) and len(a.goods) <= 2 and len(set(a.goods)) == len(a.goods):
                out |= {(me, g) for g in a.goods}  # two colours (one onto the other), or the last good
        return out

    def _drop_stale_picks(self, state, kind):
        """A pick kept from the last execution that no legal action allows any more is let go."""
        if not kind or kind == "secure":
            return
        for f in list(self.picks):
            if not self._matching(state, kind, {f: self.picks[f]}):
                del self.picks[f]

    def _seat_targets(self, state, kind) -> set:
        if kind not in SEAT_TAP or not state.pending.get(kind):
            return set()
        return {self._fields(state, a)[SEAT_TAP[kind]] for a in self._candidates(state, kind)}

    def _cell_options(self, state, kind) -> set:
        """(seat, good) cells that some legal execution of `kind` goes through."""
        me, out = state.active, set()
        if not state.pending.get(kind):
            return out
        if kind == "secure":
            for a in self._candidates(state, kind):
                out |= {(me, g) for g in a.goods}
            return out
        for a in self._candidates(state, kind):
            f = self._fields(state, a)
            if kind in THEIR_GOOD:
                seat_f, good_f = THEIR_GOOD[kind]
                out.add((f[seat_f], f[good_f]))
            if kind in OWN_GOOD:
                out.add((me, f[OWN_GOOD[kind]]))
        return out

    def _goods_rows(self, state, t, kind) -> dict:
        """Every player's row, in seat order: their name, then one cell per good of the game (free goods only:
        the vault cannot be touched). Always the same rows and columns; what cannot be tapped now is disabled."""
        names, colours = self.names(state), self.colours(state)
        columns = goods_columns(state)
        cells = self._cell_options(state, kind) if kind else set()
        drags = self._drag_sources(state, kind) if state.step == "acting" else set()
        seats = self._seat_targets(state, kind)
        selected = self._selected_cells(state, kind)
        items = []
        for seat in range(state.n_players):
            label = names[seat]
            items.append(_option(PickSeat(seat), label, seat in seats, good=colours[seat],
                                 selected=seat in {self.picks.get(f) for f in SEAT_FIELDS.get(kind or "", ())},
                                 role="name", seat=seat))
            free = state.goods[seat]
            for g in columns:
                n = free.get(g, 0)
                text = ((t(good_label(g)) if g in UNCOLOURED else str(n)) if n else "")  # none: an empty cell
                # Every good can be picked up, the dimmed ones too: let go, the drop says why it does not go there
                # (a dimmed cell dragged away would otherwise do nothing and say nothing).
                items.append(_option(PickGood(seat, g), text, (seat, g) in cells or (seat, g) in drags, good=g,
                                     selected=selected[(seat, g)], role="good", seat=seat,
                                     drag=bool(n) and state.step == "acting"))
        return _section("", 1 + len(columns), items, kind="goods")

    def _selected_cells(self, state, kind) -> Counter:
        me, out = state.active, Counter()
        if kind == "secure":
            for g in self.secure_sel:
                out[(me, g)] += 1
            return out
        if kind in THEIR_GOOD:
            seat_f, good_f = THEIR_GOOD[kind]
            if seat_f in self.picks and good_f in self.picks:
                out[(self.picks[seat_f], self.picks[good_f])] += 1
        if kind in OWN_GOOD and OWN_GOOD[kind] in self.picks:
            out[(me, self.picks[OWN_GOOD[kind]])] += 1
        return out

    # -- intents: each returns the actions to record (none when only the selection changed) ------------------------
    # `state` is always the table's; the handlers work on the shown state (see `prefix`), and what they make is
    # recorded after the prefix. A tap that cannot do anything raises the reason: IllegalAction (the engine's) or
    # Refusal (the app's).
    def end_turn(self, state) -> tuple:
        """End turn: pass the dice. With the app's deck, a round that ends before round 5 also reveals the next
        round's card (it cannot be the sandstorm: there is nothing to wait for). From round 5 the starting player
        reveals it with a tap, after the warning: that card can end the game."""
        moves = self.prefix(state) + (EndTurn(),)
        after = self.shown(state).apply(EndTurn())  # the engine's reason if something is left to do
        if after.phase == "reveal" and after.setup.deck == "app" and after.round < SANDSTORM_ROUND:
            moves += tuple(after.legal_actions()[:1])
        return moves

    def reveal_missions(self, state, missions):
        return RevealMissions(tuple(missions))

    def tap_die(self, state, i: int) -> tuple:
        """A die of the dice row (or, after them, the New roll slot)."""
        if state.phase != "turn":
            raise Refusal(N_("The dice are rolled during a player's turn"))
        if state.dice is not None and i == NEW_ROLL:
            return self._tap_new_roll(state)
        if state.dice is None or self.new_roll:
            entered = self._dice_entered()
            if i >= len(entered):
                raise Refusal(N_("Tap in the roll below: how many dice show each face"))
            self.counts[entered[i]] -= 1  # take that die out again
            self.counts += Counter()
            return ()
        types = state.legal_types()
        if not {"reroll", "flip"} & types:
            # The engine's reason: e.g. "You cannot reroll after choosing your action", or no chip left.
            state.apply(Reroll((i,), (state.dice[i],), FACE_DOWN))
            raise Refusal(N_("These dice cannot be rerolled now"))
        # Under Flip the Die the die is turned over (tapped again, back); otherwise it is picked up to reroll.
        if i in self.sel_dice:
            self.sel_dice.remove(i)
        else:
            self.sel_dice.append(i)
        self.counts = Counter()  # the new faces are tapped in for the dice selected
        return ()

    def _tap_new_roll(self, state) -> tuple:
        """New roll: after a reroll the group taps in all five dice again; the dice that changed are the rerolled
        ones. Free while Reroll Once's free reroll is unused, else one chip face down."""
        if self.new_roll:
            self.new_roll, self.counts = (), Counter()
            return ()
        if state.step != "rolled":
            raise Refusal(N_("These dice cannot be rerolled now"))
        if state.event == "reroll_once" and not state.free_reroll_used:
            discard = None
        else:
            discard = FACE_DOWN
            state.apply(Reroll((0,), (state.dice[0],), FACE_DOWN))  # the engine's reason: no chip left, say
        self.new_roll, self.counts = (discard,), Counter()
        if state.event != "flip_the_die":
            self.sel_dice = []  # dice picked up a moment ago: the whole roll is tapped in instead
        return ()

    def tap_player(self, state, seat: int) -> tuple:
        """A tap on a player's panel: the player a chip is for, or a player an execution needs."""
        colours = self.colours(state)
        if state.phase == "turn" and state.dice is None:
            if not any(isinstance(a, PlaceChip) and a.on == colours[seat] for a in self._legal(state)):
                hand = state.chips_in_hand[state.active]
                state.apply(PlaceChip(colours[seat], hand[0] if hand else state.setup.chip_missions[0]))
                raise Refusal(N_("No suspicion chip can be placed now"))
            self.chip_on = None if self.chip_on == seat else seat
            return ()
        pre = self.prefix(state)
        return self._moves(pre, self._pick_seat(self.shown(state), seat))

    def choose(self, state, choice: Choice) -> tuple:
        """The actions a tapped (enabled) option records: none when it only changed the selection."""
        if isinstance(choice, DieSlot):
            return self.tap_die(state, choice.index)
        handler = _CHOICE_HANDLERS.get(type(choice))
        if handler is None:
            raise TypeError(f"not a round-screen choice: {choice!r}")
        pre, shown = self.prefix(state), self.shown(state)
        return self._moves(pre, handler(self, shown, choice))

    def drop(self, state, source, target) -> tuple:
        """A drag: a good (`PickGood`) or a chip in hand (`ChipMission`) let go on a cell (`PickGood`) or a player
        (`PickSeat`). Read by companion/ui/obscurians/drops.py; the engine judges the move it means."""
        pre, shown = self.prefix(state), self.shown(state)
        if isinstance(source, ChipMission):
            if shown.step != "chips":
                raise Refusal(N_("Suspicion chips are placed before rolling"))
            action = drops.read_chip(shown, source, target)
        elif isinstance(source, PickGood):
            if shown.step != "acting":
                raise Refusal(N_("Goods move once the action is chosen"))
            action = drops.read(shown, self._exec_kind(shown), source, target)
        else:
            raise TypeError(f"not something to drag: {source!r}")
        shown.apply(action)  # the engine's reason if the rules do not allow it
        return pre + (action,)

    def explain(self, state, choice: Choice) -> Exception:
        """Why a disabled option does nothing: the engine's refusal of what it would mean, or the app's reason."""
        if isinstance(choice, DieSlot):  # what a tap on that die says
            try:
                self.tap_die(state, choice.index)
            except (IllegalAction, Refusal) as err:
                return err
            return Refusal(N_("This option is not available now"))
        shown = self.shown(state)
        try:
            why = EXPLAIN.get(type(choice), Reasons._explain_default)(self, shown, choice)
        except (IllegalAction, Refusal) as err:
            return err
        return why if isinstance(why, Exception) else Refusal(N_("This option is not available now"))

    # -- the handlers -------------------------------------------------------------------------------------------
    def _cancel(self, state, choice: Cancel):
        if not self._has_selection():
            raise Refusal(N_("Nothing is selected"))
        self.reset()

    def _reveal(self, state, choice: Reveal):
        return RevealEvent(choice.card)

    def _chip(self, state, choice: ChipMission):
        if self.chip_on is None:
            raise Refusal(N_("Drag the chip onto the player you suspect, or tap that player first"))
        return PlaceChip(self.colours(state)[self.chip_on], choice.mission)

    def _face_count(self, state, choice: FaceCount):
        whole = state.dice is None or bool(self.new_roll)  # all five dice: a roll, or a New roll
        if not whole and (not self.sel_dice or "reroll" not in state.legal_types()):
            raise Refusal(N_("Tap the dice to reroll first"))
        if self.counts[choice.face] == choice.n:
            del self.counts[choice.face]
            return None
        self._check_count(choice, self._dice_to_enter(state))
        if state.dice is None and "roll" not in state.legal_types():
            state.apply(Roll(tuple([choice.face] * N_DICE)))  # the engine's reason (e.g. Chips or Dice)
        self.counts[choice.face] = choice.n
        if whole and sum(self.counts.values()) == N_DICE:
            if self.new_roll:
                dice, faces = rerolled(state.dice, self._dice_entered())
                return Reroll(dice, faces, self.new_roll[0])
            return Roll(tuple(self._dice_entered()))
        return None

    def _reroll(self, state, choice: PayReroll):
        if sum(self.counts.values()) != len(self.sel_dice) or not self.sel_dice:
            raise Refusal(N_("Tap in the new faces of the selected dice first"))
        return Reroll(tuple(sorted(self.sel_dice)), tuple(self._dice_entered()), choice.discard)

    def _choose_action(self, state, choice: ChooseAction):
        return Choose(choice.kind, choice.wilds)

    def _assign(self, state, choice: AssignWild):
        n = state.dice.count("wild")
        self.assign.append(choice.kind)
        if len(self.assign) >= n:
            return AssignWilds(tuple(self.assign))
        return None

    def _pick_kind(self, state, choice: PickKind):
        if choice.kind not in state.legal_types():
            raise self._kind_reason(state, choice.kind)
        if choice.kind != self.kind:
            self.kind, self.picks, self.secure_sel = choice.kind, {}, []
        return None

    def _secure_pair(self, state, choice: SecurePair):
        if state.pending.get("secure", 0) >= TRADE_BAN_SECURES:
            return self._secure_all(state, SecureAll())
        self.secure_sel = []
        return Secure((choice.good, choice.good))

    def _secure_all(self, state, choice: SecureAll):
        cands = self._candidates(state, "secure")
        return max(cands, key=lambda a: len(a.goods)) if cands else None

    def _pick_seat_choice(self, state, choice: PickSeat):
        return self._pick_seat(state, choice.seat)

    def _pick_seat(self, state, seat: int):
        kind = self._exec_kind(state)
        if kind not in SEAT_TAP:
            raise self._seat_reason(state, kind, seat)
        return self._pick(state, kind, {SEAT_TAP[kind]: seat}, lambda: self._seat_reason(state, kind, seat))

    def _pick_good(self, state, choice: PickGood):
        kind = self._exec_kind(state)
        seat, good = choice.seat, choice.good
        if kind is None:
            raise self._good_reason(state, kind, seat, good)
        if kind == "secure":
            if seat != state.active:
                raise self._good_reason(state, kind, seat, good)
            return self._secure_good(state, good)
        if seat == state.active and kind in OWN_GOOD:
            new = {OWN_GOOD[kind]: good}
        elif seat != state.active and kind in THEIR_GOOD:
            seat_f, good_f = THEIR_GOOD[kind]
            new = {seat_f: seat, good_f: good}
        else:
            raise self._good_reason(state, kind, seat, good)
        return self._pick(state, kind, new, lambda: self._good_reason(state, kind, seat, good))

    def _pick(self, state, kind: str, new: dict, reason):
        """Add `new` to the picks (dropping the ones it conflicts with); the action once every field is known."""
        if not self._matching(state, kind, new):
            raise reason()
        picks = {**self.picks, **new}
        if not self._matching(state, kind, picks):
            picks = dict(new)  # a fresh start with what was just tapped
        self.picks = picks
        found = self._matching(state, kind, picks)
        n_fields = len(self._fields(state, found[0])) if found else 0
        if found and len(picks) == n_fields:
            return found[0]
        return None

    def _secure_good(self, state, good: str):
        options = [Counter(a.goods) for a in self._candidates(state, "secure")]
        if any(sum(o.values()) > 2 for o in options):  # trade ban: everything at once
            return self._secure_all(state, SecureAll())
        want = Counter(self.secure_sel + [good])
        if any(all(o[g] >= n for g, n in want.items()) for o in options):
            self.secure_sel.append(good)
        elif good in self.secure_sel:
            self.secure_sel.remove(good)
            return None
        elif any(o[good] for o in options):
            self.secure_sel = [good]
        else:
            raise self._good_reason(state, "secure", state.active, good)
        done = Counter(self.secure_sel)
        if done in options:
            return next(a for a in self._candidates(state, "secure") if Counter(a.goods) == done)
        return None

_CHOICE_HANDLERS = {
    Cancel: TurnEntry._cancel, Reveal: TurnEntry._reveal, ChipMission: TurnEntry._chip,
    FaceCount: TurnEntry._face_count, PayReroll: TurnEntry._reroll,
    ChooseAction: TurnEntry._choose_action, AssignWild: TurnEntry._assign, PickKind: TurnEntry._pick_kind,
    PickSeat: TurnEntry._pick_seat_choice, PickGood: TurnEntry._pick_good, SecureAll: TurnEntry._secure_all,
    SecurePair: TurnEntry._secure_pair,
}
