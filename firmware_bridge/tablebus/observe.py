"""Table Bus messages -> observations (firmware_bridge/observations.py). Pure; link-level messages map to nothing.

Protocol messages are what the wire says; observations are what the rest of the app understands. This is the only
place that knows both.
"""
from __future__ import annotations

from firmware_bridge import observations as obs
from firmware_bridge.tablebus import messages as m


def die_name(device: str, index: int) -> str:
    """The die at place `index` of a tower's tray: "<device>/die<index>"."""
    return f"{device}/die{index}"


def to_observations(msg: m.Message, device: str, source: str = "", at: float = 0.0) -> list:
    """The observations one message carries (none for Hello, Heartbeat, Ack, Nack, host messages and Raw)."""
    t = type(msg)
    if t is m.Flip:
        return [obs.StandFlipped(device, msg.upright, source, at)]
    if t is m.Button:
        return [obs.ButtonPressed(device, msg.button, source, at)]
    if t is m.Tile:
        return [obs.TileRead(msg.cell, msg.tile, msg.direction, 1.0, source, at)]
    if t is m.Grid:
        return [obs.TileGrid(tuple(obs.TileRead(i, c.tile, c.direction, 1.0, source, at)
                                   for i, c in enumerate(msg.cells)), source, at)]
    if t is m.Dice:
        out: list = []
        read = []
        for d in msg.dice:
            if d.face == 0:   # the tower saw a die but no face (cocked against the wall): roll it again
                out.append(obs.DieCrooked(die_name(device, d.die), source, at))
            else:
                read.append(obs.DieRolled(die_name(device, d.die), d.face, d.confidence / 100, source, msg.roll, at))
        return [obs.DiceSettled(tuple(read), source, at)] + out
    if t is m.Battery:
        return [obs.BatteryLevel(device, msg.percent, msg.charging, source, at)]
    if t is m.Error:
        return [obs.DeviceFault(device, msg.code, board_error_text(msg), source, at)]
    return []


def board_error_text(msg: m.Error) -> str:
    what = m.ERROR_CODES.get(msg.code, f"error {msg.code}")
    return f"board reports {what}" + (f": {msg.text}" if msg.text else "")
