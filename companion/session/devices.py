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
from firmware_bridge.bindings import BindingTable
from firmware_bridge.errors import DeviceError
from firmware_bridge.manager import DeviceManager
from firmware_bridge.observations import (ButtonPressed, DiceSettled, DieCrooked, DieRolled, DieRolling,
                                          DieSetDown, Observation, StandFlipped)

log = logging.getLogger(__name__)

SETTINGS = "devices.json"
SETTLE_AFTER = 0.35  # seconds without a dice reading before a throw counts as settled (dice land a moment apart)
# A die that said it started rolling and then nothing (out of range mid-throw, a firmware that stays silent when put
# back): after this long the throw settles without it, so the table never waits for ever (its reading, if it comes,
# is a throw of its own).
GIVE_UP_AFTER = 8.0
STAND_TIMER = "hourglass"
# Offered when no radio or board is present: (URL, label) — five dice and an hourglass stand that act only when
# someone asks them to (the Roll and Turn over buttons): nothing simulated plays into a real game by itself.
# The devices screen shows these labels in the players' language (companion/ui/devices.py SIMULATED_TITLES).
SIMULATED = (("sim://godice?count=5&seed=7", "Simulated dice (5 GoDice)"),
             ("sim://tablebus?kind=stand", "Simulated hourglass stand"))
_DICE = (DieRolling, DieRolled, DieCrooked, DiceSettled, DieSetDown)


def plays_by_itself(source: str) -> bool:
    """A simulated device that acts without anyone asking: a board in demo mode (`sim://tablebus?…&demo=1`, as offered
    by earlier versions), dice that throw themselves (`sim://godice?…&every=4`), or a simulated camera (`sim://camera`:
    its rendered dice land by themselves, and even its *Read dice* reads a throw nobody made). What it does is shown on
    the devices and camera screens but never reaches a table (table rule 8, docs/architecture.md: a simulated device
    acts only when someone asks it to)."""
    if not source.startswith("sim://"):
        return False
    if urlsplit(source).netloc == "camera":
        return True
    query = parse_qs(urlsplit(source).query)
    if query.get("demo", ["0"])[-1] == "1":
        return True
    try:
        return float(query.get("every", ["0"])[-1]) > 0
    except ValueError:
        return False


def is_simulated(source: str) -> bool:
    return source.startswith("sim://")


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
                 settle_after: float = SETTLE_AFTER, give_up_after: float = GIVE_UP_AFTER):
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
        self.give_up_after = give_up_after
        self._carried: dict[str, set[str]] = {}    # new URL → the dice it had under its old URL (a changed shell)
        # die → {observation type → the last one}: what a screen opened later shows at once (its name, its face)
        self._last_seen: dict[str, dict[str, Observation]] = {}
        self._waiting_since: float | None = None   # loop time the settled throw started waiting for a rolling die
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
        """Forget a device: it disconnects, and its dice lose their places (a removed die leaves nothing behind)."""
        dice = set(self.manager.dice_of(url)) | self._carried.pop(url, set())
        await self.manager.remove(url)
        self.devices = [d for d in self.devices if d["url"] != url]
        for die in dice:
            self.manager.bindings.unbind(die)
        self._save()
        self._rebind_door()

    async def replace(self, url: str, new_url: str) -> None:
        """Open the same device under another URL (a GoDice's shell changed), keeping its label, its place in the
        list and its dice's places. DeviceError (one line) when the new URL can never work; the old one stays."""
        from firmware_bridge.device import parse_url

        parse_url(new_url)  # a URL that can never work is refused before anything changes
        entry = next((d for d in self.devices if d["url"] == url), None)
        if entry is None or new_url == url:
            return
        # The dice are the same dice: until they report through the new URL, they still belong to this device.
        self._carried[new_url] = set(self.manager.dice_of(url)) | self._carried.pop(url, set())
        await self.manager.remove(url)
        await self.manager.add(new_url)
        entry["url"] = new_url
        self._save()

    async def throw(self, die_or_url: str) -> None:
        """Throw a simulated die (its id), or all the dice of a simulated device (its URL): the Roll buttons.
        DeviceError for a real die: a hand throws it."""
        from firmware_bridge.commands import Throw

        await self.manager.command(die_or_url, Throw())

    async def turn_over(self, url: str) -> None:
        """Turn a simulated hourglass stand over (its Turn over button)."""
        from firmware_bridge.commands import TurnOver

        await self.manager.command(url, TurnOver())

    def source_of(self, die: str) -> str | None:
        """The URL of the device a die reports through (None for a die no device has reported)."""
        return self.manager.url_of(die)

    def simulated_dice(self, role: str) -> list[tuple[int, str]]:
        """(index, die) of the dice bound to `role` that are simulated and thrown only when asked: the table's Roll
        buttons throw these."""
        out = []
        for index, die in sorted(self.manager.bindings.role(role).items(), key=lambda kv: str(kv[0])):
            source = self.source_of(die) or ""
            if is_simulated(source) and not plays_by_itself(source) and isinstance(index, int):
                out.append((index, die))
        return out

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
        self._rebind_door()

    def unbind(self, die: str) -> None:
        self.manager.bindings.unbind(die)
        self._save()
        self._rebind_door()

    def _rebind_door(self) -> None:
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
        self._waiting_since = None

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

    def recent(self) -> list[Observation]:
        """The last observation of each kind from each die still here, oldest first (a screen opened later starts from
        these: every die with its name, face and battery, not only those that rolled since)."""
        present = {d["url"] for d in self.devices}
        out = [o for die, seen in self._last_seen.items() if self.source_of(die) in present for o in seen.values()]
        return sorted(out, key=lambda o: getattr(o, "at", 0.0))

    def _route(self, obs: Observation) -> None:
        die = getattr(obs, "die", None) or getattr(obs, "device", None)
        if isinstance(die, str) and not isinstance(obs, (DiceSettled, ButtonPressed, StandFlipped)):
            self._last_seen.setdefault(die, {})[type(obs).__name__] = obs
        for listener in list(self._listeners):
            try:
                listener(obs)
            except Exception:
                log.exception("device listener %r failed", listener)
        if self.door is not None and isinstance(obs, _DICE):
            if plays_by_itself(obs.source):
                return  # simulated dice throwing themselves (a demo) are shown, never played into a table
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
            now = asyncio.get_event_loop().time()
            if self._waiting_since is None:
                self._waiting_since = now
            if now - self._waiting_since < self.give_up_after:
                self._schedule_settle()  # a die is still rolling: wait for it
                return
            door.stop_waiting()  # it said nothing for too long: the throw is what the other dice showed
        self._waiting_since = None
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
