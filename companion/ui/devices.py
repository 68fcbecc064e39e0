"""The devices screen (any game): find, add and remove dice and boards; see each one's connection, battery and
signal, and the last face every die showed, live; flash a die; say which shell a GoDice wears; bind dice to the places
the games read them from (the five henchmen dice …). With no radio and no board, simulated devices are offered, so
any desktop shows rolls: a simulated die is thrown only with its Roll button (or Roll all), a simulated stand turned
only with Turn over. A die is shown by its name, never by its radio address; a removed device leaves no rows behind.

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
from companion.session.devices import is_simulated, plays_by_itself
from firmware_bridge.errors import DeviceError
from firmware_bridge.observations import (GRID_CELLS, BatteryLevel, ButtonPressed, ConnectionChanged, DiceSettled,
                                          DieCrooked, DieIdentified, DieRolled, DieRolling, DieSetDown,
                                          SignalStrength, StandFlipped, TileGrid, TileRead)

from companion.ui.widgets.buttons import BigButton  # the shared widgets (and their kv rules) first
from companion.ui.widgets.panels import Panel

log = logging.getLogger(__name__)

STATE_WORDS = {
    "connecting": N_("connecting…"), "connected": N_("connected"), "lost": N_("connection lost"),
    "reconnecting": N_("reconnecting…"), "held_elsewhere": N_("held by another app"),
    "failed": N_("cannot be used"), "closed": N_("closed"),
}
# The labels of the simulated devices (companion/session/devices.py SIMULATED), translated where they are shown.
SIMULATED_TITLES = (N_("Simulated dice (5 GoDice)"), N_("Simulated hourglass stand"))
# The shells a GoDice can wear (it cannot tell which): (URL value, what the box calls it).
GODICE_SHELLS = (("d4", "D4"), ("d6", "D6"), ("d8", "D8"), ("d10", "D10"), ("d10x", "D10X"), ("d12", "D12"),
                 ("d20", "D20"))
KIND_TITLES = {"godice": N_("GoDice"), "pixels": N_("Pixels die"), "tablebus": N_("Table Bus board")}
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
        for obs in service.recent():  # the dice already here: by name, with their last face, from the first frame
            self._on_observation(obs)
        self._unsubscribe = service.subscribe(self._on_observation)
        if service.problem:
            self.message = service.problem
        self._run(self._probe_hardware())

    async def _probe_hardware(self) -> None:
        """Is there a radio or a USB board? Probing serial ports can take a while (udev): a worker thread, so the
        loop (the table, the dice) never waits for it; simulated devices are offered once the answer is no."""
        from companion.session.devices import hardware_present

        self.no_hardware = not await asyncio.to_thread(hardware_present)

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
            detail = (state.detail if state and state.state in ("held_elsewhere", "failed", "lost", "reconnecting")
                      else "")
            rgba = (OK_RGBA if state and state.state == "connected" else
                    BAD_RGBA if state and state.state in ("failed", "held_elsewhere") else WAIT_RGBA)
            last = self._last.get(url)
            shell = _shell_of(url)
            rows.append({"url": url, "title": self.device_title(entry), "detail": url,
                         "status": " · ".join(x for x in (word + (f" — {detail}" if detail else ""), last) if x),
                         "status_rgba": rgba,
                         "action": _action_of(url), "action_text": t(ACTIONS.get(_action_of(url), "")) if
                         _action_of(url) else "",
                         "shell_text": t(N_("Shell: {shell}")).format(shell=_shell_title(shell)) if shell else ""})
        self.devices = rows
        if self._cells:
            # Arrows as the compass letter: the app's font has no arrow glyphs (they would show as empty boxes).
            self.grid = [{"text": f"{tile} {direction}" if tile else "·"}
                         for tile, direction in (self._cells.get(i, (0, "N")) for i in range(GRID_CELLS))]
            source = next((self.device_title(d) for d in self.service.devices if d["url"] == self._grid_source), "")
            self.grid_title = t(N_("Tile map read by {board}")).format(board=source or _short(self._grid_source))
        self.offer_simulated = self.no_hardware and not self.service.simulated
        # A game whose dice stand for pieces on the board binds them on its own screen (a die on a corner).
        roles = [(role, i) for name in games.names() if not games.get(name).has("dice_placed_at_table")
                 for role, n in games.get(name).dice_roles.items() for i in range(n)]
        present = {d["url"] for d in self.service.devices}
        dice = []
        for die, seen in self._dice_in_order(present):
            bound = self.service.manager.bindings.binding(die)
            source = seen.get("source", "")
            dice.append({
                "die": die, "title": self.die_title(die, seen),
                "face": "?" if seen.get("rolling") else ("⟂" if seen.get("crooked") else str(seen.get("face", "–"))),
                "detail": " · ".join(x for x in (
                    t(N_("set down by hand")) if seen.get("set_down") else "",
                    t(N_("battery {n}%")).format(n=seen["battery"]) if "battery" in seen else "",
                    t(N_("signal {n} dBm")).format(n=seen["rssi"]) if "rssi" in seen else "",
                    t(N_("bound to {place}")).format(place=_place(t, bound.role, bound.index)) if bound else
                    t(N_("not bound: its rolls reach no game")),
                ) if x),
                "can_roll": is_simulated(source) and not plays_by_itself(source),
                "places": [{"die": die, "role": role, "index": i, "text": _place(t, role, i, short=True),
                            "selected": bound is not None and (bound.role, bound.index) == (role, i)}
                           for role, i in roles],
            })
        self.dice = dice

    def _dice_in_order(self, present: set[str]):
        """The dice of the devices still here, device by device in the group's order, each device's dice by id."""
        order = {url: i for i, url in enumerate(d["url"] for d in self.service.devices)}
        kept = [(die, seen) for die, seen in self._dice.items() if seen.get("source") in present]
        return sorted(kept, key=lambda kv: (order.get(kv[1].get("source"), 0), kv[0]))

    def device_title(self, entry: dict) -> str:
        return device_title(self.app, entry)

    def die_title(self, die: str, seen: dict) -> str:
        """A die by its name (as it advertises itself, with its shell or type and colour); until it has said who it
        is, by the device it belongs to — never by its radio address."""
        if seen.get("name"):
            return seen["name"]
        source = seen.get("source", "")
        entry = next((d for d in self.service.devices if d["url"] == source), None)
        siblings = sorted(d for d, s in self._dice.items() if s.get("source") == source)
        device = self.device_title(entry) if entry else self.app.t(N_("a device"))
        if len(siblings) > 1 and die in siblings:
            return self.app.t(N_("Die {n} of {device}")).format(n=siblings.index(die) + 1, device=device)
        return device

    # -- intents (one per tap) -------------------------------------------------------------------------------------
    def scan(self) -> None:
        if not self.scanning:
            self.scanning = True
            self._run(self._scan())

    def add(self, url: str, label: str = "") -> None:
        self._run(self._add(url, label))

    def add_simulated(self) -> None:
        self._run(self._add_simulated())

    def remove(self, url: str) -> None:
        self._run(self.service.remove(url))

    def flash(self, die: str) -> None:
        from firmware_bridge.commands import Blink

        self._run(self.service.manager.command(die, Blink((90, 160, 255), count=3)))

    def roll(self, die_or_url: str) -> None:
        """Throw a simulated die (its Roll button) or all the dice of a simulated device (Roll all)."""
        self._run(self.service.throw(die_or_url))

    def device_action(self, url: str) -> None:
        """A device row's own button: Roll all (simulated dice), Turn over (a simulated stand), Open camera."""
        action = _action_of(url)
        if action == "camera":
            self.app.show_camera(url)
        elif action == "roll":
            self.roll(url)
        elif action == "turn_over":
            self._run(self.service.turn_over(url))

    def ask_camera(self) -> None:
        """Add a camera by its address: camera://0 when this machine has one, else a simulated camera to try."""
        t = self.app.t
        self.app.ask_text(t(N_("The camera's address: camera://0, a photo file://…/photo.jpg, or sim://camera")),
                          default_camera_url(), lambda url: self.add(url.strip(), "") if url.strip() else None)

    def choose_shell(self, url: str, found: bool = False) -> None:
        """Ask which shell a GoDice wears (the die cannot tell): a d20 shell read as a d6 gives wrong faces."""
        t = self.app.t
        title = next((r["title"] for r in (self.found if found else self.devices) if r["url"] == url), "")
        current = _shell_of(url)
        options = [{"text": label + (" ✓" if value == current else ""),
                    "action": (lambda v=value: self._set_shell(url, v, found))} for value, label in GODICE_SHELLS]
        self.app.choose_sheet(t(N_("Which shell does {device} wear?")).format(device=title), options)

    def _set_shell(self, url: str, shell: str, found: bool) -> None:
        new_url = _with_param(url, "shell", shell)
        if found:  # not added yet: the Add button will add it with this shell
            self.found = [dict(r, url=new_url, shell_text=self.app.t(N_("Shell: {shell}")).format(
                shell=_shell_title(shell))) if r["url"] == url else r for r in self.found]
            return
        self._run(self.service.replace(url, new_url))

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
        err = None if task.cancelled() else task.exception()
        if isinstance(err, DeviceError):
            self.app.say(str(err))
        elif err is not None:
            log.error("device task failed", exc_info=err)
            self.app.say(self.app.t(N_("Something went wrong with a device: {what}")).format(what=err))
        self._redraw()

    async def _add(self, url: str, label: str = "") -> None:
        from firmware_bridge.device import parse_url

        parse_url(url)  # an address that can never work is refused in one line (the banner) before it is kept
        await self.service.add(url, label)
        self.found = [r for r in self.found if r["url"] != url]
        self.message = self.app.t(N_("Added {device}")).format(device=label or self.device_title({"url": url}))

    async def _add_simulated(self) -> None:
        added = await self.service.offer_simulated()
        self.message = self.app.t(N_("Simulated dice and an hourglass stand added. Roll the dice with their Roll "
                                     "buttons; bind them to play with them at a table.")) if added else ""

    async def _scan(self) -> None:
        """Boards on USB serial first (listed at once), then what Bluetooth hears; either may be missing."""
        from firmware_bridge.tablebus.ports import serial_boards

        known = {d["url"] for d in self.service.devices}
        # Listing serial ports probes the system (udev, sysfs): a worker thread, so the table's loop never waits.
        ports, _problem = await asyncio.to_thread(serial_boards)
        found = [{"url": p.url, "title": p.title, "shell_text": "",
                  "detail": self.app.t(N_("USB board")) + (f" · {p.ids}" if p.ids else "")}
                 for p in ports if p.url not in known]
        self.found = found
        no_radio = ""
        t = self.app.t
        try:
            from firmware_bridge.ble.scan import discover

            heard = await discover(timeout=4.0)
            found += [{"url": f.url, "title": f.name or t(KIND_TITLES.get(f.kind, N_("a device"))),
                       "detail": f"{t(KIND_TITLES[f.kind]) if f.kind in KIND_TITLES else f.kind} · {f.rssi} dBm",
                       "shell_text": t(N_("Shell: {shell}")).format(shell=_shell_title(_shell_of(f.url)))
                       if _shell_of(f.url) else ""}
                      for f in heard if f.url and f.url not in known]
        except DeviceError as err:
            no_radio = self.app.t(N_("No Bluetooth here ({reason}). You can add simulated dice.")).format(reason=err)
        finally:
            self.scanning = False
        self.found = list(found)
        self.message = no_radio or ("" if found else self.app.t(N_("No dice or boards heard nearby.")))

    def _on_observation(self, obs) -> None:
        if isinstance(obs, DiceSettled):   # a camera (or a tray) reports its dice together: a row for each
            for rolled in obs.dice:
                self._on_observation(rolled)
            return
        die = getattr(obs, "die", None) or getattr(obs, "device", None)
        if isinstance(obs, (DieRolled, DieRolling, DieCrooked, DieIdentified, DieSetDown)):
            seen = self._dice.setdefault(obs.die, {})
            seen["source"] = self.service.source_of(obs.die) or obs.source
            if not isinstance(obs, DieIdentified):
                seen["rolling"] = isinstance(obs, DieRolling)
                seen["crooked"] = isinstance(obs, DieCrooked)
                seen["set_down"] = isinstance(obs, DieSetDown)
            if isinstance(obs, (DieRolled, DieSetDown)):
                seen["face"] = obs.face
            if isinstance(obs, DieIdentified):
                name = obs.name if obs.name and obs.name.upper() != obs.die else ""  # an address is no name
                seen["name"] = " ".join(x for x in (name or self.app.t(KIND_TITLES.get(obs.kind, N_("a device"))),
                                                    obs.model, obs.colour) if x)
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


