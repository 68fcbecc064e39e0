"""Simulated GoDice and Pixels dice on the virtual radio: the firmware models (models.py) behind real GATT services.

    die = await radio.add_godice("F0:00:00:00:00:01", name="GoDice_A", shell="d6", color="red", battery=87)
    await die.roll(4)                 # "R", then "S" + the accelerometer vector of face 4
    px = await radio.add_pixels("F0:00:00:00:00:02", die_type="d10", firmware="2023-11")   # a firmware by its date
    await px.roll(5)                  # RollState rolling, then at rest on 5 (as that firmware says it); advertised
    await px.crooked()                # lands tilted: RollState crooked (the app asks for a re-roll)
    await px.held_still_roll()        # a die held in the hand registers a roll (a known complaint)
    await die.low_battery(7)
"""
from __future__ import annotations

import random
from bumble import gatt

from firmware_bridge.ble import uuids
from firmware_bridge.ble.gestures import GoDiceGestures, PixelsGestures
from firmware_bridge.ble.models import GoDiceModel, PixelsModel
from firmware_bridge.ble.virtual.advertising import build_advertising
from firmware_bridge.ble.virtual.peripheral import Air, VirtualPeripheral

_WRITE = gatt.Characteristic.Properties.WRITE | gatt.Characteristic.Properties.WRITE_WITHOUT_RESPONSE


class _ModelPeripheral(VirtualPeripheral):
    model: GoDiceModel | PixelsModel
    notify_char: gatt.Characteristic

    def _on_write(self, data: bytes) -> None:
        for reply in self.model.on_write(data):
            self._spawn(self._notify(self.notify_char, reply))

    async def send(self, data: bytes) -> None:
        """Send raw bytes as the die would (a garbled message, a message from a future firmware)."""
        await self._notify(self.notify_char, data)

    _say = send                                     # the gestures (gestures.py) speak through it


class VirtualGoDice(_ModelPeripheral, GoDiceGestures):
    def __init__(self, radio: Air, address: str, name: str, *, shell: str = "d6", color: str = "black",
                 battery: int = 100, noise: int = 3, seed: int | None = None):
        super().__init__(radio, address, name)
        self.model = GoDiceModel(shell=shell, color=color, battery=battery, noise=noise,
                                 rng=random.Random(seed if seed is not None else radio.rng.random()))
        self.notify_char = gatt.Characteristic(uuids.NUS_TX, gatt.Characteristic.Properties.NOTIFY,
                                               gatt.Characteristic.Permissions.READABLE, b"")
        self.write_char = gatt.Characteristic(uuids.NUS_RX, _WRITE, gatt.Characteristic.Permissions.WRITEABLE,
                                              self._write_handler())

    def services(self) -> list[gatt.Service]:
        return [gatt.Service(uuids.NUS_SERVICE, [self.write_char, self.notify_char])]

    def advertising_data(self) -> bytes:
        return build_advertising(self.name, [uuids.NUS_SERVICE])


class VirtualPixels(_ModelPeripheral, PixelsGestures):
    """A Pixels die of one firmware generation (`firmware`: its build date like "2023-11", or current / legacy):
    its GATT service, IAmADie, roll states, advertisement and scan response are that generation's (models.py)."""

    def __init__(self, radio: Air, address: str, name: str, *, die_type: str = "d6",
                 firmware: str = "current", battery: int = 100, colourway: str = "onyxBlack",
                 pixel_id: int | None = None):
        super().__init__(radio, address, name)
        self.model = PixelsModel(die_type=die_type, battery=battery, colourway=colourway, firmware=firmware,
                                 name=name,
                                 pixel_id=pixel_id if pixel_id is not None else int(address.replace(":", "")[-8:], 16))
        self.gatt = self.model.gatt
        if self.gatt == "current":
            self.service_uuid, notify_uuid, write_uuid = uuids.PIXELS_SERVICE, uuids.PIXELS_NOTIFY, uuids.PIXELS_WRITE
        else:
            self.service_uuid, notify_uuid, write_uuid = (uuids.PIXELS_LEGACY_SERVICE, uuids.PIXELS_LEGACY_NOTIFY,
                                                          uuids.PIXELS_LEGACY_WRITE)
        self.notify_char = gatt.Characteristic(notify_uuid, gatt.Characteristic.Properties.NOTIFY,
                                               gatt.Characteristic.Permissions.READABLE, b"")
        self.write_char = gatt.Characteristic(write_uuid, _WRITE, gatt.Characteristic.Permissions.WRITEABLE,
                                              self._write_handler())

    def services(self) -> list[gatt.Service]:
        return [gatt.Service(self.service_uuid, [self.notify_char, self.write_char])]

    def advertising_data(self) -> bytes:
        # A real die sends the service data (pixel id, firmware date) in its scan response; bleak hands the app the
        # advertisement and the scan response merged, as this one payload.
        return build_advertising(self.name, [self.service_uuid],
                                 manufacturer=(uuids.PIXELS_COMPANY_ID, self.model.advert()),
                                 service_data=(self.service_uuid, self.model.scan_response()))

    async def _advertise_state(self) -> None:
        await self.set_advertising_data(self.advertising_data())
