"""What a GoDice's messages mean, as observations: pure, shared by the connected device and `replay`.

    reader = GoDiceReader("F0:…:01", source="ble://…?kind=godice&shell=d20", shell="d20")
    reader.message(notification_bytes, at)        -> [DieRolling], [DieRolled], …

  "R" (roll started, whatever follows)   → DieRolling
  "S" x y z                              → DieRolled(face of the shell, confidence from how squarely it lies)
  "FS" (fake stable)                     → DieRolled, confidence × 0.6
  "TS" (tilt stable)                     → DieCrooked (ask for a re-roll)
  "MS" (move stable: turned by hand)     → DieSetDown(face): no throw; a wait for this die ends
  "Bat" / "Char"                         → BatteryLevel
  "Col"                                  → DieIdentified(shell, dot colour)
  "Tap" / "DTap"                         → nothing (counted in `taps`)
"""
from __future__ import annotations

from firmware_bridge.ble import godice_protocol as gp
from firmware_bridge.observations import (BatteryLevel, DieCrooked, DieIdentified, DieRolled, DieRolling,
                                          DieSetDown, Observation)


class GoDiceReader:
    def __init__(self, die: str, source: str = "", shell: str = "d6", name: str = ""):
        self.die, self.source, self.name = die, source, name
        self.shell = gp.shell(shell).name
        self.colour: str | None = None
        self.battery: int | None = None
        self.charging = False
        self.garbled = 0
        self.taps = 0

    def message(self, data, at: float = 0.0) -> list[Observation]:
        message = gp.decode(data)
        if isinstance(message, gp.RollStarted):
            return [DieRolling(self.die, source=self.source, at=at)]
        if isinstance(message, gp.Stable):
            face, confidence = gp.read_face(self.shell, message.xyz)
            if message.kind == "TS":
                return [DieCrooked(self.die, source=self.source, at=at)]
            if message.kind == "MS":
                return [DieSetDown(self.die, face, source=self.source, at=at)]
            return [DieRolled(self.die, face, round(confidence * gp.STABILITY_CONFIDENCE[message.kind], 3),
                              source=self.source, at=at)]
        if isinstance(message, gp.Battery):
            self.battery = message.percent
            return [BatteryLevel(self.die, message.percent, self.charging, source=self.source, at=at)]
        if isinstance(message, gp.Charging):
            self.charging = message.charging
            if self.battery is not None:
                return [BatteryLevel(self.die, self.battery, self.charging, source=self.source, at=at)]
            return []
        if isinstance(message, gp.Colour):
            self.colour = message.name
            return [DieIdentified(self.die, "godice", self.shell, message.name, self.name, source=self.source,
                                  at=at)]
        if isinstance(message, gp.Tap):
            self.taps += 1
            return []
        self.garbled += 1
        return []