def device_title(app, entry: dict) -> str:
    """What the group called a device; the simulated devices' own labels translated; else what it is (the devices
    screen and a game's dice menu name a device alike)."""
    label = entry.get("label", "")
    if label in SIMULATED_TITLES:
        return app.t(label)
    if label:
        return label
    url = entry["url"]
    kind = _kind_of(url)
    if is_simulated(url) and kind in ("godice", "pixels"):
        from urllib.parse import parse_qs, urlsplit

        count = parse_qs(urlsplit(url).query).get("count", ["1"])[-1]
        return app.t(N_("Simulated {kind}: {n}")).format(kind=app.t(KIND_TITLES[kind]), n=count)
    if _action_of(url) == "camera":
        from companion.ui.camera import camera_title

        return camera_title(app, url)
    return app.t(KIND_TITLES[kind]) if kind in KIND_TITLES else _short(url)


def _short(url: str) -> str:
    return url.split("?")[0]


ACTIONS = {"roll": N_("Roll all"), "turn_over": N_("Turn over"), "camera": N_("Open camera")}


def default_camera_url() -> str:
    """camera://0 where a camera is plugged in; elsewhere (a desktop, CI) a simulated one that throws dice."""
    return "camera://0" if any(Path("/dev").glob("video*")) else "sim://camera?scene=dice&seed=7"


