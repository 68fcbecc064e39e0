"""Entering an Obscurians turn by taps, free of Kivy so that it can be tested and reasoned about alone.

`TurnEntry` turns an engine `State` plus the players' half-finished taps (a die being tapped in, the player chosen
as a chip target, the victim of a Steal …) into plain dicts the round screen shows, and turns taps into engine
actions. Every option a button offers is a typed `Choice` value (below), handed back unchanged when tapped; no
string is ever parsed. Legality always comes from the engine: a button is enabled only if some legal action
(`legal_actions()`, `legal_types()`, `is_legal()`) still goes through it.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable

from companion.games.errors import N_
from companion.games.obscurians.actions import (
    AssignWilds, EndTurn, Flip, PlaceChip, Reroll, RevealMissions, Roll,
)
from companion.games.obscurians.constants import ACTION_KINDS, COLOURS, EVENTS, FACES, MISSIONS, SANDSTORM, UNCOLOURED
from companion.games.obscurians.constants import WILD_KINDS
from companion.games.obscurians.vocabulary import EVENT, FACE, GOOD_SHORT, MISSION, COLOUR, UNCOLOURED_GOOD

ALL_CARDS = EVENTS + (SANDSTORM,)
N_DICE = 5


# -- what a button can mean -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Reveal:
    card: str


@dataclass(frozen=True)
class ChipMission:
    mission: str


@dataclass(frozen=True)
class ChooseAction:
    kind: str
    wilds: int


@dataclass(frozen=True)
class AssignWild:
    kind: str | None   # None: no Wild rolled, carry the dice out as they are


@dataclass(frozen=True)
class FlipSelected:
    pass


@dataclass(frozen=True)
class PayReroll:
    discard: str | None   # the chip discarded; None: the free reroll of Reroll Once


@dataclass(frozen=True)
class NextKind:
    kind: str   # All Actions Mandatory: which pending action to carry out next


@dataclass(frozen=True)
class PickGood:
    good: str


@dataclass(frozen=True)
class SecureGood:
    good: str


@dataclass(frozen=True)
class SecureSelected:
    pass


@dataclass(frozen=True)
class SecureAll:
    pass


@dataclass(frozen=True)
class Cancel:
    pass


Choice = (Reveal | ChipMission | ChooseAction | AssignWild | FlipSelected | PayReroll | NextKind | PickGood
          | SecureGood | SecureSelected | SecureAll | Cancel)

# Per execution kind: the fields the players tap in, in order, and what each one is (a seat or a good).
FIELDS = {
    "steal": (("victim", "seat"), ("good", "good")),
    "donate": (("to", "seat"), ("good", "good")),
    "swap": (("other", "seat"), ("take", "good"), ("give", "good")),
    "relocate": (("source", "seat"), ("target", "seat"), ("good", "good")),
}
PROMPT = {
    ("steal", "victim"): N_("{name}: tap the player to steal from"),
    ("steal", "good"): N_("Which good does {name} steal from {victim}?"),
    ("donate", "to"): N_("{name}: tap the player who receives the good"),
    ("donate", "good"): N_("Which good does {name} give to {to}?"),
    ("swap", "other"): N_("{name}: tap the player to swap with"),
    ("swap", "take"): N_("Which good does {name} take from {other}?"),
    ("swap", "give"): N_("Which good does {name} give to {other} in return?"),
    ("relocate", "source"): N_("{name}: tap the player who loses a good"),
    ("relocate", "target"): N_("Tap the player who receives it from {source}"),
    ("relocate", "good"): N_("Which good moves from {source} to {target}?"),
}
# Whose goods a good field is about: the field naming that player (None: the active player's own goods).
GOOD_OWNER = {("steal", "good"): "victim", ("donate", "good"): None, ("swap", "take"): "other",
              ("swap", "give"): None, ("relocate", "good"): "source"}

_GOOD_ORDER = COLOURS + UNCOLOURED


def good_sort_key(good: str) -> tuple:
    return (_GOOD_ORDER.index(good) if good in _GOOD_ORDER else 99, good)


def good_name(good: str) -> str:
    """The msgid naming a good on a button: its colour, or the lamp's / artifact's name."""
    return UNCOLOURED_GOOD.get(good) or COLOUR[good]


def good_label(good: str) -> str:
    """The msgid on a small goods chip: the count shows for colours, a short name for lamp and artifact."""
    return GOOD_SHORT[good]


def _mission_order(m: str) -> int:
    return MISSIONS.index(m)


def _option(choice, text: str, enabled: bool = True, good: str = "", selected: int = 0) -> dict:
    return {"choice": choice, "text": text, "enabled": bool(enabled), "good": good, "selected": selected}


class TurnEntry:
    """Selection state of the round screen and the mapping taps -> actions. One instance per open table."""

    def __init__(self):
        self.reset()

    def reset(self) -> None:
        """Forget half-finished taps (after every accepted action, undo or redo)."""
        self.entry: list[str] = []      # faces tapped in: the roll, or new faces of the selected dice
        self.sel_dice: list[int] = []   # dice chosen for a reroll or flip
        self.chip_on: int | None = None
        self.kind: str | None = None    # execution kind, when several are pending (All Actions Mandatory)
        self.picks: dict[str, str] = {}
        self.secure_sel: list[str] = []
        self.assign: list[str] = []

    # -- helpers ------------------------------------------------------------------------------------------------
    @staticmethod
    def colours(state) -> list[str]:
        return [c for _, c in state.setup.players]

    @staticmethod
    def names(state) -> list[str]:
        return [n for n, _ in state.setup.players]

    @staticmethod
    def _legal(state) -> list[tuple[object, dict]]:
        return [(a, a.to_json()) for a in state.legal_actions()]

    def exec_kind(self, state, legal) -> str | None:
        kinds = sorted({j["type"] for _, j in legal if j["type"] in ACTION_KINDS}, key=ACTION_KINDS.index)
        if not kinds:
            return None
        if len(kinds) == 1:
            return kinds[0]
        return self.kind if self.kind in kinds else None

    def _exec_candidates(self, legal, kind):
        out = [(a, j) for a, j in legal if j["type"] == kind]
        return [(a, j) for a, j in out if all(j.get(f) == v for f, v in self.picks.items())]

    def _next_field(self, kind):
        for field, what in FIELDS.get(kind, ()):
            if field not in self.picks:
                return field, what
        return None, None

    @staticmethod
    def _rolled(state) -> bool:
        return state.dice is not None

    # -- the view -----------------------------------------------------------------------------------------------
    def view(self, state, t: Callable[[str], str]) -> dict:
        legal = self._legal(state)
        types = set(state.legal_types())
        names, colours = self.names(state), self.colours(state)
        me = names[state.active]
        v = {"prompt": "", "choices": [], "dice": [], "faces": [], "panel_targets": set(), "panel_selected": set(),
             "end_turn": "end" in types, "choice_cols": 2}

        kind = self.exec_kind(state, legal) if state.phase == "turn" else None
        field, what = self._next_field(kind) if kind else (None, None)

        # dice row and face pad
        rolled = state.phase == "turn" and self._rolled(state)
        can_change = rolled and ({"reroll", "flip"} & types) and not kind
        if state.phase == "turn" and not rolled:
            for i in range(N_DICE):
                face = self.entry[i] if i < len(self.entry) else None
                v["dice"].append({"index": i, "face": face or "", "text": t(FACE[face]) if face else "?",
                                  "selected": False, "enabled": face is not None})
        elif rolled:
            for i, face in enumerate(state.dice):
                sel = i in self.sel_dice
                new = None
                if sel and self.entry:
                    k = self.sel_dice.index(i)
                    new = self.entry[k] if k < len(self.entry) else None
                text = t(FACE[face])
                if sel and "reroll" in types:  # old face over the new one, "?" until it is tapped in
                    text += "\n" + (t(FACE[new]) if new else "?")
                v["dice"].append({"index": i, "face": new or face, "text": text,
                                  "selected": sel, "enabled": bool(can_change)})
        entering_roll = state.phase == "turn" and not rolled and "roll" in types and self.chip_on is None
        entering_reroll = (bool(can_change) and self.sel_dice and "reroll" in types
                           and len(self.entry) < len(self.sel_dice))
        for face in FACES:
            v["faces"].append({"face": face, "text": t(FACE[face]), "enabled": bool(entering_roll or entering_reroll)})

        ch = v["choices"]
        if state.phase == "reveal":
            starter = names[state.start_player]
            cards = {j["card"] for _, j in legal if j["type"] == "reveal"}
            if state.setup.deck == "app":
                v["prompt"] = t(N_("Round {round}: {name} reveals the next event card")).format(
                    round=state.round, name=starter)
                ch.append(_option(Reveal(next(iter(cards), "")), t(N_("Reveal the event card")), bool(cards)))
                v["choice_cols"] = 1
            else:
                v["prompt"] = t(N_("Round {round}: {name} reveals an event card. Tap the card you see")).format(
                    round=state.round, name=starter)
                for card in ALL_CARDS:
                    ch.append(_option(Reveal(card), t(EVENT[card]), card in cards))
        elif state.phase == "turn" and not rolled:
            chips = [j for _, j in legal if j["type"] == "chip"]
            if self.chip_on is not None:
                target = names[self.chip_on]
                v["prompt"] = t(N_("{name} suspects {target} of which mission?")).format(name=me, target=target)
                v["panel_selected"].add(self.chip_on)
                possible = {j["mission"] for j in chips if j["on"] == colours[self.chip_on]}
                for m in sorted(set(state.chips_in_hand[state.active]), key=_mission_order):
                    ch.append(_option(ChipMission(m), t(MISSION[m]), m in possible))
                ch.append(_option(Cancel(), t(N_("Cancel"))))
            else:
                v["panel_targets"] = {colours.index(j["on"]) for j in chips}
                if "roll" in types and chips:
                    v["prompt"] = t(N_("{name}: tap a player to place a suspicion chip, or tap in the 5 dice you "
                                       "rolled")).format(name=me)
                elif "roll" in types:
                    v["prompt"] = t(N_("{name}: roll the dice and tap in the 5 faces")).format(name=me)
                elif chips:
                    v["prompt"] = t(N_("{name}: place more suspicion chips, or end the turn")).format(name=me)
                else:
                    v["prompt"] = t(N_("{name}: end the turn")).format(name=me)
        elif rolled and kind is None and {"choose", "assign", "reroll", "flip"} & types:
            self._choose_view(state, legal, types, t, v, me)
        elif kind is None and rolled:
            kinds = sorted({j["type"] for _, j in legal if j["type"] in ACTION_KINDS}, key=ACTION_KINDS.index)
            if kinds:
                v["prompt"] = t(N_("{name}: which action next?")).format(name=me)
                for k in kinds:
                    ch.append(_option(NextKind(k), t(N_("{action} ({n} left)")).format(
                        action=t(FACE[k]), n=(state.pending or {}).get(k, 0))))
            elif "end" in types:
                v["prompt"] = t(N_("{name}: nothing left to do, end the turn")).format(name=me)
        if kind:
            self._exec_view(state, legal, kind, field, what, t, v, me)
        return v

    def _choose_view(self, state, legal, types, t, v, me):
        ch = v["choices"]
        if "assign" in types:
            options = [j["kinds"] for _, j in legal if j["type"] == "assign"]
            n = max((len(k) for k in options), default=0)
            i = len(self.assign)
            v["prompt"] = t(N_("{name}: all rolled actions are mandatory. Wild {i} of {n} counts as")).format(
                name=me, i=min(i + 1, n), n=n)
            if n == 0:
                v["prompt"] = t(N_("{name}: all rolled actions are mandatory, one die at a time")).format(name=me)
                ch.append(_option(AssignWild(None), t(N_("Start with the first die"))))
                return
            for k in WILD_KINDS:
                ok = any(list(o[:i + 1]) == self.assign + [k] for o in options if len(o) > i)
                ch.append(_option(AssignWild(k), t(FACE[k]), ok))
            return
        if self.sel_dice:
            if "flip" in types and not self.entry:
                ok = state.is_legal(Flip(tuple(sorted(self.sel_dice))))
                ch.append(_option(FlipSelected(), t(N_("Flip the selected dice")), ok))
            if "reroll" in types:
                if len(self.entry) < len(self.sel_dice):
                    v["prompt"] = t(N_("Reroll: tap the new face of each selected die ({k} of {n})")).format(
                        k=len(self.entry) + 1, n=len(self.sel_dice))
                else:
                    v["prompt"] = t(N_("Which chip does {name} discard for the reroll?")).format(name=me)
                    dice, faces = tuple(sorted(self.sel_dice)), self._reroll_faces()
                    if state.is_legal(Reroll(dice, faces, None)):
                        ch.append(_option(PayReroll(None), t(N_("Free reroll (event card)"))))
                    for m in sorted(set(state.chips_in_hand[state.active]), key=_mission_order):
                        ch.append(_option(PayReroll(m), t(N_("Discard {mission}")).format(mission=t(MISSION[m])),
                                          state.is_legal(Reroll(dice, faces, m))))
            elif not v["prompt"]:
                v["prompt"] = t(N_("Flip the selected dice, or tap a die again to unselect it"))
            ch.append(_option(Cancel(), t(N_("Cancel"))))
            return
        counts = state.allowed_counts()
        opts = sorted(((j["action"], j["wilds"]) for _, j in legal if j["type"] == "choose"),
                      key=lambda kw: (ACTION_KINDS.index(kw[0]), kw[1]))
        hints = []
        if "reroll" in types:
            hints.append(t(N_("tap dice to reroll them")))
        if "flip" in types:
            hints.append(t(N_("tap dice to flip them")))
        v["prompt"] = t(N_("{name}: choose one action")).format(name=me) + (
            " " + t(N_("(or {hint})")).format(hint=t(N_(", or ")).join(hints)) if hints else "")
        for kind in ACTION_KINDS:
            ws = sorted(w for k, w in opts if k == kind)
            cs = sorted(counts.get(kind, []))
            for idx, w in enumerate(ws):
                n = cs[idx] if idx < len(cs) else None
                label = t(FACE[kind]) + (f" × {n}" if n is not None else "")
                if w:
                    label += " " + t(N_("({w} Wild)")).format(w=w)
                ch.append(_option(ChooseAction(kind, w), label))
        if not opts and v["end_turn"]:
            v["prompt"] = t(N_("{name}: no action is possible with this roll, end the turn")).format(name=me)

    def _reroll_faces(self) -> tuple[str, ...]:
        # The faces tapped in belong to the selected dice in the order they were selected; the action lists dice
        # sorted, so reorder the faces with them.
        return tuple(f for _, f in sorted(zip(self.sel_dice, self.entry)))

    def _exec_view(self, state, legal, kind, field, what, t, v, me):
        names, colours = self.names(state), self.colours(state)
        left = (state.pending or {}).get(kind, 0)
        head = t(N_("{action}: {n} left")).format(action=t(FACE[kind]), n=left) + " — "
        cands = self._exec_candidates(legal, kind)
        ch = v["choices"]
        fmt = {"name": me}
        for f, val in self.picks.items():
            if val in colours:
                fmt[f] = names[colours.index(val)]
                v["panel_selected"].add(colours.index(val))
        if kind == "secure":
            goods_opts = [Counter(j["goods"]) for _, j in cands]
            sel = Counter(self.secure_sel)
            ban = [g for g in goods_opts if sum(g.values()) > 2]
            v["prompt"] = head + t(N_("Which 2 goods does {name} put in the vault?")).format(name=me)
            if ban and len(goods_opts) == len(ban):
                v["prompt"] = head + t(N_("{name} secures all goods: a trade ban until the next turn")).format(
                    name=me)
                ch.append(_option(SecureAll(), t(N_("Secure all goods (trade ban)"))))
                return
            own = state.goods[state.active]
            for g in sorted(own, key=good_sort_key):
                want = sel + Counter([g])
                ok = any(all(o[x] >= c for x, c in want.items()) for o in goods_opts)
                n_sel = self.secure_sel.count(g)
                ch.append(_option(SecureGood(g), f"{t(good_name(g))}  {own[g]}" + (f"  +{n_sel}" if n_sel else ""),
                                  ok or g in sel, good=g, selected=n_sel))
            done = bool(sel) and any(o == sel for o in goods_opts)
            label = (t(N_("Secure {goods}")).format(goods=", ".join(t(good_name(g)) for g in self.secure_sel))
                     if sel else t(N_("Secure")))
            ch.append(_option(SecureSelected(), label, done))
            if sel:
                ch.append(_option(Cancel(), t(N_("Cancel"))))
            return
        if field is None:
            return
        v["prompt"] = head + t(PROMPT[(kind, field)]).format(
            **{k: fmt.get(k, "") for k in ("name", "victim", "to", "other", "source", "target")})
        values = sorted({j.get(field) for _, j in cands if j.get(field) is not None}, key=good_sort_key)
        if what == "seat":
            v["panel_targets"] = {colours.index(c) for c in values if c in colours}
        else:
            owner_field = GOOD_OWNER[(kind, field)]
            owner = state.active if owner_field is None else colours.index(self.picks[owner_field])
            have = state.goods[owner]
            for g in sorted(set(have) | set(values), key=good_sort_key):
                ch.append(_option(PickGood(g), f"{t(good_name(g))}  {have.get(g, 0)}", g in values, good=g))
        if self.picks:
            ch.append(_option(Cancel(), t(N_("Cancel"))))

    # -- intents: each returns an action to apply, or None when only the selection changed ------------------------
    def end_turn(self, state):
        return EndTurn()

    def reveal_missions(self, state, missions):
        return RevealMissions(tuple(missions))

    def tap_face(self, state, face: str):
        if not self._rolled(state):
            if len(self.entry) < N_DICE:
                self.entry.append(face)
            if len(self.entry) == N_DICE:
                return Roll(tuple(self.entry))
            return None
        if self.sel_dice and len(self.entry) < len(self.sel_dice):
            self.entry.append(face)
        return None

    def tap_die(self, state, i: int):
        if not self._rolled(state):
            if i < len(self.entry):
                del self.entry[i]
            return None
        if i in self.sel_dice:
            k = self.sel_dice.index(i)
            self.sel_dice.pop(k)
            if k < len(self.entry):
                self.entry.pop(k)
        else:
            self.sel_dice.append(i)
        return None

    def tap_player(self, state, seat: int):
        legal = self._legal(state)
        colour = self.colours(state)[seat]
        if state.phase == "turn" and not self._rolled(state):
            if any(j["type"] == "chip" and j["on"] == colour for _, j in legal):
                self.chip_on = None if self.chip_on == seat else seat
            return None
        kind = self.exec_kind(state, legal)
        field, what = self._next_field(kind) if kind else (None, None)
        if what == "seat" and any(j.get(field) == colour for _, j in self._exec_candidates(legal, kind)):
            self.picks[field] = colour
            return self._complete(legal, kind)
        return None

    def _complete(self, legal, kind):
        field, _ = self._next_field(kind)
        if field is None:
            cands = self._exec_candidates(legal, kind)
            if cands:
                return cands[0][0]
        return None

    def choose(self, state, choice: Choice):
        """The action a tapped option leads to, or None when it only changed the selection."""
        handler = _CHOICE_HANDLERS.get(type(choice))
        if handler is None:
            raise TypeError(f"not a round-screen choice: {choice!r}")
        return handler(self, state, choice)

    def _cancel(self, state, choice: Cancel):
        self.reset()

    def _reveal(self, state, choice: Reveal):
        return next((a for a, j in self._legal(state) if j["type"] == "reveal" and j["card"] == choice.card), None)

    def _chip(self, state, choice: ChipMission):
        if self.chip_on is not None:
            return PlaceChip(self.colours(state)[self.chip_on], choice.mission)
        return None

    def _choose_action(self, state, choice: ChooseAction):
        return next((a for a, j in self._legal(state) if j["type"] == "choose" and j["action"] == choice.kind
                     and j["wilds"] == choice.wilds), None)

    def _assign(self, state, choice: AssignWild):
        if choice.kind is not None:
            self.assign.append(choice.kind)
        options = [j["kinds"] for _, j in self._legal(state) if j["type"] == "assign"]
        if len(self.assign) >= max((len(k) for k in options), default=0):
            return AssignWilds(tuple(self.assign))
        return None

    def _flip(self, state, choice: FlipSelected):
        return Flip(tuple(sorted(self.sel_dice)))

    def _reroll(self, state, choice: PayReroll):
        return Reroll(tuple(sorted(self.sel_dice)), self._reroll_faces(), choice.discard)

    def _next_kind(self, state, choice: NextKind):
        self.kind, self.picks = choice.kind, {}

    def _pick_good(self, state, choice: PickGood):
        legal = self._legal(state)
        kind = self.exec_kind(state, legal)
        if kind:
            field, _ = self._next_field(kind)
            if field:
                self.picks[field] = choice.good
            return self._complete(legal, kind)
        return None

    def _secure_good(self, state, choice: SecureGood):
        # Add the good if some legal Secure still holds the selection plus it; otherwise take one back out.
        want = Counter(self.secure_sel + [choice.good])
        options = [Counter(j["goods"]) for _, j in self._exec_candidates(self._legal(state), "secure")]
        if any(all(o[g] >= n for g, n in want.items()) for o in options):
            self.secure_sel.append(choice.good)
        elif choice.good in self.secure_sel:
            self.secure_sel.remove(choice.good)

    def _secure_selected(self, state, choice: SecureSelected):
        want = Counter(self.secure_sel)
        return next((a for a, j in self._exec_candidates(self._legal(state), "secure")
                     if Counter(j["goods"]) == want), None)

    def _secure_all(self, state, choice: SecureAll):
        cands = self._exec_candidates(self._legal(state), "secure")
        return max(cands, key=lambda aj: len(aj[1]["goods"]))[0] if cands else None


_CHOICE_HANDLERS = {
    Cancel: TurnEntry._cancel, Reveal: TurnEntry._reveal, ChipMission: TurnEntry._chip,
    ChooseAction: TurnEntry._choose_action, AssignWild: TurnEntry._assign, FlipSelected: TurnEntry._flip,
    PayReroll: TurnEntry._reroll, NextKind: TurnEntry._next_kind, PickGood: TurnEntry._pick_good,
    SecureGood: TurnEntry._secure_good, SecureSelected: TurnEntry._secure_selected, SecureAll: TurnEntry._secure_all,
}
