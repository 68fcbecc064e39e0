"""Entering an Obscurians turn by taps, free of Kivy so that it can be tested and reasoned about alone.

`TurnEntry` turns an engine `State` plus the players' half-finished taps (the roll being tapped in, the player a
chip is for, the receiver of a Relocate …) into plain dicts the round screen shows, and taps into engine actions.
Every option is a typed `Choice` value (below), handed back unchanged when tapped; no string is ever parsed.

Three promises, each one the round screen's (docs/ui.md, "The round screen"):

- **Stable.** An option keeps its slot for as long as its step lasts: all dice faces, all missions, all five
  actions, every player's row of goods are always listed in the same order; what is used up or not allowed stays
  where it was, disabled. Nothing is chosen for the players (no jump to "the one option left").
- **Explained.** Legality comes from the engine (`legal_actions()`, `legal_types()`, `apply()`); a disabled
  option, tapped, raises the engine's own refusal (an IllegalAction from a representative action) or, where no
  rule is involved, a `Refusal` with the app's sentence. Never a dead tap.
- **Few taps.** A roll is tapped in as "how many of each face" (one tap per face shown); a good is one tap on its
  owner's row ("Ben: blue" steals it); a Donate is one tap on the receiver's row, in the colour given ("Ben: blue"
  under Donate gives Ben one of my blue goods); the receiver of a Relocate stays selected for the next one.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable

from companion.games.errors import N_, IllegalAction
from companion.games.obscurians.actions import (
    AssignWilds, Choose, Donate, EndTurn, Flip, PlaceChip, Relocate, Reroll, RevealEvent, RevealMissions, Roll,
    Secure, Steal, Swap,
)
from companion.games.obscurians.constants import (
    ACTION_KINDS, COLOURS, EVENTS, FACE_DOWN, FACES, MISSIONS, N_DICE, SANDSTORM, UNCOLOURED, WILD_KINDS,
)
from companion.games.obscurians.vocabulary import EVENT, FACE, GOOD_SHORT, MISSION, COLOUR, UNCOLOURED_GOOD

ALL_CARDS = EVENTS + (SANDSTORM,)
GOOD_ORDER = COLOURS + UNCOLOURED


# -- what a button can mean -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Reveal:
    card: str


@dataclass(frozen=True)
class ChipMission:
    mission: str        # the mission on the chip placed on the selected player


@dataclass(frozen=True)
class FaceCount:
    face: str
    n: int              # this many of the dice being tapped in show `face` (tap it again: none)


@dataclass(frozen=True)
class PayReroll:
    discard: str | None  # FACE_DOWN: one chip, face down; None: the free reroll of Reroll Once


@dataclass(frozen=True)
class FlipSelected:
    pass


@dataclass(frozen=True)
class ChooseAction:
    kind: str
    wilds: int


@dataclass(frozen=True)
class AssignWild:
    kind: str | None     # None: no Wild rolled, carry the dice out as they are


@dataclass(frozen=True)
class PickKind:
    kind: str            # All Actions Mandatory: which rolled action to carry out next


@dataclass(frozen=True)
class PickSeat:
    seat: int            # a player (their row's name, or their panel): victim, receiver, source ...


@dataclass(frozen=True)
class PickGood:
    seat: int            # whose good ...
    good: str            # ... and which one


@dataclass(frozen=True)
class SecureAll:
    pass


@dataclass(frozen=True)
class Cancel:
    pass


Choice = (Reveal | ChipMission | FaceCount | PayReroll | FlipSelected | ChooseAction | AssignWild | PickKind
          | PickSeat | PickGood | SecureAll | Cancel)


class Refusal(Exception):
    """Why a tap does nothing, where no rule of the game is involved (e.g. "all 5 dice are tapped in"): an
    English msgid of the `companion` catalogue and its params (names and numbers)."""

    def __init__(self, msgid: str, **params):
        super().__init__(msgid.format(**params))
        self.msgid = msgid
        self.params = params


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
    "swap": N_("{name}: tap the good to take (their row) and the good to give (your row)"),
    "relocate": N_("{name}: tap the good to move (on its owner's row), and the player who receives it"),
    "secure": N_("{name}: tap 2 of your goods to put in the vault"),
}


def good_sort_key(good: str) -> tuple:
    return (GOOD_ORDER.index(good) if good in GOOD_ORDER else 99, good)


def good_name(good: str) -> str:
    """The msgid naming a good: its colour, or the lamp's / artifact's name."""
    return UNCOLOURED_GOOD.get(good) or COLOUR[good]


def good_label(good: str) -> str:
    """The msgid on a small goods chip: the count shows for colours, a short name for lamp and artifact."""
    return GOOD_SHORT[good]


def goods_columns(state) -> tuple[str, ...]:
    """The goods columns of every player's row, fixed for the whole game: the table's colours, lamp, artifact."""
    at_table = {c for _, c in state.setup.players}
    return tuple(c for c in COLOURS if c in at_table) + UNCOLOURED


def _option(choice, text: str, enabled: bool = True, good: str = "", selected: bool = False,
            role: str = "button", seat: int | None = None) -> dict:
    return {"choice": choice, "text": text, "enabled": bool(enabled), "good": good, "selected": bool(selected),
            "role": role, "seat": seat}


def _section(title: str, cols: int, items: list[dict], kind: str = "grid") -> dict:
    return {"title": title, "cols": cols, "items": items, "kind": kind}


class TurnEntry:
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

    def after_action(self, state) -> None:
        """An action was played: forget the taps that made it, keep what the next one is likely to repeat (the
        player a chip is for, the receiver of a Relocate, the partner of a Swap)."""
        keep = {f: v for f, v in self.picks.items() if f in STICKY.get(self._exec_kind(state) or "", ())}
        chip_on = self.chip_on if state.step == "chips" else None
        kind = self.kind if state.pending and self.kind in state.pending else None
        self.reset()
        self.picks, self.chip_on, self.kind = keep, chip_on, kind

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
        names = self.names(state)
        me = names[state.active]
        types = state.legal_types()
        v = {"prompt": "", "dice": [], "pad": [], "pad_title": "", "sections": [], "panel_targets": set(),
             "panel_selected": set(), "end_turn": "end" in types, "cancel": self._has_selection(),
             "stage": state.phase, "assigned": list(self.assign), "secure_sel": list(self.secure_sel)}
        if state.phase == "reveal":
            self._reveal_view(state, t, v)
        elif state.phase == "turn" and state.dice is None:
            v["stage"] = "chips"
            self._chips_view(state, types, t, v, me)
        elif state.step == "rolled":
            v["stage"] = "rolled"
            self._rolled_view(state, types, t, v, me)
        elif state.step == "acting":
            v["stage"] = "acting"
            self._acting_view(state, t, v, me)
        return v

    def _has_selection(self) -> bool:
        return bool(self.counts or self.sel_dice or self.chip_on is not None or self.picks or self.secure_sel
                    or self.assign)

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

    def _pad(self, t, total: int, enabled: bool) -> list[dict]:
        """Six rows (one per face) of count buttons 1-5; counts that would make more than `total` dice are off."""
        used = sum(self.counts.values())
        rows = []
        for face in FACES:
            mine = self.counts[face]
            counts = [{"choice": FaceCount(face, n), "text": str(n), "selected": mine == n,
                       "enabled": enabled and (mine == n or used - mine + n <= total)} for n in range(1, N_DICE + 1)]
            rows.append({"face": face, "text": t(FACE[face]), "counts": counts})
        return rows

    def _chips_view(self, state, types, t, v, me):
        names, colours = self.names(state), self.colours(state)
        entered = self._dice_entered()
        for i in range(N_DICE):
            face = entered[i] if i < len(entered) else ""
            v["dice"].append({"index": i, "face": face, "text": t(FACE[face]) if face else "?", "selected": False,
                              "enabled": bool(face)})
        chips = [a for a in self._legal(state) if isinstance(a, PlaceChip)]
        v["panel_targets"] = {colours.index(a.on) for a in chips}
        if self.chip_on is not None and self.chip_on not in v["panel_targets"]:
            self.chip_on = None
        can_roll = "roll" in types
        v["pad"] = self._pad(t, N_DICE, can_roll)
        v["pad_title"] = t(N_("The roll: how many dice show each face?"))
        if can_roll and chips:
            v["prompt"] = t(N_("{name}: tap in the 5 dice rolled, or first tap a player to place a suspicion "
                               "chip on")).format(name=me)
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
            title = (t(N_("Suspicion chip on {target}:")).format(target=names[target]) if target is not None
                     else t(N_("Suspicion chip: tap a player first")))
            items = [_option(ChipMission(m), t(MISSION[m]), m in possible) for m in state.setup.chip_missions]
            v["sections"].append(_section(title, len(items), items, kind="chips"))
            if target is not None:
                v["panel_selected"].add(target)

    def _rolled_view(self, state, types, t, v, me):
        can_change = bool({"reroll", "flip"} & types)
        new = self._dice_entered()
        for i, face in enumerate(state.dice):
            sel = i in self.sel_dice
            text = t(FACE[face])
            if sel and "reroll" in types and self.counts:
                k = sorted(self.sel_dice).index(i)
                text = t(FACE[new[k]]) if k < len(new) else "?"
            v["dice"].append({"index": i, "face": face, "text": text, "selected": sel, "enabled": can_change})
        if self.sel_dice:
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
            if "flip" in types:
                items.append(_option(FlipSelected(), t(N_("Flip the selected dice")),
                                     not self.counts and state.is_legal(Flip(tuple(sorted(self.sel_dice))))))
            v["sections"].append(_section("", max(1, len(items)), items))
            v["prompt"] = (t(N_("{name}: the new faces, then pay")).format(name=me)
                           if "reroll" in types else t(N_("{name}: flip the selected dice")).format(name=me))
            return
        if "assign" in types:
            self._assign_view(state, t, v, me)
            return
        hints = []
        if "reroll" in types:
            hints.append(t(N_("tap dice to reroll them")))
        if "flip" in types:
            hints.append(t(N_("tap dice to flip them")))
        v["prompt"] = t(N_("{name}: choose one action")).format(name=me) + (
            " " + t(N_("(or {hint})")).format(hint=t(N_(", or ")).join(hints)) if hints else "")
        self._choose_section(state, t, v)
        if "choose" not in types and v["end_turn"]:
            v["prompt"] = t(N_("{name}: no action is possible with this roll, end the turn")).format(name=me)

    def _choose_section(self, state, t, v):
        """One row per action, always all five in the same order: the count with no Wild first, then one more
        button per Wild added; what the roll or the event card does not allow stays, disabled."""
        legal = {(a.action, a.wilds) for a in self._legal(state) if isinstance(a, Choose)}
        w_max = state.wilds_available()
        cols = 1 + w_max
        items = []
        if w_max:  # the Wilds a column adds, said once above it (the cells then hold just the count)
            items.append(_option(None, "", False, role="label"))
            items += [_option(None, t(N_("+{w} Wild")).format(w=w) if w == 1 else t(N_("+{w} Wilds")).format(w=w),
                              False, role="label") for w in range(1, cols)]
        for kind in ACTION_KINDS:
            for w in range(cols):
                ok = (kind, w) in legal
                n = state._count(kind, w) if (w == 0 or kind != "relocate") else 0
                if w == 0:
                    text = t(FACE[kind]) + (f" × {n}" if ok else "")
                elif kind == "relocate":
                    items.append(_option(None, "", False, role="spacer"))
                    continue
                else:
                    text = f"× {n}"
                items.append(_option(ChooseAction(kind, w), text, ok))
        v["sections"].append(_section("", cols, items, kind="choose"))

    def _assign_view(self, state, t, v, me):
        n = state.dice.count("wild")
        if n == 0:
            v["prompt"] = t(N_("{name}: all rolled actions are mandatory, one die at a time")).format(name=me)
            v["sections"].append(_section("", 1, [_option(AssignWild(None), t(N_("Start with the first die")))]))
            return
        i = len(self.assign)
        v["prompt"] = t(N_("{name}: all rolled actions are mandatory. Wild {i} of {n} counts as")).format(
            name=me, i=min(i + 1, n), n=n)
        v["sections"].append(_section("", len(WILD_KINDS), [_option(AssignWild(k), t(FACE[k])) for k in WILD_KINDS]))

    def _acting_view(self, state, t, v, me):
        names = self.names(state)
        for i, face in enumerate(state.dice):
            v["dice"].append({"index": i, "face": face, "text": t(FACE[face]), "selected": False, "enabled": False})
        kind = self._exec_kind(state)
        if state.chosen == "all":  # All Actions Mandatory: the five actions, always in the same places
            items = []
            for k in ACTION_KINDS:
                left = state.pending.get(k, 0)
                text = t(FACE[k]) + (f" × {left}" if left else "")
                items.append(_option(PickKind(k), text, k in state.legal_types(), selected=k == kind))
            v["sections"].append(_section(t(N_("Carry out next:")), len(items), items, kind="kinds"))
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
                v["sections"].append(_section("", 1, [_option(SecureAll(), t(N_("Secure all goods (trade ban)")))]))
                return
        self._drop_stale_picks(state, kind)
        v["sections"].append(self._goods_rows(state, t, kind))
        for f in SEAT_FIELDS.get(kind or "", ()):
            if f in self.picks:
                v["panel_selected"].add(self.picks[f])
        v["panel_targets"] = self._seat_targets(state, kind)

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
                items.append(_option(PickGood(seat, g), text, (seat, g) in cells, good=g,
                                     selected=selected[(seat, g)], role="good", seat=seat))
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

    # -- intents: each returns an action to apply, or None when only the selection changed ------------------------
    # A tap that cannot do anything raises the reason: IllegalAction (the engine's) or Refusal (the app's).
    def end_turn(self, state):
        return EndTurn()

    def reveal_missions(self, state, missions):
        return RevealMissions(tuple(missions))

    def tap_die(self, state, i: int):
        if state.phase != "turn":
            raise Refusal(N_("The dice are rolled during a player's turn"))
        if state.dice is None:
            entered = self._dice_entered()
            if i >= len(entered):
                raise Refusal(N_("Tap in the roll below: how many dice show each face"))
            self.counts[entered[i]] -= 1  # take that die out again
            self.counts += Counter()
            return None
        types = state.legal_types()
        if not {"reroll", "flip"} & types:
            # The engine's reason: e.g. "You cannot reroll after choosing your action", or no chip left.
            state.apply(Reroll((i,), (state.dice[i],), FACE_DOWN))
            raise Refusal(N_("These dice cannot be rerolled now"))
        if i in self.sel_dice:
            self.sel_dice.remove(i)
        else:
            self.sel_dice.append(i)
        self.counts = Counter()  # the new faces are tapped in for the dice selected
        return None

    def tap_player(self, state, seat: int):
        """A tap on a player's panel: the player a chip is for, or a player an execution needs."""
        colours = self.colours(state)
        if state.phase == "turn" and state.dice is None:
            if not any(isinstance(a, PlaceChip) and a.on == colours[seat] for a in self._legal(state)):
                hand = state.chips_in_hand[state.active]
                state.apply(PlaceChip(colours[seat], hand[0] if hand else state.setup.chip_missions[0]))
                raise Refusal(N_("No suspicion chip can be placed now"))
            self.chip_on = None if self.chip_on == seat else seat
            return None
        return self._pick_seat(state, seat)

    def choose(self, state, choice: Choice):
        """The action a tapped (enabled) option leads to, or None when it only changed the selection."""
        handler = _CHOICE_HANDLERS.get(type(choice))
        if handler is None:
            raise TypeError(f"not a round-screen choice: {choice!r}")
        return handler(self, state, choice)

    def explain(self, state, choice: Choice) -> Exception:
        """Why a disabled option does nothing: the engine's refusal of what it would mean, or the app's reason."""
        try:
            why = _EXPLAIN.get(type(choice), TurnEntry._explain_default)(self, state, choice)
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
            raise Refusal(N_("Tap the player you suspect first"))
        return PlaceChip(self.colours(state)[self.chip_on], choice.mission)

    def _face_count(self, state, choice: FaceCount):
        total = N_DICE if state.dice is None else len(self.sel_dice)
        if state.dice is not None and (not self.sel_dice or "reroll" not in state.legal_types()):
            raise Refusal(N_("Tap the dice to reroll first"))
        if self.counts[choice.face] == choice.n:
            del self.counts[choice.face]
            return None
        others = sum(n for f, n in self.counts.items() if f != choice.face)
        if others + choice.n > total:
            raise Refusal(N_("That makes more than {n} dice: {left} still to tap in"), n=total, left=total - others)
        if state.dice is None and "roll" not in state.legal_types():
            state.apply(Roll(tuple([choice.face] * N_DICE)))  # the engine's reason (e.g. Chips or Dice)
        self.counts[choice.face] = choice.n
        if state.dice is None and sum(self.counts.values()) == N_DICE:
            return Roll(tuple(self._dice_entered()))
        return None

    def _reroll(self, state, choice: PayReroll):
        if sum(self.counts.values()) != len(self.sel_dice) or not self.sel_dice:
            raise Refusal(N_("Tap in the new faces of the selected dice first"))
        return Reroll(tuple(sorted(self.sel_dice)), tuple(self._dice_entered()), choice.discard)

    def _flip(self, state, choice: FlipSelected):
        if not self.sel_dice:
            raise Refusal(N_("Tap the dice to flip first"))
        return Flip(tuple(sorted(self.sel_dice)))

    def _choose_action(self, state, choice: ChooseAction):
        return Choose(choice.kind, choice.wilds)

    def _assign(self, state, choice: AssignWild):
        n = state.dice.count("wild")
        if choice.kind is not None:
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

    # -- reasons -------------------------------------------------------------------------------------------------
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
        if kind is None:
            return Refusal(N_("Tap the action to carry out next first"))
        me = state.active
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
        if self.chip_on is None:
            return Refusal(N_("Tap the player you suspect first"))
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
        total = N_DICE if state.dice is None else len(self.sel_dice)
        others = sum(n for f, n in self.counts.items() if f != choice.face)
        if others + choice.n > total:
            raise Refusal(N_("That makes more than {n} dice: {left} still to tap in"), n=total, left=total - others)

    def _explain_pay(self, state, choice: PayReroll):
        if sum(self.counts.values()) != len(self.sel_dice) or not self.sel_dice:
            return Refusal(N_("Tap in the new faces of the selected dice first"))
        return self._engine_reason(state, Reroll(tuple(sorted(self.sel_dice)), tuple(self._dice_entered()),
                                                 choice.discard))

    def _explain_flip(self, state, choice: FlipSelected):
        if self.counts:
            return Refusal(N_("New faces are tapped in: this is a reroll. Cancel to flip instead"))
        return self._engine_reason(state, Flip(tuple(sorted(self.sel_dice)) or (0,)))

    def _explain_choose(self, state, choice: ChooseAction):
        return self._engine_reason(state, Choose(choice.kind, choice.wilds))

    def _explain_kind(self, state, choice: PickKind):
        return self._kind_reason(state, choice.kind)

    def _explain_seat(self, state, choice: PickSeat):
        return self._seat_reason(state, self._exec_kind(state), choice.seat)

    def _explain_good(self, state, choice: PickGood):
        return self._good_reason(state, self._exec_kind(state), choice.seat, choice.good)


_CHOICE_HANDLERS = {
    Cancel: TurnEntry._cancel, Reveal: TurnEntry._reveal, ChipMission: TurnEntry._chip,
    FaceCount: TurnEntry._face_count, PayReroll: TurnEntry._reroll, FlipSelected: TurnEntry._flip,
    ChooseAction: TurnEntry._choose_action, AssignWild: TurnEntry._assign, PickKind: TurnEntry._pick_kind,
    PickSeat: TurnEntry._pick_seat_choice, PickGood: TurnEntry._pick_good, SecureAll: TurnEntry._secure_all,
}
_EXPLAIN = {
    Reveal: TurnEntry._explain_reveal, ChipMission: TurnEntry._explain_chip, FaceCount: TurnEntry._explain_count,
    PayReroll: TurnEntry._explain_pay, FlipSelected: TurnEntry._explain_flip,
    ChooseAction: TurnEntry._explain_choose, PickKind: TurnEntry._explain_kind, PickSeat: TurnEntry._explain_seat,
    PickGood: TurnEntry._explain_good,
}
