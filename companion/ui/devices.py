"""The devices screen (any game): find, add and remove dice and boards; see each one's connection, battery and
signal, and the last face every die showed, live; flash a die; bind dice to the places the games read them from
(the five henchmen dice …). With no radio and no board, simulated devices are offered, so any desktop shows rolls.

`DevicesModel` is the view-model over the app's DeviceService (companion/session/devices.py); `DevicesScreen` is
layout only (devices.kv). Device work is asynchronous and runs on the app's one asyncio loop; readings arrive there
too, and bursts are drawn once per frame (Clock.create_trigger).
"""
from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from kivy.clock import Clock
from kivy.event import EventDispatcher
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.games.errors import N_
from companion.session import games
from firmware_bridge.errors import DeviceError
from firmware_bridge.observations import (GRID_CELLS, BatteryLevel, ButtonPressed, ConnectionChanged, DieCrooked,
                                          DieIdentified, DieRolled, DieRolling, SignalStrength, StandFlipped,
                                          TileGrid, TileRead)

from companion.ui.widgets import BigButton, Panel  # the shared widgets (and their kv rules) first

log = logging.getLogger(__name__)

STATE_WORDS = {
    "connecting": N_("connecting…"), "connected": N_("connected"), "lost": N_("connection lost"),
    "reconnecting": N_("reconnecting…"), "held_elsewhere": N_("held by another app"),
    "failed": N_("cannot be used"), "closed": N_("closed"),
}
# The labels of the simulated devices (companion/session/devices.py SIMULATED), translated where they are shown.
SIMULATED_TITLES = (N_("Simulated dice (5 GoDice)"), N_("Simulated hourglass stand"))
OK_RGBA, WAIT_RGBA, BAD_RGBA = [0.30, 0.80, 0.45, 1], [0.95, 0.75, 0.25, 1], [0.95, 0.40, 0.35, 1]


