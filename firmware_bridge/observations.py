"""What sensors report, as small frozen values: the one vocabulary of firmware_bridge, vision and the session.

A die reports the face it shows (pips, 1-6 for a D6), never what that face means in a game: the game's mapper in the
session does that (RULING obscurians-dice maps pips to henchmen faces). `source` names the device (its URL or
address); `at` is the host's monotonic clock in seconds when the reading arrived (0.0 when unknown), used to
measure latency, never to order game moves.

Every observation has `to_json()` (a dict with a "type") and `observation_from_json(d)`, the form
`python -m firmware_bridge monitor` prints.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Union

DIRECTIONS = ("N", "E", "S", "W")
CONNECTION_STATES = ("connecting", "connected", "lost", "reconnecting", "held_elsewhere", "failed", "closed")
GRID_CELLS = 25  # the Obelisk map: 5 x 5, cell = row * 5 + column, row 0 at the top


@dataclass(frozen=True)
class DieRolling:
    """A die started moving (picked up, thrown)."""
    die: str
    source: str = ""
    at: float = 0.0
    TYPE = "die_rolling"


@dataclass(frozen=True)
class DieRolled:
    """A die came to rest showing `face`. `confidence` 0-1 (1.0: the die itself says so). `roll` counts the die's
    rolls where the device numbers them (Pixels, the Table Bus), so a roll resent after a reconnect is recognised."""
    die: str
    face: int
    confidence: float = 1.0
    source: str = ""
    roll: int | None = None
    at: float = 0.0
    TYPE = "die_rolled"


@dataclass(frozen=True)
class DieCrooked:
    """A die landed tilted (on an edge, against a wall): no face can be read; the table should roll it again."""
    die: str
    source: str = ""
    at: float = 0.0
    TYPE = "die_crooked"


@dataclass(frozen=True)
class DiceSettled:
    """Several dice read together (a dice tower's tray, a photo): each a DieRolled."""
    dice: tuple[DieRolled, ...]
    source: str = ""
    at: float = 0.0
    TYPE = "dice_settled"


@dataclass(frozen=True)
class TileRead:
    """One map cell: `tile` is the tile id (0: empty), `direction` its arrow (N/E/S/W)."""
    cell: int
    tile: int
    direction: str = "N"
    confidence: float = 1.0
    source: str = ""
    at: float = 0.0
    TYPE = "tile_read"


@dataclass(frozen=True)
class TileGrid:
    """The whole map at once (a board's full dump): 25 cells in cell order."""
    cells: tuple[TileRead, ...]
    source: str = ""
    at: float = 0.0
    TYPE = "tile_grid"


@dataclass(frozen=True)
class ButtonPressed:
    device: str
    button: int = 0
    source: str = ""
    at: float = 0.0
    TYPE = "button"


@dataclass(frozen=True)
class StandFlipped:
    """The hourglass stand was turned over; `upright` is the side now up (True: the side marked A)."""
    device: str
    upright: bool = True
    source: str = ""
    at: float = 0.0
    TYPE = "stand_flipped"


@dataclass(frozen=True)
class BatteryLevel:
    device: str
    percent: int
    charging: bool = False
    source: str = ""
    at: float = 0.0
    TYPE = "battery"


@dataclass(frozen=True)
class SignalStrength:
    device: str
    rssi: int  # dBm
    source: str = ""
    at: float = 0.0
    TYPE = "signal"


@dataclass(frozen=True)
class ConnectionChanged:
    """`state` is one of CONNECTION_STATES; `detail` a sentence for players ("held by another app")."""
    device: str
    state: str
    detail: str = ""
    source: str = ""
    at: float = 0.0
    TYPE = "connection"


@dataclass(frozen=True)
class GoodsCounted:
    """Vision: `n` goods of `colour` seen in `zone` (a player's area)."""
    zone: str
    colour: str
    n: int
    confidence: float = 1.0
    source: str = ""
    at: float = 0.0
    TYPE = "goods_counted"


Observation = Union[DieRolling, DieRolled, DieCrooked, DiceSettled, TileRead, TileGrid, ButtonPressed, StandFlipped,
                    BatteryLevel, SignalStrength, ConnectionChanged, GoodsCounted]
OBSERVATION_TYPES = (DieRolling, DieRolled, DieCrooked, DiceSettled, TileRead, TileGrid, ButtonPressed, StandFlipped,
                     BatteryLevel, SignalStrength, ConnectionChanged, GoodsCounted)
BY_TYPE = {cls.TYPE: cls for cls in OBSERVATION_TYPES}
_NESTED = {DiceSettled: ("dice", DieRolled), TileGrid: ("cells", TileRead)}


def to_json(obs: Observation) -> dict:
    d = asdict(obs)
    nested = _NESTED.get(type(obs))
    if nested is not None:
        d[nested[0]] = list(d[nested[0]])
    return {"type": obs.TYPE, **d}


def observation_from_json(d: Any) -> Observation:
    """The observation a dict describes; ValueError with one line naming the field when it is not one."""
    if not isinstance(d, dict):
        raise ValueError("observation: expected an object")
    cls = BY_TYPE.get(d.get("type")) if isinstance(d.get("type"), str) else None
    if cls is None:
        raise ValueError(f"type: {d.get('type')!r} is not an observation")
    names = {f.name for f in fields(cls)}
    unknown = set(d) - names - {"type"}
    if unknown:
        raise ValueError(f"{cls.TYPE}.{sorted(unknown)[0]}: unknown field")
    values = {k: v for k, v in d.items() if k != "type"}
    nested = _NESTED.get(cls)
    if nested is not None and nested[0] in values:
        name, inner = nested
        items = values[name]
        if not isinstance(items, list):
            raise ValueError(f"{cls.TYPE}.{name}: expected a list")
        values[name] = tuple(observation_from_json({"type": inner.TYPE, **x} if isinstance(x, dict) else x)
                             for x in items)
    try:
        return cls(**values)
    except TypeError as err:
        raise ValueError(f"{cls.TYPE}: {err}") from None


for _cls in OBSERVATION_TYPES:
    _cls.to_json = to_json
del _cls


def _join(cls: type) -> type:
    """An observation type added after the first ones joins the registry (the tuples above stay as they are for
    readers of the union)."""
    global OBSERVATION_TYPES
    OBSERVATION_TYPES = OBSERVATION_TYPES + (cls,)
    BY_TYPE[cls.TYPE] = cls
    cls.to_json = to_json
    return cls


@_join
@dataclass(frozen=True)
class DeviceFault:
    """The device reports a fault of its own while staying connected (a sensor that does not answer, a full
    receive buffer): `code` is the device protocol's number for it, `detail` a sentence for players."""
    device: str
    code: int
    detail: str = ""
    source: str = ""
    at: float = 0.0
    TYPE = "device_fault"



@_join
@dataclass(frozen=True)
class DieIdentified:
    """A die said what it is, on connecting: `kind` its make (godice, pixels), `model` its shell or die type (d6,
    d20 …), `colour` its body or dot colour as the maker names it ("red", "onyxBlack"), `name` what it advertises,
    `firmware` the date its firmware was built (YYYY-MM-DD; "" when the die does not say)."""
    die: str
    kind: str
    model: str = ""
    colour: str = ""
    name: str = ""
    source: str = ""
    at: float = 0.0
    firmware: str = ""
    TYPE = "die_identified"



@_join
@dataclass(frozen=True)
class DieSetDown:
    """A die that was picked up (or turned by hand) is at rest again on `face` without having been thrown: no roll.
    A throw waiting for this die ends with it (the old face stands). Pixels: RollState onFace after handling;
    GoDice: "MS", move-stable."""
    die: str
    face: int
    source: str = ""
    at: float = 0.0
    TYPE = "die_set_down"

