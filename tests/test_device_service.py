"""The app's devices into a real table: five simulated GoDice on the virtual BLE radio (the production bleak path)
roll the Obscurians henchmen dice into a turn; the simulated hourglass stand (the Table Bus) flips and pauses the
table's hourglass; bindings and devices persist; a die nobody bound never reaches the game."""
from __future__ import annotations

import asyncio
import json

import pytest

from firmware_bridge.ble.testing import until
from companion.games.obscurians.actions import RevealEvent
from companion.games.obscurians.setup import Setup
from companion.session import Table, TableStore
from companion.session.devices import SETTINGS, DeviceService
from companion.session.timers import FakeClock


class ConnectionState:
    state = "none yet"

DICE_URL = "sim://godice?count=5&seed=3"
STAND_URL = "sim://tablebus?kind=stand&heartbeat_ms=100"
PLAYERS = (("Anna", "red"), ("Ben", "blue"), ("Chris", "green"), ("Dana", "yellow"))


def test_five_smart_dice_roll_into_the_turn_and_the_stand_turns_the_hourglass(tmp_path):
    async def scenario():
        store = TableStore(tmp_path / "data")
        table = Table.create(store, "obscurians", Setup(players=PLAYERS, deck="physical", seed=1), clock=FakeClock())
        table.apply(RevealEvent("no_swap"))
        service = DeviceService(tmp_path / "data", settle_after=0.05)
        seen = []
        service.subscribe(seen.append)
        try:
            await service.add(DICE_URL, "table dice")
            await until(lambda: service.manager.device(DICE_URL) is not None
                        and len(service.manager.device(DICE_URL).dice) == 5)
            sim = service.manager.device(DICE_URL)
            ids = [sim.address(i) for i in range(5)]
            for i, die in enumerate(ids):
                service.bind(die, "henchmen", i)
            # every die connected (each says what it is on connecting) before the table throws
            await until(lambda: {o.die for o in seen if type(o).__name__ == "DieIdentified"} >= set(ids))
            questions = []
            service.attach(table, on_question=questions.append)
            # The table throws: pips 1 1 2 4 3 are Steal Steal Swap Wild Relocate (RULING obscurians-dice).
            for die, pips in zip(sim.dice, (1, 1, 2, 4, 3)):
                await die.roll(pips)
            await until(lambda: table.state.dice is not None)
            assert table.state.dice == ("steal", "steal", "swap", "wild", "relocate")
            assert [q for q in questions if q is not None] == []
            assert any(type(o).__name__ == "DieRolled" for o in seen)  # the devices screen saw every roll

            # The hourglass stand: a flip is a tap on the hourglass, the button pauses it.
            table.timers.start("hourglass", 60)
            await service.add(STAND_URL)
            await until(lambda: service.manager.state(STAND_URL) is not None
                        and service.manager.state(STAND_URL).state == "connected")
            stand = service.manager.device(STAND_URL)
            table.timers.clock.advance(45)
            stand.board.script("flip")
            await until(lambda: table.timers.remaining("hourglass") == pytest.approx(45))
            stand.board.script("button 1")
            await until(lambda: not table.timers.get("hourglass").running)
        finally:
            await service.close()
            store.close()
        saved = json.loads((tmp_path / "data" / SETTINGS).read_text())
        assert [d["url"] for d in saved["devices"]] == [DICE_URL, STAND_URL]
        assert len(saved["bindings"]["bindings"]) == 5
        again = DeviceService(tmp_path / "data")
        assert again.manager.bindings.role("henchmen") == {i: die for i, die in enumerate(ids)}
        assert [d["url"] for d in again.devices] == [DICE_URL, STAND_URL]
        await again.close()

    asyncio.run(scenario())


