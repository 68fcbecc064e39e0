"""Smart dice standing on the Obelisks' corners (issue 18 §4): the group tells the app which die stands on which
corner — Menu → *Smart dice on the map*, the die, then a tap on its corner — and from then on a die set down or turned
by hand proposes the Obelisk's strength: the shell's dice question (companion/ui/dice_at_table.py) lists the moves it
can mean (who built, who reinforced with what), one tap each, or *No, leave it*. Nothing is played by a die alone.

Where a die stands is kept with the devices (devices.json: role "obelisk", index the corner, companion/games/obelisk/
dice.py), so it holds when the table is closed and reopened, or the app restarted, until the group moves it.
"""
from __future__ import annotations

from companion.games.errors import N_
from companion.games.obelisk import words
from companion.games.obelisk.dice import ROLE, corner_of, index_of

MENU = N_("Smart dice on the map")
CHOOSE = N_("Which die? It then stands on the corner you tap")
NONE = N_("No smart die here: add dice on Dice and boards (Home)")
DIE = N_("Die {n} of {device}")
ON = N_("{die}: on corner {corner}")
OFF = N_("{die}: not on the map")
TAKE_OFF = N_("Take {die} off the map")
TAP = N_("Tap the corner {die} stands on")
BOUND = N_("{die} stands on corner {corner}: set down or turned, its face proposes the Obelisk's strength")
TAKEN_OFF = N_("{die} is off the map: its face proposes nothing now")


class ObeliskDice:
    """The table's part: which die stands where, and the tap that puts a die on a corner."""

    def __init__(self, model):
        self.model = model
        self.placing: str | None = None   # the die waiting for the tap on its corner

    @property
    def app(self):
        return self.model.app

    @property
    def service(self):
        return getattr(self.app, "devices", None)

    def dice(self) -> list[tuple[str, str]]:
        """(die id, name as the table says it) of every die of the devices the group added, in their order."""
        from companion.ui.devices import device_title

        service = self.service
        if service is None:
            return []
        out = []
        for entry in service.devices:
            ids = service.manager.dice_of(entry["url"])
            label = device_title(self.app, entry)
            for n, die in enumerate(ids):
                out.append((die, self.app.t(DIE).format(n=n + 1, device=label) if len(ids) > 1 else label))
        return out

    def corner_of(self, die: str):
        """The corner `die` stands on, or None."""
        bound = self.service.manager.bindings.binding(die) if self.service is not None else None
        if bound is None or bound.role != ROLE or not isinstance(bound.index, int):
            return None
        return corner_of(bound.index)

    def standing(self) -> dict:
        """{corner: die} of the dice standing on the map (drawn on it)."""
        out = {}
        for die, _ in self.dice():
            corner = self.corner_of(die)
            if corner is not None:
                out[corner] = die
        return out

    # -- taps --------------------------------------------------------------------------------------------------------
    def open(self) -> None:
        """Menu → Smart dice on the map: each die, where it stands; a tap picks it (then its corner), or takes it off."""
        t = self.app.t
        dice = self.dice()
        if not dice:
            self.app.say(t(NONE))
            return
        options = []
        for die, name in dice:
            corner = self.corner_of(die)
            text = (t(ON).format(die=name, corner=words.corner(corner)) if corner is not None
                    else t(OFF).format(die=name))
            options.append({"text": text, "action": (lambda d=die, n=name: self.pick(d, n))})
            if corner is not None:
                options.append({"text": t(TAKE_OFF).format(die=name), "action": (lambda d=die, n=name: self.off(d, n))})
        self.model.plugin.pick(t(CHOOSE), options)

    def pick(self, die: str, name: str) -> None:
        self.placing = die
        self.app.say(self.app.t(TAP).format(die=name))

    def off(self, die: str, name: str) -> None:
        self.placing = None
        self.service.unbind(die)
        self.model.refresh()
        self.app.say(self.app.t(TAKEN_OFF).format(die=name))

    def tap_corner(self, corner) -> bool:
        """A corner tapped while a die waits for its place: it stands there now (True: the tap was this)."""
        if self.placing is None or self.service is None:
            return False
        die, self.placing = self.placing, None
        self.service.bind(die, ROLE, index_of(corner))
        name = dict(self.dice()).get(die, die)
        self.model.refresh()
        self.app.say(self.app.t(BOUND).format(die=name, corner=words.corner(corner)))
        return True
