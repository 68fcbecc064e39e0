"""The device manager on its own: back-off, roll dedup, bindings, and resilience against devices that misbehave.

Devices here are small scripted Device subclasses (no radio): the manager only sees the Device contract.
"""
from __future__ import annotations

import asyncio
import json
import random

import pytest

from firmware_bridge.backoff import Backoff
from firmware_bridge.bindings import Binding, BindingTable
from firmware_bridge.device import Device, parse_url
from firmware_bridge.errors import BadDeviceURL, ConnectionLost, DeviceBusy, DeviceError, DeviceNotFound
from firmware_bridge.manager import DeviceManager
from firmware_bridge.observations import BatteryLevel, ConnectionChanged, DieCrooked, DieRolled, DieRolling
from firmware_bridge.rolls import RollFilter


def run(coro, timeout: float = 10.0):
    return asyncio.run(asyncio.wait_for(coro, timeout))


# --- back-off ------------------------------------------------------------------------------------------------------


def test_backoff_grows_exponentially_with_jitter_and_a_cap():
    backoff = Backoff(base=0.5, factor=2, cap=10, jitter=0.5, rng=random.Random(3))
    delays = [backoff.delay(n) for n in range(12)]
    for n, d in enumerate(delays):
        raw = min(10, 0.5 * 2 ** n)
        assert raw * 0.5 <= d <= raw
    assert max(delays) <= 10
    assert len({round(d, 6) for d in delays[6:]}) > 1          # jitter: capped delays still differ
    assert Backoff(jitter=0.0).delay(3) == 4.0
    assert Backoff(base=1, cap=30, jitter=0).delay(10_000) == 30


# --- roll filter ---------------------------------------------------------------------------------------------------


def test_roll_filter_rules():
    f = RollFilter()
    die = "D1"
    f.connected([die])
    assert not f.accept(DieRolled(die, 3))            # first report on connecting: the die's resting face
    assert f.accept(DieRolling(die))
    assert f.accept(DieRolled(die, 3))                 # a real roll, same face
    f.connected([die])
    assert not f.accept(DieRolled(die, 3))            # re-sent after reconnecting
    f.connected([die])
    assert f.accept(DieRolled(die, 5))                 # rolled while away, different face
    assert f.accept(DieRolled(die, 5))                 # a device that never reports movement: every result counts
    assert f.accept(DieRolling(die)) and f.accept(DieCrooked(die))
    f.connected([die])
    assert not f.accept(DieCrooked(die))              # still crooked after reconnecting: not news
    numbered = RollFilter()
    assert numbered.accept(DieRolled("N", 2, roll=7))
    assert not numbered.accept(DieRolled("N", 2, roll=7))
    numbered.connected(["N"])
    assert numbered.accept(DieRolled("N", 2, roll=8))   # numbered rolls count once each, whatever the face


# --- bindings ------------------------------------------------------------------------------------------------------


def test_bindings_round_trip_and_move():
    table = BindingTable()
    for i in range(5):
        table.bind(f"F0:00:00:00:00:0{i}", "henchmen", i)
    table.bind("F0:00:00:00:00:AA", "player", "red")
    table.bind("F0:00:00:00:00:BB", "obelisk", "NE")
    table.bind("F0:00:00:00:00:CC", "henchmen", 2)               # takes slot 2 from die 02
    assert table.binding("F0:00:00:00:00:02") is None
    assert table.die_for("henchmen", 2) == "F0:00:00:00:00:CC"
    assert table.role("henchmen")[0] == "F0:00:00:00:00:00"
    table.bind("F0:00:00:00:00:AA", "player", "blue")            # a die holds one place
    assert table.die_for("player", "red") is None and table.binding("F0:00:00:00:00:AA") == Binding("player", "blue")
    text = table.dumps()
    assert BindingTable.loads(text) == table
    assert json.loads(text)["version"] == 1


@pytest.mark.parametrize("data, error", [
    ([], "expected an object"),
    ({"version": 2}, "version"),
    ({"bindings": {}}, "expected a list"),
    ({"bindings": [{"die": "A", "role": "", "index": 0}]}, r"bindings\[0\]: binding.role"),
    ({"bindings": [{"die": "A", "role": "x", "index": True}]}, "index"),
    ({"bindings": [{"die": "A", "role": "x", "colour": 1}]}, "colour: unknown field"),
])
def test_bindings_refuse_bad_json(data, error):
    with pytest.raises(ValueError, match=error):
        BindingTable.from_json(data)
    with pytest.raises(ValueError, match="not JSON"):
        BindingTable.loads("{")


# --- the manager with scripted devices --------------------------------------------------------------------------------


class Script(Device):
    """A device that plays a per-URL script: a list of attempts, each an exception to raise on open or a list of
    observations (then the link drops, or stays up if the list ends with "stay")."""

    scripts: dict[str, list] = {}

    async def open(self) -> None:
        plan = self.scripts[self.url.address]
        self.plan = plan.pop(0) if plan else "stay"
        if isinstance(self.plan, BaseException):
            raise self.plan

    async def close(self) -> None:
        self.closed = True

    async def observations(self):
        for item in (self.plan if isinstance(self.plan, list) else []):
            if item == "stay":
                await asyncio.Event().wait()
            if isinstance(item, BaseException):
                raise item
            yield item
        if self.plan == "stay":
            await asyncio.Event().wait()
        raise ConnectionLost(f"{self.name}: the connection was lost")

    async def command(self, command):
        self.commands = getattr(self, "commands", []) + [command]