def test_dice_picked_for_a_reroll_light_up_and_only_they_are_expected(tmp_path):
    async def scenario():
        store = TableStore(tmp_path / "data")
        table = Table.create(store, "obscurians", Setup(players=PLAYERS, deck="physical", seed=1), clock=FakeClock())
        table.apply(RevealEvent("no_swap"))
        service = DeviceService(tmp_path / "data", settle_after=0.05)
        try:
            await service.add(DICE_URL)
            await until(lambda: service.manager.device(DICE_URL) is not None
                        and len(service.manager.device(DICE_URL).dice) == 5)
            sim = service.manager.device(DICE_URL)
            for i in range(5):
                service.bind(sim.address(i), "henchmen", i)
            questions = []
            door = service.attach(table, on_question=questions.append)
            await asyncio.sleep(0.2)
            for die, pips in zip(sim.dice, (1, 1, 2, 4, 3)):
                await die.roll(pips)
            await until(lambda: table.state.dice is not None)
            # The players pick dice 1 and 4 on the screen: those light up, the others go dark.
            door.expect({"reroll": [0, 3]})
            service.light("henchmen", [0, 3])
            await until(lambda: sim.dice[0].leds[0] == (255, 170, 0) and sim.dice[3].leds[0] == (255, 170, 0))
            await until(lambda: sim.dice[1].leds[0] == (0, 0, 0))
            # Die 2 is thrown instead: asked about, nothing changes.
            await sim.dice[1].roll(5)
            await until(lambda: door.question is not None)
            assert "dice 1, 4 were to be rerolled" in door.question.text and table.state.dice[1] == "steal"
            door.answer("read_again")
            await sim.dice[0].roll(5)
            await sim.dice[3].roll(6)
            await until(lambda: table.state.dice[0] == "secure")
            assert table.state.dice == ("secure", "steal", "swap", "donate", "relocate")
        finally:
            await service.close()
            store.close()

    asyncio.run(scenario())


def hourglass_table_and_devices(tmp_path):
    """A table in its first turn with the hourglass running (60 s), its store, and a device service with a list of
    everything the devices said."""
    store = TableStore(tmp_path)
    table = Table.create(store, "obscurians", Setup(players=PLAYERS, deck="physical", seed=1), clock=FakeClock())
    table.apply(RevealEvent("no_swap"))
    table.timers.start("hourglass", 60)
    service = DeviceService(tmp_path, settle_after=0.05)
    seen = []
    service.subscribe(seen.append)
    return store, table, service, seen


def test_offered_simulated_devices_act_only_when_asked(tmp_path):
    """What an app with no hardware offers: five dice and a stand that do nothing until someone asks (table rule 8,
    docs/architecture.md); asked, a die throws and the stand turns over."""
    async def scenario():
        store, table, service, seen = hourglass_table_and_devices(tmp_path)
        try:
            added = await service.offer_simulated()
            assert added == ["sim://godice?count=5&seed=7", "sim://tablebus?kind=stand"]
            await until(lambda: all((service.manager.state(u) or ConnectionState()).state == "connected"
                                    for u in added), timeout=30)
            await until(lambda: len(service.manager.dice_of(added[0])) == 5)
            dice = service.manager.dice_of(added[0])
            for i, die in enumerate(dice):
                service.bind(die, "henchmen", i)
            service.attach(table)
            await asyncio.sleep(3)  # nobody asks: nothing moves
            assert not [o for o in seen if type(o).__name__ in ("DieRolling", "DieRolled", "StandFlipped")]
            assert table.log_length == 2 and table.timers.remaining("hourglass") == 60
            await service.throw(added[0])  # Roll all: the turn's roll, into the table
            await until(lambda: table.state.dice is not None)
            table.timers.clock.advance(20)
            await service.turn_over(added[1])  # Turn over: the hourglass is turned, as by a tap on it
            await until(lambda: any(type(o).__name__ == "StandFlipped" for o in seen))
            await until(lambda: table.timers.remaining("hourglass") == pytest.approx(20))
        finally:
            await service.close()
            store.close()

    asyncio.run(scenario())


