"""A client nobody here wrote reads our simulated GoDice correctly: Particula's own `godice` package (test-only
dependency), unmodified, connects through bleak to the die on the virtual radio.

godice.create() builds its BleakClient with the platform backend, so the test builds the same objects through
godice's public API with the virtual backend: godice.Dice(bleak.BleakClient(address, backend=…)) + godice.set_shell.
"""
from __future__ import annotations

import asyncio
import random

import bleak
import pytest

godice = pytest.importorskip("godice")
from godice import xyzinterpret  # noqa: E402

from firmware_bridge.ble.testing import until  # noqa: E402
from firmware_bridge.ble import godice_protocol as gp  # noqa: E402
from firmware_bridge.ble.virtual import VirtualRadio  # noqa: E402

ADDRESS = "F0:00:00:00:00:01"


def run(coro, timeout: float = 20.0):
    return asyncio.run(asyncio.wait_for(coro, timeout))


def official_client(radio: VirtualRadio, address: str, shell) -> "godice.Dice":
    dice = godice.Dice(bleak.BleakClient(address, timeout=5, backend=radio.client_backend))
    godice.set_shell(dice, shell)
    return dice


@pytest.mark.parametrize("shell, official, faces", [
    ("d6", godice.Shell.D6, [4, 4, 1, 6, 3]),
    ("d20", godice.Shell.D20, [20, 1, 13]),
    ("d12", godice.Shell.D12, [12, 7]),
])
def test_official_client_reads_rolls_colour_and_battery(shell, official, faces):
    async def main():
        async with VirtualRadio() as radio:
            die = await radio.add_godice(ADDRESS, name="GoDice_A", shell=shell, color="red", battery=87)
            numbers: list[tuple[int, object]] = []
            stable = asyncio.Event()

            async def on_number(number, stability):
                numbers.append((number, stability))
                if stability == godice.StabilityDescriptor.STABLE:
                    stable.set()

            async with official_client(radio, ADDRESS, official) as dice:
                assert await dice.get_color() == godice.Color.RED
                assert await dice.get_battery_level() == 87
                await dice.subscribe_number_notification(on_number)
                for face in faces:
                    stable.clear()
                    await die.roll(face)
                    await asyncio.wait_for(stable.wait(), 5)
                await dice.set_led((0, 0, 255), (255, 255, 0))
                await dice.pulse_led(2, 30, 20, (255, 0, 0))
                await die.low_battery(9)
                assert await dice.get_battery_level() == 9
            stables = [n for n, s in numbers if s == godice.StabilityDescriptor.STABLE]
            rolling = [n for n, s in numbers if s == godice.StabilityDescriptor.ROLLING]
            assert stables == faces and len(rolling) == len(faces)
            assert die.leds == ((0, 0, 255), (255, 255, 0))
            assert any(c.name == "pulse" and c.args == (2, 300, 200, (255, 0, 0)) for c in die.commands)

    run(main())


def test_official_client_reads_move_stable_and_tilt():
    async def main():
        async with VirtualRadio() as radio:
            die = await radio.add_godice(ADDRESS, shell="d6")
            seen: list[tuple[int, object]] = []
            async with official_client(radio, ADDRESS, godice.Shell.D6) as dice:
                await dice.subscribe_number_notification(lambda n, s: _append(seen, n, s))
                await die.roll(2, kind="MS")
                await die.roll(5, kind="FS")
                await until(lambda: len(seen) >= 4, "four numbers from the official client")
            assert seen[1] == (2, godice.StabilityDescriptor.MOVE_STABLE)
            assert seen[3] == (5, godice.StabilityDescriptor.FAKE_STABLE)

    run(main())


async def _append(seen, number, stability):
    seen.append((number, stability))


@pytest.mark.parametrize("ours, theirs", [
    ("d6", xyzinterpret.get_rolled_number_d6), ("d20", xyzinterpret.get_rolled_number_d20),
    ("d10", xyzinterpret.get_rolled_number_d10), ("d10x", xyzinterpret.get_rolled_number_d10x),
    ("d4", xyzinterpret.get_rolled_number_d4), ("d8", xyzinterpret.get_rolled_number_d8),
    ("d12", xyzinterpret.get_rolled_number_d12),
])
def test_our_shell_tables_agree_with_the_official_client(ours, theirs):
    rng = random.Random(ours)
    shell = gp.shell(ours)
    samples = list(shell.vectors) + [tuple(rng.randint(-80, 80) for _ in range(3)) for _ in range(300)]
    for xyz in samples:
        if xyz == (0, 0, 0):
            continue
        ranked = sorted(sum((a - b) ** 2 for a, b in zip(xyz, v)) for v in shell.vectors)
        if ranked[0] == ranked[1]:
            continue                                    # an exact tie: either answer is right
        assert gp.read_face(ours, xyz)[0] == theirs(xyz), xyz
