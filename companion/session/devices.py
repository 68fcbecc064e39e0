"""The app's devices: a DeviceManager on the app's one asyncio loop, what the group set up (which devices, which die
is whose) kept in the data folder, and the routing of what the devices report into the open table.

    dice (DieRolling/DieRolled/DieCrooked/DiceSettled) ──▶ the open table's ObservationDoor (bindings of the game's
                                                            dice roles; a throw is settled after a quiet moment)
    the hourglass stand (StandFlipped, ButtonPressed)  ──▶ the open table's timers: a flip turns the hourglass
                                                            over, the button pauses or resumes it — like a tap
    everything                                         ──▶ listeners (the devices screen: status, battery, rolls)

Nothing here knows a game's rules: the door asks the game (Game.dice_action) and the engine judges.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
from pathlib import Path
from urllib.parse import parse_qs, urlsplit
from typing import Callable

from companion.games.errors import InvalidInput
from companion.session.jsontext import loads
from firmware_bridge.errors import DeviceError
from firmware_bridge.manager import BindingTable, DeviceManager
from firmware_bridge.observations import (ButtonPressed, DiceSettled, DieCrooked, DieRolled, DieRolling,
                                          Observation, StandFlipped)

log = logging.getLogger(__name__)

SETTINGS = "devices.json"
SETTLE_AFTER = 0.35  # seconds without a dice reading before a throw counts as settled (dice land a moment apart)
STAND_TIMER = "hourglass"
# Offered when no radio or board is present: (URL, label) — five dice and an hourglass stand that play by themselves.
# The devices screen shows these labels in the players' language (companion/ui/devices.py SIMULATED_TITLES).
SIMULATED = (("sim://godice?count=5&seed=7", "Simulated dice (5 GoDice)"),
             ("sim://tablebus?kind=stand&demo=1", "Simulated hourglass stand"))
_DICE = (DieRolling, DieRolled, DieCrooked, DiceSettled)


def plays_by_itself(source: str) -> bool:
    """A simulated board in demo mode (`sim://…&demo=1`, as offered with no hardware) flips and presses by itself:
    what it does is shown, but never reaches a table, as a simulated die never does unless the group binds it."""
    if not source.startswith("sim://"):
        return False
    return parse_qs(urlsplit(source).query).get("demo", ["0"])[-1] == "1"


def hardware_present() -> bool:
    """Is there a Bluetooth adapter or a serial board to talk to? (False in a container, CI, most desktops.)"""
    if any(Path("/sys/class/bluetooth").glob("hci*")):
        return True
    try:
        from serial.tools import list_ports

        return any(p.vid is not None for p in list_ports.comports())  # USB serial: a board may be there
    except Exception:  # pyserial's port probing differs per platform; a failure means "none we can see"
        return False


class DeviceService:
    def __init__(self, data_dir: str | Path, *, manager: DeviceManager | None = None,
                 settle_after: float = SETTLE_AFTER):
        self.path = Path(data_dir) / SETTINGS
        self.devices: list[dict] = []        # [{"url", "label"}] in the order the group added them
        bindings = BindingTable()
        self._load_problem: str | None = None
        try:
            self.devices, bindings = _read(self.path)
        except ValueError as err:  # a damaged settings file is reported, kept, and not used
            self._load_problem = f"{self.path.name} could not be read ({err}); it was left as it is"
        self.manager = manager or DeviceManager(bindings=bindings)
        if manager is not None:
            self.manager.bindings = bindings
        self.settle_after = settle_after
        self.door = None
        self.timers = None
        self._listeners: list[Callable[[Observation], None]] = []
        self._settle_handle = None
        self._unsubscribe = self.manager.subscribe(self._route)

    @property
    def problem(self) -> str | None:
        """Why the saved devices were not loaded (a damaged devices.json), for the screen to say."""
        return self._load_problem

    # -- what the group set up -------------------------------------------------------------------------------------
    async def start(self) -> None:
        """Connect every saved device (each keeps reconnecting on its own; none can stop the others)."""
        for entry in self.devices:
            await self._add(entry["url"])

    async def add(self, url: str, label: str = "") -> None:
        """Add a device by URL and keep it; DeviceError (one line) for a URL that can never work."""
        await self._add(url)
        if all(d["url"] != url for d in self.devices):
            self.devices.append({"url": url, "label": label})
            self._save()

    async def remove(self, url: str) -> None:
        await self.manager.remove(url)
        self.devices = [d for d in self.devices if d["url"] != url]
        self._save()

    async def offer_simulated(self) -> list[str]:
        """With no radio and no board, add simulated dice and a simulated board so the app shows live readings.
        They are not bound to any game: a simulated roll never reaches a real table unless the group binds it."""
        added = []
        for url, label in SIMULATED:
            try:
                await self.add(url, label)
                added.append(url)
            except DeviceError as err:
                log.info("simulated device %s not available: %s", url, err)
        return added

    @property
    def simulated(self) -> bool:
        """Some of the devices are simulated (sim://)."""
        return any(d["url"].startswith("sim://") for d in self.devices)

    def bind(self, die: str, role: str, index) -> None:
        self.manager.bindings.bind(die, role, index)
        self._save()
        if self.door is not None:
            self.door.bindings = self._door_bindings()

    def unbind(self, die: str) -> None:
        self.manager.bindings.unbind(die)
        self._save()
        if self.door is not None:
            self.door.bindings = self._door_bindings()

    async def _add(self, url: str) -> None:
        await self.manager.add(url)

    def _save(self) -> None:
        data = {"version": 1, "devices": self.devices, "bindings": self.manager.bindings.to_json()}
        tmp = self.path.with_name(self.path.name + ".part")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as err:
            log.warning("device settings not saved: %s", err)

    # -- the open table --------------------------------------------------------------------------------------------
    def attach(self, table, **door_callbacks) -> object:
        """Route readings into `table`: its ObservationDoor (returned, for the screen's questions) and its timers."""
        from companion.session.observe import ObservationDoor

        self.timers = table.timers
        self.door = ObservationDoor(table, {}, on_feedback=self._flash, **door_callbacks)
        self.door.bindings = self._door_bindings()
        return self.door

    def detach(self) -> None:
        self.door, self.timers = None, None
        self._cancel_settle()

    def _door_bindings(self) -> dict:
        roles = self.door.game.dice_roles if self.door is not None else {}
        return {die: (b.role, b.index) for die, b in self.manager.bindings
                if b.role in roles and isinstance(b.index, int) and 0 <= b.index < roles[b.role]}

    def _flash(self, dice) -> None:
        """Flash the dice the table must roll again (a crooked landing)."""
        from firmware_bridge.commands import Blink

        for die in dice:
            asyncio.ensure_future(self._command(die, Blink((255, 80, 0), count=4)))

    def light(self, role: str, indices, colour=(255, 170, 0)) -> None:
        """Light the dice bound to `role` at `indices` (the dice the players picked to roll again) and turn the
        role's other dice off; `light(role, ())` turns them all off."""
        from firmware_bridge.commands import LightUp

        wanted = set(indices)
        for die, b in self.manager.bindings:
            if b.role == role:
                on = b.index in wanted
                asyncio.ensure_future(self._command(die, LightUp(colour if on else (0, 0, 0))))

    async def _command(self, die: str, command) -> None:
        try:
            await self.manager.command(die, command)
        except DeviceError as err:  # a die out of range cannot blink: the question on screen still says it
            log.info("could not signal %s: %s", die, err)

    # -- routing -----------------------------------------------------------------------------------------------------
    def subscribe(self, listener: Callable[[Observation], None]) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _route(self, obs: Observation) -> None:
        for listener in list(self._listeners):
            try:
                listener(obs)
            except Exception:
                log.exception("device listener %r failed", listener)
        if self.door is not None and isinstance(obs, _DICE):
            self.door.observe(obs)  # DiceSettled settles at once; single dice wait for a quiet moment
            if not isinstance(obs, DiceSettled):
                self._schedule_settle()
        elif (self.timers is not None and isinstance(obs, (StandFlipped, ButtonPressed))
              and not plays_by_itself(obs.source)):
            self._stand(obs)  # a demo board's own flips are for the devices screen, never for a real table

    def _schedule_settle(self) -> None:
        self._cancel_settle()
        loop = asyncio.get_event_loop()
        self._settle_handle = loop.call_later(self.settle_after, self._settle)

    def _cancel_settle(self) -> None:
        if self._settle_handle is not None:
            self._settle_handle.cancel()
            self._settle_handle = None

    def _settle(self) -> None:
        self._settle_handle = None
        door = self.door
        if door is None:
            return
        if door.busy():
            self._schedule_settle()  # a die is still rolling: wait for it
            return
        try:
            door.settle()
        except Exception:  # the door turns readings into questions; a failure to save is logged, not fatal
            log.exception("a settled throw could not be applied")

    def _stand(self, obs) -> None:
        """The hourglass stand does what a tap on the hourglass does: a flip turns it over, the button pauses."""
        timer = self.timers.get(STAND_TIMER)
        if timer is None:
            return
        if isinstance(obs, StandFlipped):
            self.timers.flip(STAND_TIMER)
        elif timer.running:
            self.timers.pause(STAND_TIMER)
        else:
            self.timers.resume(STAND_TIMER)

    async def close(self) -> None:
        self._cancel_settle()
        self._unsubscribe()
        await self.manager.close()


def _read(path: Path) -> tuple[list[dict], BindingTable]:
    """The saved devices and bindings; ValueError (one line) for a file that is not ours."""
    if not path.exists():
        return [], BindingTable()
    try:
        data = loads(path.read_bytes())
    except OSError as err:
        raise ValueError(f"not readable: {err.strerror or type(err).__name__}") from None
    except InvalidInput as err:  # not JSON, or JSON read silently otherwise (a key twice): one line naming it
        raise ValueError(str(err)) from None
    if not isinstance(data, dict) or not isinstance(data.get("devices"), list):
        raise ValueError("expected {\"devices\": [...], \"bindings\": {...}}")
    devices = []
    for i, d in enumerate(data["devices"]):
        if not (isinstance(d, dict) and isinstance(d.get("url"), str) and isinstance(d.get("label", ""), str)):
            raise ValueError(f"devices[{i}]: expected {{\"url\": ..., \"label\": ...}}")
        devices.append({"url": d["url"], "label": d.get("label", "")})
    bindings = BindingTable.from_json(data.get("bindings", {"version": 1, "bindings": []}))
    return devices, bindings
