"""What a Pixels die's messages mean, as observations: pure, so the connected reader, the advertisement reader and
`python -m firmware_bridge replay` read a die alike.

    reader = PixelsReader("F0:…:02", source="ble://F0:…:02?kind=pixels")
    reader.message(notification_bytes, at)        -> [DieIdentified, BatteryLevel, DieRolling, DieRolled, …]
    reader.advert(manufacturer_data, service_data, at)

Roll states → observations (pixels_protocol explains both generations of states):
  handling / rolling                       → DieRolling, once per motion
  at rest after rolling                    → DieRolled(face, 1.0)
  rolled after handling only (new firmware)→ DieRolled(face, 0.5): a die held still can register a roll
  at rest after handling only              → DieSetDown(face): picked up and put back, no roll (the wait ends)
  crooked                                  → DieCrooked (ask for a re-roll) — except six-LED dice built before
                                             2024-05-22, which say crooked where they lie flat: at rest (pixels-js)
  answers to a question (IAmADie, RequestRollState): the standing state, not a motion (the manager's RollFilter
  decides whether it is a roll made while away).
Faces are read with the die's own firmware date (d4/d6 with the bad normals) and type (from the die, or the URL's
`die=`).
"""
from __future__ import annotations

from firmware_bridge.ble import pixels_protocol as pp
from firmware_bridge.observations import (BatteryLevel, DieCrooked, DieIdentified, DieRolled, DieRolling,
                                          DieSetDown, Observation)

HELD_STILL_CONFIDENCE = 0.5


class PixelsReader:
    def __init__(self, die: str, source: str = "", die_type: str | None = None, name: str = ""):
        self.die, self.source, self.name = die, source, name
        self.die_type_override = die_type
        self.die_type = die_type or "d6"
        self.identity: pp.IAmADie | None = None
        self.built: int | None = None           # the firmware's build date (IAmADie, or the scan response)
        self.led_count = 0
        self.state: int | None = None
        self.face: int | None = None            # face index, as the die sends it
        self.moved = ""                         # "", "handling" or "rolling": the motion seen since the last rest
        self.garbled = 0
        self.battery: tuple[int, bool] | None = None

    # -- bytes in ------------------------------------------------------------------------------------------------
    def message(self, data, at: float = 0.0, *, live: bool = True) -> list[Observation]:
        """Observations for one notification. `live` False: a RollState already seen made the die's IAmADie
        answer older than the stream (its roll state is then not used)."""
        message = pp.decode(data)
        if isinstance(message, pp.RollState):
            return self.update(message.state, message.face_index, at)
        if isinstance(message, pp.IAmADie):
            return self.identified(message, at, use_state=live)
        if isinstance(message, pp.BatteryLevel):
            return self._battery(message.percent, message.charging, at)
        if isinstance(message, pp.Garbled):
            self.garbled += 1
        return []

    def advert(self, manufacturer, service_data=None, at: float = 0.0, *, first: bool = False) -> list[Observation]:
        """Observations for an advertisement (read without connecting): identity once, battery and roll changes."""
        state = pp.decode_advert(manufacturer, service_data)
        if isinstance(state, pp.Garbled):
            self.garbled += 1
            return []
        out: list[Observation] = []
        if state.build_timestamp:
            self.built = state.build_timestamp
        self.led_count = state.led_count
        if not self.die_type_override and state.model != "unknown":
            self.die_type = state.model
        if first:
            out.append(DieIdentified(self.die, "pixels", self.die_type, _colourway(state.colourway), self.name,
                                     source=self.source, at=at, firmware=pp.date_of(self.built) or ""))
        out += self._battery(state.battery, state.charging, at)
        if (state.roll_state, state.face_index) != (self.state, self.face):
            out += self.update(state.roll_state, state.face_index, at, report=self.state is None)
        return out

    def learn(self, manufacturer, service_data=None) -> None:
        """Take the firmware's date, LED count and type from an advertisement without reading its roll state (a
        capture's first line: what the die advertised before the link came up)."""
        state = pp.decode_advert(manufacturer, service_data)
        if isinstance(state, pp.Garbled):
            return
        self.built = state.build_timestamp or self.built
        self.led_count = state.led_count
        if not self.die_type_override and state.model != "unknown":
            self.die_type = state.model

    # -- meaning -------------------------------------------------------------------------------------------------
    def identified(self, message: pp.IAmADie, at: float, *, use_state: bool = True) -> list[Observation]:
        self.identity = message
        self.built = message.build_timestamp or self.built
        self.led_count = message.led_count
        if not self.die_type_override and message.model != "unknown":
            self.die_type = message.model
        if message.name:
            self.name = message.name
        out: list[Observation] = [DieIdentified(self.die, "pixels", self.die_type, _colourway(message.colourway),
                                                self.name, source=self.source, at=at,
                                                firmware=pp.date_of(self.built) or "")]
        out += self._battery(message.battery, message.charging, at)
        if use_state:
            out += self.update(message.roll_state, message.face_index, at, report=True)
        return out

    def _battery(self, percent: int, charging: bool, at: float) -> list[Observation]:
        if self.battery == (percent, charging):
            return []
        self.battery = (percent, charging)
        return [BatteryLevel(self.die, percent, charging, source=self.source, at=at)]

    def value(self, face_index: int) -> int:
        return pp.face_value(self.die_type, face_index, self.built)

    def update(self, state: int, face_index: int, at: float, *, report: bool = False) -> list[Observation]:
        """Observations for the die now being in `state` on `face_index`. `report`: an answer to a question, not a
        change the die noticed."""
        previous, previous_face = self.state, self.face
        self.state, self.face = state, face_index
        if state in (pp.HANDLING, pp.ROLLING):
            first = not self.moved
            self.moved = "rolling" if state == pp.ROLLING else (self.moved or "handling")
            return [DieRolling(self.die, source=self.source, at=at)] if first and not report else []
        moved, self.moved = self.moved, ""
        new_states = pp.new_roll_states(self.built)
        if state == pp.CROOKED and pp.crooked_is_flat(self.built, self.led_count or 6):
            state = pp.LEGACY_ON_FACE  # lying flat, whatever the old firmware says: a rest like any other
        if state == pp.CROOKED:
            if moved or report or previous != pp.CROOKED:
                return [DieCrooked(self.die, source=self.source, at=at)]
            return []
        if state == pp.ROLLED and new_states:                       # 1: at rest after a proper roll
            return self._rolled(moved, report, previous, previous_face, face_index, at,
                                HELD_STILL_CONFIDENCE if moved == "handling" else 1.0)
        if state == pp.LEGACY_ON_FACE:                               # 1 on older firmware: at rest, thrown or not
            if moved == "handling":
                return [DieSetDown(self.die, self.value(face_index), source=self.source, at=at)]
            return self._rolled(moved, report, previous, previous_face, face_index, at, 1.0)
        if state == pp.ON_FACE:                                      # 5: at rest without a roll
            if moved:
                return [DieSetDown(self.die, self.value(face_index), source=self.source, at=at)]
            return []
        return []

    def _rolled(self, moved, report, previous, previous_face, face_index, at, confidence) -> list[Observation]:
        if not moved and not report and previous == self.state and previous_face == face_index:
            return []  # the same rest state again (the advertisement repeats it): not a roll
        return [DieRolled(self.die, self.value(face_index), confidence, source=self.source, at=at)]


def _colourway(name: str) -> str:
    return "" if name == "unknown" else name
