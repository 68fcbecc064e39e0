"""What is legal now in Obscurians: the action types, and every concrete action (but the dice's faces).

`State.legal_types()` and `State.legal_actions()` read from here; flow.py asks `can` and `any_choice` before it
lets a turn end with something still to do.
"""
from __future__ import annotations

from itertools import combinations, combinations_with_replacement, permutations

from companion.games.obscurians.actions import (
    AssignWilds, Choose, Donate, EndTurn, Flip, PlaceChip, Relocate, RevealEvent, RevealMissions, Secure, Steal, Swap,
)
from companion.games.obscurians.constants import ACTION_KINDS, MISSIONS, N_DICE, WILD_KINDS
from companion.games.obscurians.model import TRADE_BAN_SECURES
from companion.games.obscurians.setup import TRIO_A, TRIO_B


def others_open(s):
    """Other seats that can be targeted: not under a trade ban."""
    me, ban = s.active, s.trade_ban
    return [i for i in range(len(ban)) if i != me and not ban[i]]


def can(s, kind: str) -> bool:
    """Is there at least one legal execution of `kind` for the active player right now?"""
    me = s.active
    goods, ban = s.goods, s.trade_ban
    if kind == "secure":
        return s.pending.get("secure", 0) >= TRADE_BAN_SECURES or bool(goods[me])
    if kind == "donate":
        return bool(goods[me]) and any(not ban[i] for i in range(len(ban)) if i != me)
    if kind == "steal":
        return not ban[me] and any(goods[i] for i in others_open(s))
    if kind == "swap":
        return not ban[me] and bool(goods[me]) and any(goods[i] for i in others_open(s))
    if kind == "relocate":
        others = others_open(s)
        return len(others) >= 2 and any(goods[i] for i in others)
    return False


def any_choice(s) -> bool:
    if s.event == "all_actions_mandatory":
        return True
    banned = s.banned_kind()
    w = s.wilds_available()
    for kind in ACTION_KINDS:
        if kind != banned and s.dice.count(kind) + (0 if kind == "relocate" else w) >= 1:
            return True
    return False


def legal_types(s) -> set[str]:
    """JSON type names of the actions legal now, "roll" and "reroll" included."""
    if s.phase == "reveal":
        return {"reveal"}
    if s.phase == "missions":
        return {"missions"}
    if s.phase == "over":
        return set()
    me = s.active
    out = set()
    if s.dice is None:
        if s.chips_left(me) > 0:
            out.add("chip")
        if s.event == "chips_or_dice":
            out.add("end")  # the chips choice, placed or not
        if not (s.event == "chips_or_dice" and s.turn_chips):
            out.add("roll")
    elif s.chosen is None:
        if s.chips_left(me) > 0 or (s.event == "reroll_once" and not s.free_reroll_used):
            out.add("reroll")
        if s.event == "flip_the_die":
            out.add("flip")
        if s.event == "all_actions_mandatory":
            out.add("assign")
        elif any_choice(s):
            out.add("choose")
        else:
            out.add("end")
    else:
        for kind in s.pending:
            if can(s, kind):
                out.add(kind)
        if not out:
            out.add("end")
    return out


def legal_actions(s) -> list:
    """Every concrete legal action now, except Roll and Reroll (their faces come from the dice)."""
    if s.phase == "reveal":
        return [RevealEvent(c) for c in s.revealable()]
    if s.phase == "missions":
        return _mission_reveals(s)
    if s.phase == "over":
        return []
    types = legal_types(s)
    me = s.active
    out = []
    if "chip" in types:
        for _, colour in s.setup.players:
            if colour != s.colour(me):
                out.extend(PlaceChip(colour, m) for m in sorted(set(s.chips_in_hand[me]), key=MISSIONS.index))
    if "flip" in types:
        for k in range(1, N_DICE + 1):
            out.extend(Flip(c) for c in _index_combinations(k))
    if "choose" in types:
        banned, w = s.banned_kind(), s.wilds_available()
        for kind in ACTION_KINDS:
            if kind == banned:
                continue
            top = 0 if kind == "relocate" else w  # Wilds never Relocate
            for x in range(top + 1):
                if s.executions(kind, x) >= 1:
                    out.append(Choose(kind, x))
    if "assign" in types:
        out.extend(AssignWilds(ks) for ks in combinations_with_replacement(WILD_KINDS, s.dice.count("wild")))
    if "steal" in types:
        if not s.trade_ban[me]:
            for v in others_open(s):
                out.extend(Steal(s.colour(v), g) for g in s.goods[v])
    if "donate" in types:
        for to in range(s.n_players):
            if to != me and not s.trade_ban[to]:
                out.extend(Donate(s.colour(to), g) for g in s.goods[me])
    if "swap" in types:
        if not s.trade_ban[me]:
            for o in others_open(s):
                out.extend(Swap(s.colour(o), give, take) for give in s.goods[me] for take in s.goods[o])
    if "secure" in types:
        mine = s.goods[me]
        if s.pending["secure"] >= TRADE_BAN_SECURES:
            out.append(Secure(tuple(g for g, n in mine.items() for _ in range(n))))
        elif sum(mine.values()) == 1:  # RULING obscurians-actions: 1 good only when it is the last free one
            out.extend(Secure((g,)) for g in mine)
        else:
            out.extend(Secure(pair) for pair in combinations_with_replacement(sorted(mine), 2)
                       if pair[0] != pair[1] or mine[pair[0]] >= 2)
    if "relocate" in types:
        others = others_open(s)
        for src in others:
            for dst in others:
                if dst != src:
                    out.extend(Relocate(s.colour(src), s.colour(dst), g) for g in s.goods[src])
    if "end" in types:
        out.append(EndTurn())
    return out


def _mission_reveals(s) -> list:
    n = s.n_players
    pool = MISSIONS if n == 7 else MISSIONS[:6]
    out = []
    put_back = s.setup.put_back or ()
    for combo in permutations(pool, n):
        if n == 4 and (sum(m in TRIO_A for m in combo) != 2 or sum(m in TRIO_B for m in combo) != 2):
            continue
        if any(m in put_back for m in combo):
            continue
        out.append(RevealMissions(combo))
    return out


def _index_combinations(k: int):
    return combinations(range(N_DICE), k)