def _kind_of(url: str) -> str | None:
    from firmware_bridge.device import parse_url

    try:
        parsed = parse_url(url)
    except DeviceError:
        return None
    return parsed.kind or (parsed.address if parsed.scheme == "sim" else None) or \
        ("tablebus" if parsed.scheme == "serial" else None)


def _action_of(url: str) -> str:
    """The button a device row offers besides Remove: simulated dice are thrown, a simulated stand turned, a camera
    opened."""
    from companion.ui.camera import is_camera

    if is_camera(url):
        return "camera"
    if not is_simulated(url) or plays_by_itself(url):
        return ""
    from urllib.parse import parse_qs, urlsplit

    parts = urlsplit(url)
    if parts.netloc in ("godice", "pixels"):
        return "roll"
    if parts.netloc == "tablebus" and parse_qs(parts.query).get("kind", [""])[-1] == "stand":
        return "turn_over"
    return ""


def _shell_of(url: str) -> str:
    """The shell a GoDice device URL gives its dice ("" for anything but GoDice; d6 when a sim URL says none)."""
    if _kind_of(url) != "godice":
        return ""
    from urllib.parse import parse_qs, urlsplit

    return parse_qs(urlsplit(url).query).get("shell", ["d6"])[-1]


def _shell_title(shell: str) -> str:
    return dict(GODICE_SHELLS).get(shell, shell.upper())


