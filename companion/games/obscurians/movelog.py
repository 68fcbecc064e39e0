"""The move log: what a move did, in the players' words: (state before, action, state after) -> a Message.

The move log and the Undo/Redo buttons show one line per effective action ("Anna stole 1 blue good from Ben"), so
the group can check the tablet against the table at a glance. Like a refusal (errors.IllegalAction.of), a line is
an English template of the `rules` catalogue plus its params: players' names as plain strings, numbers, game words
as Terms, and Terms for a list (the dice). A translation swaps the template and each word
(companion/i18n), never parsing the English text.

Only what the table sees is told: a chip discarded face down stays "a chip".
"""
from __future__ import annotations

from companion.games.errors import N_, Message, Term, Terms
from companion.games.obscurians.actions import (
    AssignWilds, Choose, Donate, EndTurn, Flip, PlaceChip, Relocate, Reroll, RevealEvent, RevealMissions, Roll,
    Secure, Steal, Swap,
)
from companion.games.obscurians.constants import ARTIFACT, FACE_DOWN, FACES, LAMP, SANDSTORM


def good_term(good: str) -> Term:
    return Term("good", good, {LAMP: "magic lamp", ARTIFACT: "cursed artifact"}.get(good, f"{good} good"))


def face_term(face: str) -> Term:
    return Term("action", face, face.capitalize())


def _faces(faces) -> Terms:
    # In the face order of the dice pad (Steal, Donate, ...): the same roll always reads the same.
    return Terms(face_term(f) for f in sorted(faces, key=FACES.index))


def _card(card: str) -> Term:
    return Term("event", card, card)


def _mission(mission: str) -> Term:
    return Term("mission", mission, mission.capitalize())


def _kind(kind: str) -> Term:
    return Term("action", kind, kind.capitalize())


def move_line(before, action, after) -> Message:
    """The log line of `action`, played in state `before` and leading to state `after`."""
    name = before.name(before.active)
    by_colour = {colour: n for n, colour in before.setup.players}

    def line(template: str, **params) -> Message:
        return Message(template, {"name": name, **params})

    if isinstance(action, RevealEvent):
        if action.card == SANDSTORM:
            return line(N_("{name} revealed {card}: the game is over"), card=_card(action.card))
        if action.card == "cursed_artifact":
            return line(N_("{name} revealed {card} and takes the cursed artifact"), card=_card(action.card))
        return line(N_("{name} revealed {card}"), card=_card(action.card))
    if isinstance(action, PlaceChip):
        return line(N_("{name} placed a {mission} chip on {target}"), mission=_mission(action.mission),
                    target=by_colour[action.on])
    if isinstance(action, Roll):
        return line(N_("{name} rolled {faces}"), faces=_faces(action.faces))
    if isinstance(action, Reroll):
        faces = _faces(after.dice)
        if action.discard is None:
            return line(N_("{name} rerolled for free: {faces}"), faces=faces)
        if action.discard == FACE_DOWN:
            return line(N_("{name} discarded a chip face down and rerolled: {faces}"), faces=faces)
        return line(N_("{name} discarded the {mission} chip and rerolled: {faces}"),
                    mission=_mission(action.discard), faces=faces)
    if isinstance(action, Flip):
        return line(N_("{name} flipped dice: {faces}"), faces=_faces(after.dice))
    if isinstance(action, Choose):
        n = after.pending.get(action.action, 0)
        if not action.wilds:
            return line(N_("{name} chose {kind} × {n}"), kind=_kind(action.action), n=n)
        template = (N_("{name} chose {kind} × {n}, using {w} Wild") if action.wilds == 1
                    else N_("{name} chose {kind} × {n}, using {w} Wilds"))
        return line(template, kind=_kind(action.action), n=n, w=action.wilds)
    if isinstance(action, AssignWilds):
        kinds = [f for f in before.dice if f != "wild"] + list(action.kinds)
        return line(N_("{name} carries out every die: {faces}"), faces=_faces(kinds))
    if isinstance(action, Steal):
        return line(N_("{name} stole 1 {good} from {victim}"), good=good_term(action.good),
                    victim=by_colour[action.victim])
    if isinstance(action, Donate):
        return line(N_("{name} gave 1 {good} to {to}"), good=good_term(action.good), to=by_colour[action.to])
    if isinstance(action, Swap):
        return line(N_("{name} swapped with {other}: gave 1 {give}, took 1 {take}"), other=by_colour[action.other],
                    give=good_term(action.give), take=good_term(action.take))
    if isinstance(action, Secure):
        if after.trade_ban[before.active]:
            return line(N_("{name} secured all their goods: trade ban until their next turn"))
        if len(action.goods) == 1:
            return line(N_("{name} put 1 {a} in the vault"), a=good_term(action.goods[0]))
        return line(N_("{name} put 1 {a} and 1 {b} in the vault"), a=good_term(action.goods[0]),
                    b=good_term(action.goods[1]))
    if isinstance(action, Relocate):
        return line(N_("{name} moved 1 {good} from {source} to {target}"), good=good_term(action.good),
                    source=by_colour[action.source], target=by_colour[action.target])
    if isinstance(action, EndTurn):
        if after.phase == "reveal":
            return line(N_("{name} ended round {round}; {starter} has the lamp and starts the next round"),
                        round=before.round, starter=after.name(after.start_player))
        return line(N_("{name} passed the dice to {next}"), next=after.name(after.active))
    if isinstance(action, RevealMissions):
        return Message(N_("The missions were revealed and the game was scored"), {})
    raise TypeError(f"not an Obscurians action: {action!r}")


def move_lines(initial, actions) -> list[Message]:
    """The log of a whole game: one line per action, replayed from `initial`."""
    out, state = [], initial
    for action in actions:
        after = state.apply(action)
        out.append(move_line(state, action, after))
        state = after
    return out
