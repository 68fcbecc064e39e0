"""Which die is whose: a die's place at the table (`Binding`: a role and an index) and the table of them
(`BindingTable`: die id ↔ place, one die a place), JSON for the app to persist. The device manager keeps one; the app's
devices service saves it in the data folder."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterator


@dataclass(frozen=True)
class Binding:
    """A die's place at the table: a role and an index — ("player", "red"), ("henchmen", 2), ("obelisk", "NE")."""
    role: str
    index: int | str = 0

    def __post_init__(self) -> None:
        if not isinstance(self.role, str) or not self.role.strip():
            raise ValueError("binding.role: a non-empty string is needed")
        if isinstance(self.index, bool) or not isinstance(self.index, (int, str)):
            raise ValueError(f"binding.index: an integer or a string is needed, not {self.index!r}")


class BindingTable:
    """Which die is which: die id (a BLE address) ↔ Binding. A die holds one place, a place one die: binding a die to
    a taken place moves the place to it. `to_json()` / `from_json()` round-trip for the app to persist."""

    VERSION = 1

    def __init__(self, bindings: dict[str, Binding] | None = None):
        self._by_die: dict[str, Binding] = {}
        for die, binding in (bindings or {}).items():
            self.bind(die, binding.role, binding.index)

    def bind(self, die: str, role: str, index: int | str = 0) -> Binding:
        binding = Binding(role, index)
        if not isinstance(die, str) or not die:
            raise ValueError("binding.die: a die id is needed")
        for other, b in list(self._by_die.items()):
            if b == binding and other != die:
                del self._by_die[other]
        self._by_die[die] = binding
        return binding

    def unbind(self, die: str) -> Binding | None:
        return self._by_die.pop(die, None)

    def clear(self, role: str | None = None) -> None:
        for die, b in list(self._by_die.items()):
            if role is None or b.role == role:
                del self._by_die[die]

    def binding(self, die: str) -> Binding | None:
        return self._by_die.get(die)

    def die_for(self, role: str, index: int | str = 0) -> str | None:
        wanted = Binding(role, index)
        return next((die for die, b in self._by_die.items() if b == wanted), None)

    def role(self, role: str) -> dict[int | str, str]:
        """index → die for one role (the five henchmen dice: {0: …, 1: …})."""
        return {b.index: die for die, b in self._by_die.items() if b.role == role}

    def __iter__(self) -> Iterator[tuple[str, Binding]]:
        return iter(sorted(self._by_die.items(), key=lambda kv: (kv[1].role, str(kv[1].index), kv[0])))

    def __len__(self) -> int:
        return len(self._by_die)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BindingTable) and self._by_die == other._by_die

    def to_json(self) -> dict:
        return {"version": self.VERSION,
                "bindings": [{"die": die, "role": b.role, "index": b.index} for die, b in self]}

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, sort_keys=True)

    @classmethod
    def from_json(cls, data: Any) -> "BindingTable":
        """The table a to_json() dict describes; ValueError with one line naming the problem otherwise."""
        if not isinstance(data, dict):
            raise ValueError("bindings: expected an object")
        if data.get("version", cls.VERSION) != cls.VERSION:
            raise ValueError(f"bindings.version: {data.get('version')!r} is not {cls.VERSION}")
        items = data.get("bindings", [])
        if not isinstance(items, list):
            raise ValueError("bindings.bindings: expected a list")
        table = cls()
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                raise ValueError(f"bindings[{i}]: expected an object")
            unknown = set(item) - {"die", "role", "index"}
            if unknown:
                raise ValueError(f"bindings[{i}].{sorted(unknown)[0]}: unknown field")
            try:
                table.bind(item.get("die"), item.get("role"), item.get("index", 0))
            except ValueError as err:
                raise ValueError(f"bindings[{i}]: {err}") from None
        return table

    @classmethod
    def loads(cls, text: str) -> "BindingTable":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise ValueError(f"bindings: not JSON ({err.msg} at line {err.lineno})") from None
        return cls.from_json(data)
