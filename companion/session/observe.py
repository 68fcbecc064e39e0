"""The observation door: the one way sensor readings reach a table. Sensors propose, the engine judges, people
confirm (docs/architecture.md: table rule 8, "Data flow").

    observation ──▶ ObservationDoor.observe() ──▶ dice bound to a role collect until the throw has settled
                                                   │  settle(): the game maps the faces to a proposed action
                                                   ▼            (Game.dice_action, pure, e.g. 5 pips → Roll)
                          every die sure and the engine accepts ──▶ Table.apply (logged like a tap)
                          a die doubtful / crooked / unreadable,
                          or the engine refuses, or no action fits ──▶ Question (confirm · read again · type it in)

Nothing here changes the game silently: a proposal is applied only when every reading is at least
`min_confidence` sure AND the engine accepts it AND the table was waiting for that throw (the game says so:
`Game.dice_question`); everything else waits as `door.question` until the players answer. A die put back by hand
(DieSetDown) ends the wait for it without a reading: the old face stands.
The door never raises for a reading (a bad device must not stop the table); `Table.apply` errors other than the
engine's refusal (a full disk) propagate to the caller like a tap's would.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from companion.games.errors import N_, IllegalAction, InvalidInput
from firmware_bridge.observations import DiceSettled, DieCrooked, DieRolled, DieRolling, DieSetDown

log = logging.getLogger(__name__)

MIN_CONFIDENCE = 0.9  # below this a reading is shown and asked about, never applied on its own
CONFIRM, READ_AGAIN, TYPE_IN, IGNORE = "confirm", "read_again", "type_in", "ignore"


@dataclass(frozen=True)
class Reading:
    """One die's part of a throw: which die (role, index), what it showed, how sure, from where."""
    die: str
    role: str
    index: int
    face: int | None          # pips; None when the die could not be read (crooked)
    confidence: float
    source: str = ""
    by_hand: bool = False     # set down or turned by hand (DieSetDown), not thrown: the screen says so in its answers


@dataclass(frozen=True)
class Question:
    """A reading the door will not apply on its own. `why` is a template with `params` (English), like the
    engine's refusals; `action` is what the dice seem to say (None when nothing can be proposed); `options` are the
    answers the screen offers."""
    why: str
    params: Mapping[str, Any]
    readings: tuple[Reading, ...]
    action: Any = None
    options: tuple[str, ...] = (CONFIRM, READ_AGAIN, TYPE_IN)
    reroll: tuple[str, ...] = ()   # dice ids the table should roll again (their LEDs flash)
    error: Exception | None = None  # the engine's refusal, for the screen to translate (translate_message)
    choices: tuple = ()             # dice set by hand: the moves they can mean, one picked (answer(TYPE_IN, it))

    @property
    def by_hand(self) -> bool:
        """Every die asked about was set down or turned by hand, none thrown: "ignore this throw" would be wrong."""
        return bool(self.readings) and all(r.by_hand for r in self.readings)

    @property
    def text(self) -> str:
        """In English; a screen translates `why` (a `rules` catalogue msgid) and `error` instead."""
        text = self.why.format(**self.params)
        return f"{text}: {self.error}" if self.error is not None else text


@dataclass
class _Throw:
    rolling: set = field(default_factory=set)            # dice of this role seen moving and not yet at rest
    settled: dict = field(default_factory=dict)          # index -> Reading, since the last settle()


