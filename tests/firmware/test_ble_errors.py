"""bleak's and the OS's failures become the DeviceError family at the transport boundary, each with a sentence."""
from __future__ import annotations

import asyncio

import pytest
from bleak.exc import (BleakCharacteristicNotFoundError, BleakDBusError, BleakDeviceNotFoundError, BleakError,
                       BleakGATTProtocolError)

from firmware_bridge.ble.transport import BleakLink, BleBackend, translate
from firmware_bridge.errors import (ConnectionLost, DeviceBusy, DeviceError, DeviceNotFound, DeviceTimeout,
                                    ProtocolError, RadioBusy)


@pytest.mark.parametrize("err, family, words", [
    (BleakDeviceNotFoundError("AA", "Device with address AA was not found."), DeviceNotFound, "in range"),
    # several dice reconnecting at once on BlueZ: the adapter is busy, nobody holds the die (issue 16 §3)
    (BleakDBusError("org.bluez.Error.InProgress", ["Operation already in progress"]), RadioBusy,
     "Bluetooth is busy connecting another die"),
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


def test_several_dice_reconnecting_at_once_on_bluez_retry_as_usual_and_say_why():
    """Five dice drop together; BlueZ refuses every connection asked for while one is pending (InProgress). Each die
    is told to the players as "Bluetooth is busy connecting another die", retried with the normal back-off (no 5 s
    floor meant for a die held by a phone), and all five come back; none is ever "held by another app"."""
    import random

    from firmware_bridge.ble.virtual import VirtualRadio
    from firmware_bridge.manager import Backoff, DeviceManager
    from firmware_bridge.observations import ConnectionChanged

    async def main():
        async with VirtualRadio(bluez=True) as radio:
            dice = [await radio.add_godice(f"F0:00:00:00:00:1{i}", shell="d6") for i in range(5)]
            urls = [f"ble://F0:00:00:00:00:1{i}?kind=godice&shell=d6&timeout=2&battery_every=0" for i in range(5)]
            waits = []

            async def sleep(s):
                waits.append(s)
                await asyncio.sleep(s)

            async with DeviceManager(opener=radio.open_device, sleep=sleep, held_retry=5.0,
                                     backoff=Backoff(base=0.05, cap=0.4, rng=random.Random(3))) as manager:
                states = []
                manager.subscribe(lambda o: states.append(o) if isinstance(o, ConnectionChanged) else None)
                for url in urls:
                    await manager.add(url)
                while not all(manager.state(u) and manager.state(u).state == "connected" for u in urls):
                    await asyncio.sleep(0.02)
                refused_before = radio.in_progress_refusals
                states.clear()
                waits.clear()
                for die in dice:
                    await die.drop_connection()
                while sum(1 for u in urls if manager.state(u).state == "connected") < 5 or \
                        not all(d.subscribed for d in dice):
                    await asyncio.sleep(0.02)
                assert radio.in_progress_refusals > refused_before          # BlueZ's refusal was met, and passed
                assert not [s for s in states if s.state == "held_elsewhere"]
                busy = [s for s in states if "busy connecting another die" in s.detail]
                assert busy and all(s.state == "reconnecting" for s in busy)
                assert max(waits) < 5.0                                  # never the held-elsewhere floor

    asyncio.run(asyncio.wait_for(main(), 60))