class DevicesModel(EventDispatcher):
    devices = ListProperty()      # one row per device URL
    dice = ListProperty()         # one row per die seen
    found = ListProperty()        # what the last scan heard
    grid = ListProperty()         # the last tile map a board read: 25 cells, row by row (empty: no board has read one)
    grid_title = StringProperty("")
    scanning = BooleanProperty(False)
    no_hardware = BooleanProperty(False)
    offer_simulated = BooleanProperty(False)  # no radio or board here, and no simulated devices added yet
    message = StringProperty("")

    def __init__(self, app, service, **kwargs):
        super().__init__(**kwargs)
        self.app = app
        self.service = service
        self._dice: dict[str, dict] = {}      # die id -> what we know of it
        self._last: dict[str, str] = {}       # device URL -> its last reading that is not a die (a board's flip)
        self._cells: dict[int, tuple[int, str]] = {}  # the tile map: cell -> (tile id, arrow)
        self._grid_source = ""
        self._redraw = Clock.create_trigger(lambda dt: self.refresh())
        self._unsubscribe = service.subscribe(self._on_observation)
        from companion.session.devices import hardware_present

        self.no_hardware = not hardware_present()
        if service.problem:
            self.message = service.problem

    def close(self) -> None:
        self._unsubscribe()

    # -- what the screen shows -------------------------------------------------------------------------------------
    def refresh(self) -> None:
        t = self.app.t
        rows = []
        for entry in self.service.devices:
            url = entry["url"]
            state = self.service.manager.state(url)
            word = t(STATE_WORDS.get(state.state, state.state)) if state else t(N_("starting…"))
            detail = (state.detail if state and state.state in ("held_elsewhere", "failed", "lost") else "")
            rgba = (OK_RGBA if state and state.state == "connected" else
                    BAD_RGBA if state and state.state in ("failed", "held_elsewhere") else WAIT_RGBA)
            last = self._last.get(url)
            label = entry["label"]  # as the group typed it; the simulated devices' own labels translated
            rows.append({"url": url, "title": (self.app.t(label) if label in SIMULATED_TITLES else label)
                         or _short(url),
                         "detail": url,
                         "status": " · ".join(x for x in (word + (f" — {detail}" if detail else ""), last) if x),
                         "status_rgba": rgba})
        self.devices = rows
        if self._cells:
            # Arrows as the compass letter: the app's font has no arrow glyphs (they would show as empty boxes).
            self.grid = [{"text": f"{tile} {direction}" if tile else "·"}
                         for tile, direction in (self._cells.get(i, (0, "N")) for i in range(GRID_CELLS))]
            source = next((d["label"] for d in self.service.devices if d["url"] == self._grid_source), "")
            self.grid_title = t(N_("Tile map read by {board}")).format(board=source or _short(self._grid_source))
        self.offer_simulated = self.no_hardware and not self.service.simulated
        roles = [(role, i) for name in games.names() for role, n in games.get(name).dice_roles.items()
                 for i in range(n)]
        dice = []
        for die, seen in sorted(self._dice.items()):
            bound = self.service.manager.bindings.binding(die)
            dice.append({
                "die": die, "title": seen.get("name") or die,
                "face": "?" if seen.get("rolling") else ("⟂" if seen.get("crooked") else str(seen.get("face", "–"))),
                "detail": " · ".join(x for x in (
                    t(N_("battery {n}%")).format(n=seen["battery"]) if "battery" in seen else "",
                    t(N_("signal {n} dBm")).format(n=seen["rssi"]) if "rssi" in seen else "",
                    t(N_("bound to {place}")).format(place=_place(t, bound.role, bound.index)) if bound else
                    t(N_("not bound: its rolls reach no game")),
                ) if x),
                "places": [{"die": die, "role": role, "index": i, "text": _place(t, role, i, short=True),
                            "selected": bound is not None and (bound.role, bound.index) == (role, i)}
                           for role, i in roles],
            })
        self.dice = dice

    # -- intents (one per tap) -------------------------------------------------------------------------------------
    def scan(self) -> None:
        if not self.scanning:
            self.scanning = True
            self._run(self._scan())

    def add(self, url: str) -> None:
        self._run(self._add(url))

    def add_simulated(self) -> None:
        self._run(self._add_simulated())

    def remove(self, url: str) -> None:
        self._run(self.service.remove(url))

    def flash(self, die: str) -> None:
        from firmware_bridge.commands import Blink

        self._run(self.service.manager.command(die, Blink((90, 160, 255), count=3)))

    def bind(self, die: str, role: str, index: int) -> None:
        bound = self.service.manager.bindings.binding(die)
        if bound is not None and (bound.role, bound.index) == (role, index):
            self.service.unbind(die)  # a second tap on the same place takes the die off it
        else:
            self.service.bind(die, role, index)
        self.refresh()

    # -- internals -----------------------------------------------------------------------------------------------
    def _run(self, coro) -> None:
        task = asyncio.ensure_future(coro)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task) -> None:
        err = task.exception()
        if isinstance(err, DeviceError):
            self.app.say(str(err))
        elif err is not None:
            log.error("device task failed", exc_info=err)
            self.app.say(self.app.t(N_("Something went wrong with a device: {what}")).format(what=err))
        self._redraw()

    async def _add(self, url: str) -> None:
        await self.service.add(url)
        self.message = self.app.t(N_("Added {device}")).format(device=_short(url))

    async def _add_simulated(self) -> None:
        added = await self.service.offer_simulated()
        self.message = self.app.t(N_("Simulated dice and an hourglass stand added: they roll by themselves. Bind "
                                     "them to play with them.")) if added else ""

    async def _scan(self) -> None:
        """Boards on USB serial first (listed at once), then what Bluetooth hears; either may be missing."""
        from firmware_bridge.tablebus.ports import serial_boards

        known = {d["url"] for d in self.service.devices}
        ports, _problem = serial_boards()
        found = [{"url": p.url, "title": p.title, "detail": self.app.t(N_("USB board")) + (f" · {p.ids}" if p.ids
                                                                                           else "")}
                 for p in ports if p.url not in known]
        self.found = found
        no_radio = ""
        try:
            from firmware_bridge.ble.scan import discover

            heard = await discover(timeout=4.0)
            found += [{"url": f.url, "title": f.name or f.address, "detail": f"{f.kind} · {f.rssi} dBm"}
                      for f in heard if f.url and f.url not in known]
        except DeviceError as err:
            no_radio = self.app.t(N_("No Bluetooth here ({reason}). You can add simulated dice.")).format(reason=err)
        finally:
            self.scanning = False
        self.found = list(found)
        self.message = no_radio or ("" if found else self.app.t(N_("No dice or boards heard nearby.")))

    def _on_observation(self, obs) -> None:
        die = getattr(obs, "die", None) or getattr(obs, "device", None)
        if isinstance(obs, (DieRolled, DieRolling, DieCrooked, DieIdentified)):
            seen = self._dice.setdefault(obs.die, {})
            seen["rolling"] = isinstance(obs, DieRolling)
            seen["crooked"] = isinstance(obs, DieCrooked)
            if isinstance(obs, DieRolled):
                seen["face"] = obs.face
            if isinstance(obs, DieIdentified):
                seen["name"] = " ".join(x for x in (obs.name or obs.kind, obs.model, obs.colour) if x)
        elif isinstance(obs, BatteryLevel) and die in self._dice:
            self._dice[die]["battery"] = obs.percent
        elif isinstance(obs, SignalStrength) and die in self._dice:
            self._dice[die]["rssi"] = obs.rssi
        elif isinstance(obs, TileGrid):
            self._cells = {c.cell: (c.tile, c.direction) for c in obs.cells}
            self._grid_source = obs.source
        elif isinstance(obs, TileRead):
            self._cells[obs.cell] = (obs.tile, obs.direction)
            self._grid_source = obs.source
        elif isinstance(obs, (StandFlipped, ButtonPressed)):
            t = self.app.t
            self._last[obs.source] = (t(N_("turned over")) if isinstance(obs, StandFlipped)
                                      else t(N_("button {n} pressed")).format(n=obs.button))
        elif not isinstance(obs, ConnectionChanged):
            return
        self._redraw()


def _short(url: str) -> str:
    return url.split("?")[0]


def _place(t, role: str, index, short: bool = False) -> str:
    if role == "henchmen":
        return (t(N_("H{n}")) if short else t(N_("henchmen die {n}"))).format(n=int(index) + 1)
    return f"{role} {index}"


# Rows the model publishes as dicts (each field a key of that dict); their looks are in devices.kv.
class DeviceRow(Panel):
    url = StringProperty("")
    title = StringProperty("")
    detail = StringProperty("")
    status = StringProperty("")
    status_rgba = ListProperty([1, 1, 1, 1])


class DieRow(Panel):
    die = StringProperty("")
    title = StringProperty("")
    face = StringProperty("")
    detail = StringProperty("")
    places = ListProperty()


class PlaceButton(BigButton):
    die = StringProperty("")
    role = StringProperty("")
    index = NumericProperty(0)


class FoundRow(Panel):
    url = StringProperty("")
    title = StringProperty("")
    detail = StringProperty("")


class DevicesScreen(Screen):
    model = ObjectProperty(None, rebind=True)


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