class ObservationDoor:
    """Sensor readings in, applied actions or questions out, for one open table.

    `bindings` maps a die id (as devices name it) to its (role, index), e.g. "F0:…:01" → ("henchmen", 0); the
    game names the roles it reads (`Game.dice_roles`). `on_question(question | None)` and `on_applied(action)` let
    the screen follow; `on_feedback(die_ids)` asks the devices to flash the dice to roll again.
    """

    def __init__(self, table, bindings: Mapping[str, tuple[str, int]], *, min_confidence: float = MIN_CONFIDENCE,
                 on_question: Callable[[Question | None], None] | None = None,
                 on_applied: Callable[[Any], None] | None = None,
                 on_feedback: Callable[[tuple[str, ...]], None] | None = None):
        self.table = table
        self.game = table.adapter
        self.bindings = dict(bindings)
        self.min_confidence = min_confidence
        self.question: Question | None = None
        self.intent: dict | None = None       # what the players said they are about to roll (a reroll's dice, chip)
        self._on_question = on_question or (lambda q: None)
        self._on_applied = on_applied or (lambda a: None)
        self._on_feedback = on_feedback or (lambda dice: None)
        self._throws: dict[str, _Throw] = {}

    # -- readings in ---------------------------------------------------------------------------------------------
    def observe(self, obs) -> None:
        """Take one observation; dice of a bound role are collected until `settle()` (or a DiceSettled)."""
        try:
            if isinstance(obs, DiceSettled):
                for die in obs.dice:
                    self._collect(die)
                self.settle()
            elif isinstance(obs, (DieRolled, DieCrooked)):
                self._collect(obs)
            elif isinstance(obs, DieSetDown):
                bound = self.bindings.get(obs.die)
                if bound is not None and self._placed_by_hand() and obs.face is not None:
                    self._collect(obs)   # a die standing for a piece: its face set by hand is the reading
                elif bound is not None:  # picked up and put back unthrown: not part of the throw, stop waiting for it
                    self._throws.setdefault(bound[0], _Throw()).rolling.discard(obs.die)
            elif isinstance(obs, DieRolling):
                bound = self.bindings.get(obs.die)
                if bound is not None:
                    throw = self._throws.setdefault(bound[0], _Throw())
                    throw.rolling.add(obs.die)
                    throw.settled.pop(bound[1], None)  # a die picked up again will report a new face
        except Exception:  # a reading must never take the table down; it is logged and dropped
            log.exception("observation %r dropped", obs)

    def busy(self, role: str | None = None) -> bool:
        """Some bound die is still rolling (the screen waits; settle() would be early)."""
        throws = self._throws.values() if role is None else [self._throws.get(role, _Throw())]
        return any(t.rolling for t in throws)

    def stop_waiting(self) -> None:
        """Stop waiting for dice that said they were rolling and then nothing: the throw is what the others show."""
        for throw in self._throws.values():
            throw.rolling.clear()

    def settle(self) -> Any:
        """The throw is over (no die rolling, or a dice tower's tray reported): propose what the dice say.

        Returns the action applied, or None (nothing to do, or a question is now waiting)."""
        for role, throw in list(self._throws.items()):
            if throw.rolling or not throw.settled:
                continue
            readings = tuple(throw.settled[i] for i in sorted(throw.settled))
            crooked = [r for r in readings if r.face is None]
            if crooked:
                # Keep the dice that were read; only the crooked ones are rolled again, then the throw is whole.
                for r in crooked:
                    del throw.settled[r.index]
                return self._crooked(readings, crooked)
            throw.settled.clear()
            return self._propose(role, readings)
        return None

    # -- the players' answer -------------------------------------------------------------------------------------
    def answer(self, choice: str, action: Any = None) -> Any:
        """Answer the waiting question: CONFIRM applies what the dice said, READ_AGAIN drops the readings (roll or
        place the dice again), TYPE_IN applies `action` as the players entered it (without one:
        the readings are dropped and the players enter the move on the screen as they would without dice), IGNORE
        drops the readings (it was no throw for the game). The engine still judges:
        IllegalAction propagates for a typed-in action it refuses (the question stays)."""
        q = self.question
        if q is None:
            raise IllegalAction.of("There is no question about the dice to answer")
        if choice == IGNORE:
            self._throws.clear()
            self._ask(None)
            return None
        if choice == READ_AGAIN:
            if not q.reroll:  # a crooked die keeps its partners' readings; any other doubt reads the throw anew
                self._throws.clear()
            self._ask(None)
            return None
        if choice == CONFIRM:
            if q.action is None:
                raise IllegalAction.of("The dice gave no move to confirm: read them again or type it in")
            return self._apply(q.action)
        if choice == TYPE_IN:
            if action is None:  # the players enter the move on the screen themselves: these readings are done with
                self._throws.clear()
                self._ask(None)
                return None
            return self._apply(action)
        raise ValueError(f"unknown answer {choice!r}")

    def expect(self, intent: dict | None) -> None:
        """The players announced their next throw (e.g. {"reroll": [1, 3], "discard": "keep"}); None clears it."""
        self.intent = intent

    # -- internals -----------------------------------------------------------------------------------------------
    def _collect(self, obs) -> None:
        bound = self.bindings.get(obs.die)
        if bound is None:
            return  # a die nobody bound (a spare on the table): not part of this game
        role, index = bound
        throw = self._throws.setdefault(role, _Throw())
        throw.rolling.discard(obs.die)
        face = obs.face if isinstance(obs, (DieRolled, DieSetDown)) else None
        confidence = obs.confidence if isinstance(obs, DieRolled) else 1.0 if isinstance(obs, DieSetDown) else 0.0
        throw.settled[index] = Reading(obs.die, role, index, face, confidence, obs.source,
                                       by_hand=isinstance(obs, DieSetDown))

    def _crooked(self, readings, crooked) -> None:
        dice = tuple(r.die for r in crooked)
        self._on_feedback(dice)
        why = (N_("Die {numbers} landed crooked: roll it again") if len(crooked) == 1
               else N_("Dice {numbers} landed crooked: roll them again"))
        return self._ask(Question(why, {"numbers": _numbers(crooked)}, readings, options=(READ_AGAIN, TYPE_IN),
                                  reroll=dice))

    def _placed_by_hand(self) -> bool:
        has = getattr(self.game, "has", None)
        return bool(has is not None and has("dice_placed_at_table"))

    def _placed(self, role: str, readings: tuple[Reading, ...]) -> Any:
        """Dice standing for pieces (Game.dice_placed_at_table): what their faces can mean, always asked — the
        players pick the move (who, what they paid) or ignore it; a face put back as it stood withdraws the question."""
        state = self.table.state
        try:
            found = self.game.dice_placed_at_table(state, role, {r.index: r.face for r in readings}, self.intent)
        except (IllegalAction, InvalidInput) as err:
            return self._ask(Question(N_("The dice cannot be used now"), {}, readings, options=(IGNORE,), error=err))
        if found is None:
            if self.question is not None and any(r.role == role for r in self.question.readings):
                self._ask(None)
            return None
        why, actions = found
        return self._ask(Question(why.template, dict(why.params), readings, options=(IGNORE,),
                                  choices=tuple(actions)))

    def _propose(self, role: str, readings: tuple[Reading, ...]) -> Any:
        if self._placed_by_hand():
            return self._placed(role, readings)
        try:
            action = self.game.dice_action(self.table.state, role, {r.index: r.face for r in readings}, self.intent)
        except (IllegalAction, InvalidInput) as err:
            return self._ask(Question(N_("The dice cannot be used now"), {}, readings, options=(READ_AGAIN, TYPE_IN),
                                      error=err))
        if action is None:
            return self._ask(Question(N_("The dice show no move the game expects now"), {}, readings,
                                      options=(IGNORE, TYPE_IN)))
        state = self.table.state
        try:
            state.apply(action)  # the engine's verdict before anything is written
        except IllegalAction as err:
            return self._ask(Question(N_("The dice say: {move}. The rules do not allow it now"),
                                      {"move": self._words(state, action)}, readings, options=(READ_AGAIN, TYPE_IN),
                                      error=err))
        doubtful = [r for r in readings if r.confidence < self.min_confidence]
        if doubtful:
            why = (N_("Is this right? Die {numbers} may have been misread: {move}") if len(doubtful) == 1
                   else N_("Is this right? Dice {numbers} may have been misread: {move}"))
            return self._ask(Question(why, {"numbers": _numbers(doubtful), "move": self._words(state, action)},
                                      readings, action=action))
        unasked = self.game.dice_question(state, role, action, self.intent)
        if unasked is not None:  # a throw the table was not waiting for: asked about, never booked on its own
            return self._ask(Question(unasked.template, dict(unasked.params), readings, action=action,
                                      options=(CONFIRM, IGNORE)))
        return self._apply(action)

    def _words(self, state, action):
        """The proposed move in the players' words (the game's message), or its notation when the game has none."""
        words = self.game.dice_words(state, action)
        return words if words is not None else action.to_text()

    def _apply(self, action) -> Any:
        self.table.apply(action)  # IllegalAction leaves the question in place for the players
        self.intent = None
        self._ask(None)
        self._on_applied(action)
        return action

    def _ask(self, question: Question | None) -> None:
        self.question = question
        self._on_question(question)
        return None


def _numbers(readings) -> str:
    """"2" / "1, 4": dice numbered from 1, as players count them."""
    return ", ".join(str(r.index + 1) for r in readings)
