"""Entering Obelisk moves on the real table screen by touch: a move the engine's seeded random player chose becomes
the taps a player makes (a player's row, a corner or a tile of the map, an action button, a payment in the picker,
a capture in the list). Shared by the Obelisk UI tests (tests/ui/test_obelisk_*.py)."""
from __future__ import annotations

import time

from companion.games.obelisk import payments
from companion.games.obelisk.actions import (
    Aim, Build, Capture, Charge, Dawn, Decipher, March, Mine, Nightfall, Pass, Reinforce, Reroll, Roll, Rotate, Spawn,
)
from companion.games.obelisk.model import DIRECTIONS
from companion.games.obelisk.randplay import random_action
from tests.ui.touch import Stuck, Touch

CODES = {Mine: "mine", Pass: "pass", Nightfall: "nightfall", March: "march", Dawn: "dawn", Rotate: "rotate"}


def offered(s, actor, corner) -> list:
    """The payments the picker offers for the Obelisk on `corner` (the valid sets the Quarry can pay)."""
    return [p for p in payments.sensible(s, actor) if s.is_legal(Reinforce(actor, corner, p))]


def same_capture(s, a, b) -> bool:
    """Two captures alike for the table: one Obelisk, one step, demons of one colour with the same past."""
    da, db = s.demon(a.demon), s.demon(b.demon)
    return (a.obelisk, a.step, da.colour, da.visited, da.walked) == (b.obelisk, b.step, db.colour, db.visited,
                                                                     db.walked)


def charge_way(s, action):
    """The way the screen offers to charge `action`'s Scroll (companion/ui/obelisk/charges.py), or None."""
    from companion.ui.obelisk import charges

    for way in charges.ways(s, action.player, action.obelisk).get(action.scroll, ()):
        if way.action(action.player, action.obelisk, action.pay) == action:
            return way
    return None


def choose(s, rng):
    """The seeded random player's next move, as the screen can enter it (a payment the picker offers; a Scroll
    charged one of the ways the screen offers)."""
    from companion.ui.obelisk import charges

    action = random_action(s, rng)
    if isinstance(action, Charge) and charge_way(s, action) is None:
        shown = charges.ways(s, action.player, action.obelisk).get(action.scroll)
        if not shown:
            return Pass(action.player)
        pays = [p for p in payments.sensible(s, action.player)
                if s.is_legal(shown[0].action(action.player, action.obelisk, p))]
        action = shown[0].action(action.player, action.obelisk, pays[0])
    if isinstance(action, Reinforce):
        options = offered(s, action.player, action.obelisk)
        if action.pay not in options:
            action = Reinforce(action.player, action.obelisk, options[0])
    return action


