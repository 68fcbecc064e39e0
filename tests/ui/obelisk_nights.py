"""Touch helpers for Obelisk's Nights. A 2-player table of seed 23 brought to its second Night by touch — the Day's
Obelisks around the Portal, Night 1's captures as the advisor plans them, Dawn, both players done on Day 2 — so that
demons stand on the map before they move."""
from __future__ import annotations

SEED = 23   # its map and Dark Realm leave two demons on the map after Night 1, and Night 2 can be saved


async def new_table(d, app) -> None:
    await d.new_game("obelisk", "obelisk-setup")
    for seat, name in zip(sorted(d.by_class("ObeliskSeat"), key=lambda w: w.index), ("Ana", "Ben")):
        await d.type_text(seat.ids.name, name)
    await d.tap(d.by_id("start"))
    await d.wait_screen("obelisk-table")


async def build_around_the_portal(d) -> None:
    from companion.games.obelisk.actions import Build

    model = d.model
    pr, pc = model.state.map.portal
    for corner in [(pr, pc), (pr, pc + 1), (pr + 1, pc), (pr + 1, pc + 1)]:
        s = model.state
        who = next((c for c in s.acting if s.is_legal(Build(c, corner))), None)
        if who is not None:
            await d.enter(Build(who, corner))


async def advised_capture(d) -> bool:
    """Tap the advisor's capture (the first row, in gold) when there is one."""
    table = d.app.table
    rows = sorted(d.by_class("ObeliskCapture"), key=lambda w: w.value)
    if not rows or not rows[0].selected:
        return False
    n = len(table.actions)
    await d.tap(rows[0])
    await d.until(lambda: len(table.actions) > n, "the capture", 5)
    return True


async def to_second_night(d, app) -> None:
    """From Home to Night 2 before the demons move (phase "march", demons on the map)."""
    from companion.games.obelisk.actions import Pass

    await new_table(d, app)
    await build_around_the_portal(d)
    table, model = app.table, d.model
    await d.close_moment()
    while model.state.is_night:
        await d.close_moment()
        if not await advised_capture(d):
            n = len(table.actions)
            await d.button("dawn")
            await d.until(lambda: len(table.actions) > n, "Dawn", 5)
    for colour in model.state.acting:
        await d.enter(Pass(colour))
    await d.close_moment()
    while await advised_capture(d):   # captures before the demons move
        pass
