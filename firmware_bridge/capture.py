"""Captures of what one die sent, and their replay: a group with a misbehaving die sends us a capture, we read it
exactly as the app read the die.

Capture format (JSON lines, written by `python -m firmware_bridge monitor URL --capture FILE`):

    {"kind": "pixels"|"godice", "name": "Pixel 7", "advertisement": {"manufacturer_data": {"3385": "0a43010957"},
     "service_data": {"a6b90001-…": "d4c3b2a1c0b25465"}}}          (the advertisement may be {})
    {"t": 0.012, "hex": "020f04…"}                                  one line per notification, seconds since the link
                                                                    came up

Replay (`python -m firmware_bridge replay CAPTURE.jsonl --json`) prints one JSON object per line: first
{"device": {"model": "d10", "colourway": "midnightGalaxy"|null, "firmware": "2023-11-15"|null, "battery": 87|null}}
once the die has identified itself; then, per observation as the session receives it (after the device manager's
roll filter: a standing state re-sent is not a roll), {"rolling": true}, {"rolled": face, "confidence": c},
{"crooked": true}, {"battery": percent, "charging": bool}, {"set_down": face} (a die put back unrolled). The reading is
the app's own: pixels_reader / godice_reader, the RollFilter of rolls.py.

Bad input (not JSON, a missing field, hex that is not hex, a huge file) is a CaptureError with the line number.
"""
from __future__ import annotations

import json
from typing import IO, Iterator

from firmware_bridge.observations import (BatteryLevel, DieCrooked, DieIdentified, DieRolled, DieRolling,
                                          DieSetDown)

KINDS = ("pixels", "godice")
MAX_LINE = 1 << 16           # a notification is at most an MTU's worth: a longer line is not a capture
MAX_LINES = 1_000_000
PIXELS_COMPANY_ID = 0x0D39


class CaptureError(ValueError):
    """One line saying where a capture is wrong."""


# --- writing -------------------------------------------------------------------------------------------------------


def capturable(device):
    """The single-die BLE device whose notifications a capture records (None when the URL is not one die)."""
    from firmware_bridge.ble.base import BleDie
    from firmware_bridge.sim import SimDice

    if isinstance(device, BleDie) and device.kind in KINDS and hasattr(device, "_on_notification"):
        return device
    if isinstance(device, SimDice) and device.count == 1:
        return device
    return None


class CaptureWriter:
    """Writes a capture as the die talks: notifications are held until the die is open (its name and advertisement
    are known), then the header and every line follow as they come."""

    def __init__(self, path: str, device):
        self.file = open(path, "w", encoding="utf-8")  # noqa: SIM115 — closed by close()
        self.device = device
        self.kind = getattr(device, "kind", "")
        self._held: list[tuple[float, bytes]] | None = []
        device.capture = self._record

    def _record(self, t: float, data: bytes) -> None:
        if self._held is not None:
            self._held.append((t, data))
        else:
            self._line(t, data)

    def _line(self, t: float, data: bytes) -> None:
        self.file.write(json.dumps({"t": round(t, 4), "hex": data.hex()}) + "\n")
        self.file.flush()

    def opened(self) -> None:
        target = self.device
        from firmware_bridge.sim import SimDice

        if isinstance(target, SimDice):
            target = next(iter(target.devices.values()), target)
        header = {"kind": getattr(target, "kind", self.kind), "name": getattr(target, "name", ""),
                  "advertisement": getattr(target, "advertisement", {}) or {}}
        self.file.write(json.dumps(header) + "\n")
        held, self._held = self._held or [], None
        for t, data in held:
            self._line(t, data)

    def close(self) -> None:
        if self._held is not None:  # never opened: still say what it was
            self.opened()
        self.file.close()


# --- reading -------------------------------------------------------------------------------------------------------


def json_lines(stream: IO[bytes], error: type[Exception], max_line: int,
               max_lines: int | None = None) -> Iterator[tuple[int, object]]:
    """(line number, value) of each JSON line of a byte stream, blank lines skipped; `error` (one line naming the line)
    for a line longer than `max_line` bytes, one that is not UTF-8 or not JSON, or more than `max_lines` lines. Used
    by `replay` and by the CLI's `encode` (stdin)."""
    for number, raw in enumerate(stream, 1):
        if max_lines is not None and number > max_lines:
            raise error(f"more than {max_lines} lines: not one die's capture")
        if len(raw) > max_line:
            raise error(f"line {number}: longer than {max_line} bytes")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise error(f"line {number}: not UTF-8 text") from None
        if not text.strip():
            continue
        try:
            yield number, json.loads(text)
        except RecursionError:
            raise error(f"line {number}: JSON nested too deeply") from None
        except ValueError as err:
            raise error(f"line {number}: not JSON ({err})") from None


def _hex(value, where: str) -> bytes:
    if not isinstance(value, str):
        raise CaptureError(f"{where}: expected a hex string")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise CaptureError(f"{where}: {value[:20]!r} is not hexadecimal") from None