class ObeliskFinger(Touch):
    frames_after_tap = 2

    def __init__(self, app):
        super().__init__(app)
        self.pickers: list[list[str]] = []   # the texts of every payment picker opened, in order

    @property
    def model(self):
        return self.app.plugin_for("obelisk").table_model

    def map(self):
        return self.by_id("map")

    async def tap_corner(self, corner) -> None:
        m = self.map()
        await self.tap_at(*m.to_window(*m.corner_point(corner)))

    async def tap_cell(self, cell) -> None:
        m = self.map()
        await self.tap_at(*m.to_window(*m.cell_centre(cell)))

    async def close_moment(self) -> str:
        """An announcement over the screen (the Night falling, the end) is read and tapped away, as the group does;
        its title, or "" when there was none."""
        sheet = self.app.sheet
        if sheet is None or type(sheet).__name__ != "MomentSheet":
            return ""
        title = sheet.title
        await self.tap(sheet)
        await self.frames(2)
        return title

    async def pick(self, text: str) -> None:
        """Tap the option of the open sheet that says `text`."""
        sheet = self.app.sheet
        options = [w for w in sheet.walk(restrict=True) if type(w).__name__ == "MenuExtra"] if sheet else []
        pick = next((w for w in options if w.text == text), None)
        if pick is None:
            raise Stuck(f"the sheet offers {[w.text for w in options]}, not {text!r} (banner {self.app.banner!r})")
        await self.tap(pick)
        await self.frames(2)

    async def button(self, code: str) -> None:
        found = [w for w in self.by_class("ObeliskAction") if w.value == code]
        if not found:
            raise Stuck(f"no {code} button on {self.app.sm.current}")
        await self.tap(found[0])

    async def player(self, colour: str) -> None:
        row = next(w for w in self.by_class("ObeliskPlayer") if w.value == colour)
        if not row.selected:
            await self.tap(row)

    async def enter(self, action) -> None:
        """The touches that make `action` on the table screen (then a wait until the table took it: a tap in the
        scrolled list reaches its button a moment later, as Kivy's ScrollView tells a tap from a scroll)."""
        await self.close_moment()
        s = self.model.state
        n = len(self.app.table.actions)
        player = getattr(action, "player", None)
        if player is not None and s.phase == "day":
            await self.player(player)
        if isinstance(action, Build):
            await self.tap_corner(action.corner)
        elif isinstance(action, Reinforce):
            await self.tap_corner(action.obelisk)
            await self.frames(2)
            name = s.setup.name_of(action.player)
            from companion.ui.obelisk.texts import pay_words

            want = pay_words(action.pay, name, self.app.t)
            sheet = self.app.sheet
            if sheet is None:
                raise Stuck(f"no payment picker (banner: {self.app.banner!r})")
            options = [w for w in sheet.walk(restrict=True) if type(w).__name__ == "MenuExtra"]
            self.pickers.append([w.text for w in options])
            pick = next((w for w in options if w.text == want), None)
            if pick is None:
                raise Stuck(f"the picker offers {[w.text for w in options]}, not {want!r}")
            await self.tap(pick)
        elif isinstance(action, Rotate):
            for cell, facing in action.tiles:
                others = [f for f in DIRECTIONS if f != s.map[cell].facing]
                for _ in range(others.index(facing) + 1):
                    await self.tap_cell(cell)
            await self.button("rotate")
        elif isinstance(action, Capture):
            index = next(i for i, c in enumerate(self.model._captures) if same_capture(s, c, action))
            row = next(w for w in self.by_class("ObeliskCapture") if w.value == index)
            await self.tap(row)
        elif isinstance(action, Charge):
            from companion.games.obelisk.vocabulary import SCROLL
            from companion.ui.obelisk.texts import pay_words

            t = self.app.t
            way = charge_way(s, action)
            await self.tap_corner(action.obelisk)
            await self.frames(2)
            await self.pick(t("Charge {scroll}").format(scroll=t(SCROLL[action.scroll])))
            from companion.ui.obelisk import charges

            if len(charges.ways(s, action.player, action.obelisk)[action.scroll]) > 1:
                await self.pick(way.said(t))
            await self.pick(pay_words(action.pay, s.setup.name_of(action.player), t))
        elif isinstance(action, (Aim, Reroll)):
            from companion.ui.obelisk import charges

            t = self.app.t
            said = next(charges.said(m, p, t)
                        for m, p, a in charges.runes(s, action.player, action.obelisk) if a == action)
            await self.tap_corner(action.obelisk)
            await self.frames(2)
            await self.pick(said)
        elif isinstance(action, Spawn):
            for colour in action.demons:
                await self.button(f"draw_{colour}")
            await self.button("spawn")
        elif isinstance(action, Decipher):
            await self.button(("decipher", action.scroll))
        elif isinstance(action, Roll):
            await self.button(("roll", action.roll))
        elif type(action) in CODES:
            await self.button(CODES[type(action)])
        else:
            raise Stuck(f"the screen has no way to enter {action!r}")
        deadline = time.monotonic() + 2
        while len(self.app.table.actions) == n and time.monotonic() < deadline:
            await self.frames(1)
        await self.frames(1)
