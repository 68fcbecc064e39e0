"""Latency from `die.roll()` on the virtual radio to the reading arriving at the open table's observation door:
the whole path the app uses (bumble die → virtual link → bleak → GoDiceDevice → DeviceManager → DeviceService →
ObservationDoor.observe), with a real table on a real SQLite file.

    .venv/bin/python bench/bench_dice_to_session.py [ROLLS]     # default 1,000; prints p50/p99/max (target p99 <= 20 ms)
"""
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games.obscurians.actions import RevealEvent  # noqa: E402
from companion.games.obscurians.setup import Setup  # noqa: E402
from companion.session import Table, TableStore  # noqa: E402
from companion.session.devices import DeviceService  # noqa: E402
from firmware_bridge.ble.virtual import VirtualRadio  # noqa: E402
from firmware_bridge.manager import DeviceManager  # noqa: E402
from firmware_bridge.observations import ConnectionChanged, DieRolled  # noqa: E402

ADDRESS = "F0:00:00:00:00:01"


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


async def measure(rolls: int, folder: Path) -> list[float]:
    rng = random.Random(11)
    store = TableStore(folder)
    table = Table.create(store, "obscurians", Setup(players=(("A", "red"), ("B", "blue"), ("C", "green"),
                                                             ("D", "yellow")), deck="physical", seed=1))
    table.apply(RevealEvent("no_swap"))
    async with VirtualRadio(seed=3) as radio:
        die = await radio.add_godice(ADDRESS, shell="d6")
        service = DeviceService(folder, manager=DeviceManager(opener=radio.open_device), settle_after=3600)
        connected = asyncio.Event()
        service.subscribe(lambda o: connected.set() if isinstance(o, ConnectionChanged) and o.state == "connected"
                          else None)
        door = service.attach(table)
        arrived, stamp = asyncio.Event(), [0.0]
        observe = door.observe

        def stamped(obs):  # the moment the reading is at the door, before the door does anything with it
            if isinstance(obs, DieRolled):
                stamp[0] = time.perf_counter()
                arrived.set()
            observe(obs)
        door.observe = stamped
        await service.add(f"ble://{ADDRESS}?kind=godice&shell=d6&battery_every=0")
        service.bind(ADDRESS, "henchmen", 0)
        await connected.wait()
        await die.wait_subscribed()
        await asyncio.sleep(0.1)
        out = []
        for _ in range(rolls):
            arrived.clear()
            start = time.perf_counter()
            await die.roll(rng.randint(1, 6))
            await asyncio.wait_for(arrived.wait(), 5)
            out.append((stamp[0] - start) * 1000)
        await service.close()
    store.close()
    return out


def main() -> int:
    rolls = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    with tempfile.TemporaryDirectory() as tmp:
        ms = asyncio.run(measure(rolls, Path(tmp)))
    print(f"die.roll() -> session door, {rolls} rolls: p50 {percentile(ms, 50):.2f} ms, "
          f"p99 {percentile(ms, 99):.2f} ms, max {max(ms):.2f} ms (target p99 <= 20 ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