def opener(url: str) -> Device:
    parsed = parse_url(url)
    if parsed.params.get("crash") == "make":
        raise RuntimeError("constructor bug")
    return Script(parsed)


class FakeSleep:
    """Records back-off delays and returns at once (virtual time)."""

    def __init__(self):
        self.delays: list[float] = []

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)
        await asyncio.sleep(0)


async def states(sub, url, until: str, limit: int = 200):
    out = []
    for _ in range(limit):
        obs = await sub.get(timeout=5)
        if isinstance(obs, ConnectionChanged) and obs.source == url:
            out.append(obs.state)
            if obs.state == until:
                return out
    raise AssertionError(out)


def test_backoff_schedule_with_virtual_time_and_reset_after_success():
    async def main():
        sleep = FakeSleep()
        Script.scripts = {"A": [DeviceNotFound("A was not found"), DeviceNotFound("A was not found"),
                                DeviceNotFound("A was not found"), [DieRolling("A")],
                                DeviceNotFound("A was not found"), "stay"]}
        manager = DeviceManager(opener=opener, sleep=sleep, backoff=Backoff(base=1, factor=2, cap=3, jitter=0))
        sub = manager.observations()
        await manager.add("sim://A")
        seen = await states(sub, "sim://A", "connected")
        assert seen == ["connecting", "reconnecting", "connected"]
        seen = await states(sub, "sim://A", "connected")
        assert seen == ["lost", "reconnecting", "reconnecting", "connected"]   # the second says "not found"
        assert sleep.delays == [1, 2, 3, 1, 2]         # capped at 3; back to 1 after a good connection
        await manager.close()

    run(main())


def test_held_elsewhere_failed_and_bugs_never_stop_the_others():
    async def main():
        sleep = FakeSleep()
        Script.scripts = {
            "held": [DeviceBusy("GoDice_A is held by another app or device: close it there"), "stay"],
            "buggy": [ZeroDivisionError("oops"), [DieRolled("buggy", 1), KeyError("boom")], "stay"],
            "good": [[DieRolling("good"), DieRolled("good", 6), "stay"]],
        }
        manager = DeviceManager(opener=opener, sleep=sleep, backoff=Backoff(base=0.1, jitter=0), held_retry=7)
        sub = manager.observations()
        calls = []
        manager.subscribe(lambda o: 1 / 0)                          # a broken subscriber
        manager.subscribe(lambda o: calls.append(o))
        for url in ("sim://held", "sim://buggy", "sim://good", "sim://bad?crash=make"):
            await manager.add(url)
        with pytest.raises(BadDeviceURL):
            await manager.add("nope://x")
        def history(url):
            return [o.state for o in calls if isinstance(o, ConnectionChanged) and o.source == url]

        async def until(predicate):
            for _ in range(5000):
                if predicate():
                    return
                await asyncio.sleep(0.001)
            raise AssertionError("condition not reached")

        await until(lambda: history("sim://held")[-1:] == ["connected"])
        assert history("sim://held") == ["connecting", "held_elsewhere", "connected"]
        held = next(o for o in calls if isinstance(o, ConnectionChanged) and o.state == "held_elsewhere")
        assert "held by another app" in held.detail
        assert 7 in sleep.delays                                      # held elsewhere: no hammering
        failed = manager.state("sim://bad?crash=make")
        assert failed.state == "failed" and "constructor bug" in failed.detail
        await until(lambda: history("sim://buggy").count("connected") == 2)
        assert history("sim://buggy") == ["connecting", "reconnecting", "connected", "reconnecting", "connected"]
        await until(lambda: manager.state("sim://good").state == "connected")
        await until(lambda: any(isinstance(o, DieRolled) and o.die == "good" for o in calls))
        assert [o.face for o in calls if isinstance(o, DieRolled)] == [6]     # buggy's resting report dropped
        assert any(isinstance(o, ConnectionChanged) and "internal error" in o.detail for o in calls)
        await manager.command("good", DieRolling("x"))                 # routed by die id
        assert manager.device("sim://good").commands
        with pytest.raises(DeviceError, match="no such device"):
            await manager.command("nobody", DieRolling("x"))
        await manager.close()
        assert [o async for o in sub][-1].state == "closed"

    run(main())


def test_battery_reports_only_changes_and_stamps_time():
    async def main():
        Script.scripts = {"B": [[BatteryLevel("B", 80), BatteryLevel("B", 80), BatteryLevel("B", 79), "stay"]]}
        manager = DeviceManager(opener=opener, clock=lambda: 42.0)
        sub = manager.observations()
        await manager.add("sim://B")
        levels = []
        while len(levels) < 2:
            obs = await sub.get(timeout=5)
            if isinstance(obs, BatteryLevel):
                levels.append(obs)
        assert [o.percent for o in levels] == [80, 79] and levels[0].at == 42.0
        assert manager.battery("B") == (79, False)
        await asyncio.sleep(0.01)
        assert not any(isinstance(o, BatteryLevel) for o in [sub._queue.get_nowait()
                                                              for _ in range(sub._queue.qsize())])
        await manager.close()

    run(main())


def test_slow_subscriber_with_a_bound_drops_its_oldest():
    async def main():
        Script.scripts = {"S": [[*(DieRolled("S", i % 6 + 1) for i in range(20)), "stay"]]}
        manager = DeviceManager(opener=opener)
        small = manager.observations(maxsize=3)
        await manager.add("sim://S")
        await asyncio.sleep(0.05)
        assert small.dropped > 0 and small._queue.qsize() == 3
        await manager.close()

    run(main())