def _with_param(url: str, key: str, value: str) -> str:
    from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != key] + [(key, value)]
    return urlunsplit(parts._replace(query=urlencode(query)))


def _place(t, role: str, index, short: bool = False) -> str:
    if role == "henchmen":
        return (t(N_("H{n}")) if short else t(N_("henchmen die {n}"))).format(n=int(index) + 1)
    if role == "obelisk" and isinstance(index, int):   # Obelisk: a corner of the 6 x 6 grid, row x 6 + column
        return t(N_("the Obelisk on corner {corner}")).format(corner=f"{'ABCDEF'[index % 6]}{index // 6 + 1}")
    return f"{role} {index}"


# Rows the model publishes as dicts (each field a key of that dict); their looks are in device_rows.kv.
class DeviceRow(Panel):
    url = StringProperty("")
    title = StringProperty("")
    detail = StringProperty("")
    status = StringProperty("")
    status_rgba = ListProperty([1, 1, 1, 1])
    action = StringProperty("")        # "roll", "turn_over" or "" (simulated devices act only when asked)
    action_text = StringProperty("")
    shell_text = StringProperty("")    # "Shell: D6" for a GoDice device, "" otherwise


class DieRow(Panel):
    die = StringProperty("")
    title = StringProperty("")
    face = StringProperty("")
    detail = StringProperty("")
    can_roll = BooleanProperty(False)  # a simulated die: its Roll button throws it
    places = ListProperty()


class PlaceButton(BigButton):
    die = StringProperty("")
    role = StringProperty("")
    index = NumericProperty(0)


class FoundRow(Panel):
    url = StringProperty("")
    title = StringProperty("")
    detail = StringProperty("")
    shell_text = StringProperty("")


class DevicesScreen(Screen):
    model = ObjectProperty(None, rebind=True)


Builder.load_file(str(Path(__file__).with_name("device_rows.kv")))  # the pieces first, then the screen
Builder.load_file(str(Path(__file__).with_suffix(".kv")))
