"""Several dice reconnecting at once: every die's link drops at the same moment (the tablet's Bluetooth restarted, the
group walked to the next room and back); how long until every die is connected and listened to again.

The production path on the virtual radio (bumble's stack, our bleak backend, GoDiceDevice, the DeviceManager with
its default back-off: 0.5 s × 2^n, capped at 30 s, jitter 50 %). Two radios: one that queues connections (as
macOS/Windows do), one that refuses a connection asked for while another is pending with BlueZ's
org.bluez.Error.InProgress (Linux) — the case issue 16 §3 is about; those refusals are retried like any transient
error, never with the 5 s floor of a die held by a phone.

Run: .venv/bin/python bench/bench_dice_reconnect.py [REPEATS]   — prints median / max seconds per number of dice and
the InProgress refusals met; no assertions.
"""
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware_bridge.ble.virtual import VirtualRadio  # noqa: E402
from firmware_bridge.manager import Backoff, DeviceManager  # noqa: E402


class _AsBefore:
    """The earlier reading of BlueZ's InProgress, for comparison: "held by another app", with its 5 s floor."""

    def __init__(self, device):
        self._device = device

    def __getattr__(self, name):
        return getattr(self._device, name)

    async def open(self):
        from firmware_bridge.errors import DeviceBusy, RadioBusy

        try:
            await self._device.open()
        except RadioBusy as err:
            raise DeviceBusy(str(err)) from err


async def one(n: int, mode: str, seed: int) -> tuple[float, int]:
    async with VirtualRadio(bluez=mode != "queueing", seed=seed) as radio:
        dice = [await radio.add_godice(f"F0:00:00:00:01:{i:02X}", shell="d6") for i in range(n)]
        urls = [f"ble://F0:00:00:00:01:{i:02X}?kind=godice&shell=d6&battery_every=0" for i in range(n)]
        opener = radio.open_device if mode != "before" else (lambda url: _AsBefore(radio.open_device(url)))
        async with DeviceManager(opener=opener, backoff=Backoff(rng=random.Random(seed))) as manager:
            for url in urls:
                await manager.add(url)
            await _all_back(manager, urls, dice)
            refused = radio.in_progress_refusals
            start = time.perf_counter()
            await asyncio.gather(*(die.drop_connection() for die in dice))
            await _all_back(manager, urls, dice)
            return time.perf_counter() - start, radio.in_progress_refusals - refused


async def _all_back(manager, urls, dice) -> None:
    while not (all(manager.state(u) is not None and manager.state(u).state == "connected" for u in urls)
               and all(d.subscribed for d in dice)):
        await asyncio.sleep(0.005)


def main() -> None:
    import logging

    logging.getLogger("bumble").setLevel(logging.ERROR)  # links torn down mid-teardown are expected here
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    print(f"all dice dropped at once -> all connected and listened to again; {repeats} runs each, default back-off")
    print(f"{'dice':>4} {'radio':30} {'median s':>9} {'max s':>7} {'InProgress refusals (mean)':>28}")
    modes = {"queueing": "queueing (macOS, Windows)", "bluez": "BlueZ, InProgress retried",
             "before": "BlueZ, as before (held, 5 s)"}
    for n in (1, 3, 5, 8):
        for mode, title in modes.items():
            times, refusals = [], []
            for r in range(repeats):
                took, refused = asyncio.run(one(n, mode, seed=100 * n + r))
                times.append(took)
                refusals.append(refused)
            print(f"{n:>4} {title:30} {statistics.median(times):9.2f} {max(times):7.2f} "
                  f"{statistics.fmean(refusals):28.1f}")


if __name__ == "__main__":
    main()