def _header(number: int, head) -> tuple[str, str, dict[int, bytes], dict[str, bytes]]:
    if not isinstance(head, dict):
        raise CaptureError(f"line {number}: the first line describes the die: an object with kind, name, "
                           f"advertisement")
    unknown = set(head) - {"kind", "name", "advertisement"}
    if unknown:
        raise CaptureError(f"line {number}: {sorted(unknown)[0]}: unknown field")
    kind = head.get("kind")
    if kind not in KINDS:
        raise CaptureError(f"line {number}: kind: {kind!r}; a capture is of pixels or godice")
    name = head.get("name", "")
    if not isinstance(name, str):
        raise CaptureError(f"line {number}: name: expected a string")
    adv = head.get("advertisement", {}) or {}
    if not isinstance(adv, dict) or set(adv) - {"manufacturer_data", "service_data"}:
        raise CaptureError(f"line {number}: advertisement: expected {{manufacturer_data, service_data}}")
    tables = {}
    for field in ("manufacturer_data", "service_data"):
        table = adv.get(field) or {}
        if not isinstance(table, dict):
            raise CaptureError(f"line {number}: advertisement.{field}: expected an object")
        tables[field] = {key: _hex(value, f"line {number}: {field}[{key}]") for key, value in table.items()}
    manufacturer: dict[int, bytes] = {}
    for key, value in tables["manufacturer_data"].items():
        try:
            manufacturer[int(key, 0)] = value      # "3385" or "0x0D39"
        except ValueError:
            raise CaptureError(f"line {number}: manufacturer_data: {key!r} is not a company id") from None
    return kind, name, manufacturer, tables["service_data"]


def replay(stream: IO[bytes], *, shell: str = "d6", die_type: str | None = None) -> Iterator[dict]:
    """The lines `replay --json` prints for a capture (see the module's docstring)."""
    from firmware_bridge.ble import pixels_protocol as pp
    from firmware_bridge.ble.godice_reader import GoDiceReader
    from firmware_bridge.ble.pixels_reader import PixelsReader
    from firmware_bridge.rolls import RollFilter

    lines = json_lines(stream, CaptureError, MAX_LINE, MAX_LINES)
    first = next(lines, None)
    if first is None:
        raise CaptureError("empty: no line describes the die")
    kind, name, manufacturer, service = _header(*first)
    die = "captured"
    if kind == "godice":
        try:
            reader = GoDiceReader(die, "capture", shell, name)
        except ValueError as err:
            raise CaptureError(f"--shell: {err}") from None
    else:
        if die_type is not None and die_type not in pp.DIE_TYPE_CODES:
            raise CaptureError(f"--die: {die_type!r}; Pixels dice: {', '.join(pp.DIE_TYPE_CODES)}")
        reader = PixelsReader(die, "capture", die_type, name)
        if PIXELS_COMPANY_ID in manufacturer:  # the firmware's date and type, before it says more
            reader.learn(manufacturer[PIXELS_COMPANY_ID], next((v for v in service.values() if len(v) >= 8), None))
    rolls = RollFilter()
    rolls.connected([die])
    identified = False
    battery: tuple[int, bool] | None = None
    live = False
    for number, item in lines:
        if not isinstance(item, dict) or set(item) - {"t", "hex"} or "hex" not in item:
            raise CaptureError(f"line {number}: expected {{\"t\": seconds, \"hex\": \"…\"}}")
        t = item.get("t", 0.0)
        if isinstance(t, bool) or not isinstance(t, (int, float)):
            raise CaptureError(f"line {number}: t: expected seconds")
        data = _hex(item["hex"], f"line {number}: hex")
        if kind == "pixels":
            observations = reader.message(data, float(t), live=not live)
            live = live or data[:1] == bytes([pp.ROLL_STATE])
        else:
            observations = reader.message(data, float(t))
        for obs in observations:
            if isinstance(obs, DieIdentified):
                if not identified:
                    identified = True
                    battery = reader.battery if kind == "pixels" else (
                        (reader.battery, reader.charging) if reader.battery is not None else None)
                    yield {"device": {"model": obs.model or None, "colourway": obs.colour or None,
                                      "firmware": obs.firmware or None,
                                      "battery": battery[0] if battery else None}}
                continue
            if isinstance(obs, BatteryLevel):
                if battery == (obs.percent, obs.charging):
                    continue  # as the manager: a battery is passed on when it changes
                battery = (obs.percent, obs.charging)
            if not rolls.accept(obs):
                continue
            line = _line(obs)
            if line is not None:
                yield line


def _line(obs) -> dict | None:
    if isinstance(obs, DieRolling):
        return {"rolling": True}
    if isinstance(obs, DieRolled):
        return {"rolled": obs.face, "confidence": obs.confidence}
    if isinstance(obs, DieCrooked):
        return {"crooked": True}
    if isinstance(obs, BatteryLevel):
        return {"battery": obs.percent, "charging": obs.charging}
    if isinstance(obs, DieSetDown):
        return {"set_down": obs.face}
    return None

