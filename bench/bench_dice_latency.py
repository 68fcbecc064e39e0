"""Smart-dice latency: from `die.roll()` on the virtual radio to the DieRolled the DeviceManager hands a subscriber.

The whole production path: simulated die (bumble GATT server) → virtual link → bumble central → our bleak backend →
bleak's BleakClient → GoDiceDevice / PixelsDevice → DeviceManager (roll filter) → subscriber callback.

Run: .venv/bin/python bench/bench_dice_latency.py [ROLLS]   — prints p50/p99/max per die kind; no assertions
(target: p99 <= 20 ms over 1,000 rolls).
"""
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware_bridge.ble.virtual import VirtualRadio  # noqa: E402
from firmware_bridge.manager import DeviceManager  # noqa: E402
from firmware_bridge.observations import ConnectionChanged, DieRolled  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


async def measure(kind: str, rolls: int) -> list[float]:
    rng = random.Random(7)
    async with VirtualRadio(seed=7) as radio:
        address = "F0:00:00:00:00:01"
        if kind == "godice":
            die = await radio.add_godice(address, shell="d6")
            url = f"ble://{address}?kind=godice&shell=d6&battery_every=0"
        else:
            die = await radio.add_pixels(address, die_type="d20", firmware=kind.split("-")[1])
            url = f"ble://{address}?kind=pixels"
        async with DeviceManager(opener=radio.open_device) as manager:
            arrived = asyncio.Event()
            stamp: list[float] = [0.0]
            connected = asyncio.Event()

            def on(obs) -> None:
                if isinstance(obs, DieRolled):
                    stamp[0] = time.perf_counter()
                    arrived.set()
                elif isinstance(obs, ConnectionChanged) and obs.state == "connected":
                    connected.set()

            manager.subscribe(on)
            await manager.add(url)
            await connected.wait()
            await die.wait_subscribed()
            await asyncio.sleep(0.1)
            faces = 20 if kind != "godice" else 6
            latencies = []
            for _ in range(rolls):
                arrived.clear()
                start = time.perf_counter()
                await die.roll(rng.randint(1, faces))
                await asyncio.wait_for(arrived.wait(), 5)
                latencies.append((stamp[0] - start) * 1000)
            return latencies


def main() -> None:
    rolls = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    print(f"die.roll() on the virtual radio -> DieRolled from the DeviceManager, {rolls} rolls each")
    print(f"{'die':16} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'mean ms':>8}")
    for kind in ("godice", "pixels-current", "pixels-legacy"):
        lat = asyncio.run(measure(kind, rolls))
        print(f"{kind:16} {percentile(lat, 50):8.2f} {percentile(lat, 99):8.2f} {max(lat):8.2f} "
              f"{statistics.fmean(lat):8.2f}")
    print("target: p99 <= 20 ms")


if __name__ == "__main__":
    main()