def test_simulated_devices_that_play_by_themselves_never_reach_a_table(tmp_path):
    """A demo stand (`demo=1`, as earlier versions offered it) and dice that throw themselves (`every=`): shown on the
    devices screen, never played into a table — bound or not."""
    async def scenario():
        store, table, service, seen = hourglass_table_and_devices(tmp_path)
        demo_dice, demo_stand = "sim://godice?count=5&seed=4&every=0.3", "sim://tablebus?kind=stand&demo=1&seed=2"
        try:
            service.attach(table)
            await service.add(demo_dice)
            await service.add(demo_stand)
            await until(lambda: len(service.manager.dice_of(demo_dice)) == 5, timeout=30)
            for i, die in enumerate(service.manager.dice_of(demo_dice)):
                service.bind(die, "henchmen", i)
            await until(lambda: sum(type(o).__name__ == "DieRolled" for o in seen) >= 10
                        and any(type(o).__name__ in ("ButtonPressed", "StandFlipped") for o in seen), timeout=30)
            # the devices screen saw them throw, press and flip; the table and its glass never moved
            assert table.state.dice is None and table.log_length == 2
            assert table.timers.get("hourglass").running and table.timers.remaining("hourglass") == 60
            assert [e for e in table.store.events(table.id) if e.kind != "action"][-1].payload["op"] == "start"
        finally:
            await service.close()
            store.close()

    asyncio.run(scenario())


def test_a_simulated_camera_is_shown_and_never_plays_into_a_table(tmp_path):
    """A simulated camera (`sim://camera`, what the app offers to try the camera screen without one) renders throws
    that land by themselves: its settled throws and a Read dice are reported to the screens, never to the table —
    even with its dice bound to the henchmen (table rule 8)."""
    async def scenario():
        store, table, service, seen = hourglass_table_and_devices(tmp_path)
        url = "sim://camera?scene=dice&seed=5&moving=3&still=8"
        try:
            service.attach(table)
            await service.add(url)
            await until(lambda: any(type(o).__name__ == "DiceSettled" and len(o.dice) >= 5 for o in seen), timeout=60)
            settled = next(o for o in seen if type(o).__name__ == "DiceSettled" and len(o.dice) >= 5)
            for i, rolled in enumerate(settled.dice[:5]):
                service.bind(rolled.die, "henchmen", i)
            before = sum(type(o).__name__ == "DiceSettled" for o in seen)
            await service.manager.device(url).read_now()          # the camera screen's Read dice
            await until(lambda: sum(type(o).__name__ == "DiceSettled" for o in seen) >= before + 2, timeout=60)
            assert table.state.dice is None and table.log_length == 2 and service.door.question is None
        finally:
            await service.close()
            store.close()

    asyncio.run(scenario())


def test_unbound_dice_never_reach_the_game_and_a_damaged_settings_file_is_kept(tmp_path):
    async def scenario():
        store = TableStore(tmp_path)
        table = Table.create(store, "obscurians", Setup(players=PLAYERS, deck="physical", seed=1))
        table.apply(RevealEvent("no_swap"))
        service = DeviceService(tmp_path, settle_after=0.05)
        try:
            await service.add(DICE_URL)  # simulated dice, not bound: the devices screen sees them, the game not
            await until(lambda: service.manager.device(DICE_URL) is not None
                        and len(service.manager.device(DICE_URL).dice) == 5)
            service.attach(table)
            for die in service.manager.device(DICE_URL).dice:
                await die.roll(6)
            await asyncio.sleep(0.3)
            assert table.state.dice is None and table.log_length == 1
        finally:
            await service.close()
            store.close()

    asyncio.run(scenario())
    (tmp_path / SETTINGS).write_text("{ not json")
    service = DeviceService(tmp_path)
    assert "could not be read" in service.problem and service.devices == []
    assert (tmp_path / SETTINGS).read_text() == "{ not json"
    asyncio.run(service.close())
