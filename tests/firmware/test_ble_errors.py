"""bleak's and the OS's failures become the DeviceError family at the transport boundary, each with a sentence."""
from __future__ import annotations

import asyncio

import pytest
from bleak.exc import (BleakCharacteristicNotFoundError, BleakDBusError, BleakDeviceNotFoundError, BleakError,
                       BleakGATTProtocolError)

from firmware_bridge.ble.transport import BleakLink, BleBackend, translate
from firmware_bridge.errors import (ConnectionLost, DeviceBusy, DeviceError, DeviceNotFound, DeviceTimeout,
                                    ProtocolError)


@pytest.mark.parametrize("err, family, words", [
    (BleakDeviceNotFoundError("AA", "Device with address AA was not found."), DeviceNotFound, "in range"),
    (BleakDBusError("org.bluez.Error.InProgress", ["Operation already in progress"]), DeviceBusy, "held by another"),
    (BleakDBusError("org.bluez.Error.AlreadyConnected", []), DeviceBusy, "close it there"),
    (BleakError("Device is in use by another central"), DeviceBusy, "held by another"),
    (BleakError("Not connected"), ConnectionLost, "lost"),
    (BleakGATTProtocolError(0x03), ProtocolError, "refused"),
    (BleakCharacteristicNotFoundError("6e400003"), ProtocolError, "right kind"),
    (BleakError("No Bluetooth adapters found."), DeviceError, "not available"),
    (asyncio.TimeoutError(), DeviceTimeout, "in time"),
    (FileNotFoundError(2, "No such file or directory"), DeviceError, "not available"),
    (RuntimeError("weird"), DeviceError, "unexpected"),
])
def test_translate(err, family, words):
    out = translate(err, "GoDice_A")
    assert type(out) is family
    assert "GoDice_A" in str(out) and words in str(out) and "\n" not in str(out)


def test_translated_errors_keep_their_cause():
    class ExplodingScanner:
        def __init__(self, *a, **kw):
            raise BleakDBusError("org.bluez.Error.NotReady", ["Resource Not Ready"])

    async def main():
        link = BleakLink("F0:00:00:00:00:01", backend=BleBackend(scanner=ExplodingScanner), timeout=0.1)
        with pytest.raises(DeviceError) as caught:
            await link.connect()
        assert isinstance(caught.value.__cause__, BleakDBusError)
        assert "Bluetooth is not available" in str(caught.value)

    asyncio.run(main())
