"""Game name → adapter: the few engine entry points the session layer needs, so it stays game-agnostic.

Engines are imported only when a game is first asked for: listing tables or reading a log header must not pay for
(or break on) every engine in the house.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from companion.games.errors import InvalidInput


@dataclass(frozen=True)
class GameAdapter:
    name: str
    setup_from_json: Callable[[dict], Any]     # InvalidInput naming the field
    new_game: Callable[[Any], Any]             # Setup → initial State
    action_from_json: Callable[[dict], Any]    # InvalidInput naming the field
    players: Callable[[Any], list[str]]        # Setup → player names in seat order
    status: Callable[[Any], str]               # State → "round 3", "missions?", "over" …
    is_over: Callable[[Any], bool]             # State → the table belongs in history
    outcome_json: Callable[[Any], dict | None] # State → the score result JSON, None while not over
    describe: Callable[[Any], str]             # State → a few lines for `companion replay`


def _obscurians() -> GameAdapter:
    from companion.games.obscurians.actions import action_from_json
    from companion.games.obscurians.setup import Setup
    from companion.games.obscurians.state import new_game

    def status(state) -> str:
        if state.phase == "over":
            return "over"
        if state.phase == "missions":
            return "missions to reveal"
        return f"round {state.round}"

    def outcome_json(state) -> dict | None:
        result = state.outcome()
        return None if result is None else result.to_json()

    def describe(state) -> str:
        names = [name for name, _ in state.setup.players]
        lines = [f"Obscurians, {len(names)} players, {status(state)}"]
        if state.phase in ("reveal", "turn"):
            lines.append(f"event: {state.event or '-'}; {names[state.active]} to play")
        for i, (name, colour) in enumerate(state.setup.players):
            goods = ", ".join(f"{good} {n}" for good, n in sorted(state.goods[i].items())) or "no goods"
            vault = ", ".join(f"{good} {n}" for good, n in sorted(state.secured[i].items()))
            lines.append(f"  {name} ({colour}): {goods}" + (f"; secured {vault}" if vault else ""))
        result = state.outcome()
        if result is not None:
            lines += ["", result.to_text().rstrip("\n")]  # the same itemised table as `companion score`
        return "\n".join(lines)

    return GameAdapter(
        name="obscurians",
        setup_from_json=Setup.from_json,
        new_game=new_game,
        action_from_json=action_from_json,
        players=lambda setup: [name for name, _ in setup.players],
        status=status,
        is_over=lambda state: state.phase == "over",
        outcome_json=outcome_json,
        describe=describe,
    )


_FACTORIES: dict[str, Callable[[], GameAdapter]] = {"obscurians": _obscurians}
_loaded: dict[str, GameAdapter] = {}


def names() -> list[str]:
    return sorted(_FACTORIES)


def get(name: str) -> GameAdapter:
    """The adapter for `name`; InvalidInput for a game this app does not know."""
    if name not in _FACTORIES:
        raise InvalidInput(f"unknown game {name!r}")
    if name not in _loaded:
        _loaded[name] = _FACTORIES[name]()
    return _loaded[name]
