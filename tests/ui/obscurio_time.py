"""What the Obscurio driver does for the clock and the night (tests/ui/test_obscurio_resume.py,
tests/ui/test_obscurio_night_screen.py): each scenario only taps and moves the fake clock, and reports what the
screen showed. The `hang` ones end by waiting to be killed (kill -9); the next process reopens the table from Home.
"""
from __future__ import annotations

from tests.ui.obscurio_scenarios import (
    NIGHT, TABLE, _open_button, acknowledge, banner, close_checklist, new_table, place, state, through_step_3,
)


def _glass(f) -> dict:
    return {"time": f.by_id("time").text, "space": state(f).space,
            "remaining": round(f.app.table.timers.remaining("hourglass"), 3)}


async def reopen(f, screen: str) -> None:
    await f.wait_screen("home")
    rows = [r for r in f.by_class("TableItem") if r.resume]
    await f.tap(_open_button(rows[0]))
    await f.wait_screen(screen)


# -- the clock: the glass turns with the first card, Undo gives no time back, a restart neither ----------------------

async def hang(f, args) -> dict:
    """Step 4: before the first card the glass waits; turned, 20 s; two chips; the sand runs out (space 2), 3 s
    more (0:57); Undo of a chip: the chip goes, the glass and the track stay. Then wait to be killed."""
    out = {}
    await new_table(f, args)
    await through_step_3(f, turn=False)
    await f.advance(45)                                   # the Grimoire still shuffles: no sand falls
    out["before_first_card"] = _glass(f)
    out["hint_before"] = f.by_id("glass_hint").text
    from tests.ui.fit import control_places, moved, window_box

    before = control_places(f.screen())
    first_card = window_box(f.by_id("first_card"))
    await f.tap(f.by_id("first_card"))
    # Nothing moves when the glass is turned: "All agreed" takes the place "First card down" had.
    out["moved_by_first_card"] = moved(before, control_places(f.screen()))
    out["done_where_first_card_was"] = window_box(f.by_id("done")) == first_card
    await f.advance(20)
    out["after_20s"] = _glass(f)
    await place(f, "blue", 3)
    await place(f, "green", 2)
    await f.advance(40)                                   # the first glass runs out: onto space 2
    await f.advance(3)
    out["before_undo"] = _glass(f)
    out["undo_text"] = f.by_id("undo").text
    await f.tap(f.by_id("undo"))                          # Undo: Cruz: door 2
    out["after_undo"] = {**_glass(f), "green": state(f).door_of("green"), "blue": state(f).door_of("blue")}
    out["redo_text"] = f.by_id("redo").text
    out.update(table_id=f.app.table.id, wall=f.clock.wall(), hang=True)
    return out


async def resume(f, args) -> dict:
    """Reopen the unfinished table from Home by touch; the hourglass shows the time the sand really has left, the
    time track where the time took it, and Redo still names the move it plays again."""
    await reopen(f, TABLE)
    out = {"table_id": f.app.table.id, "phase": state(f).phase, "door": state(f).door_of("blue"),
           "green": state(f).door_of("green"), "redo_text": f.by_id("redo").text, **_glass(f)}
    left = f.app.table.timers.remaining("hourglass")
    await f.advance(left - 0.5)
    out["space_before"] = state(f).space
    await f.advance(0.5)
    out["space_after"] = state(f).space
    out["time_after"] = f.by_id("time").text
    await f.tap(f.by_id("redo"))
    out["green_after_redo"] = state(f).door_of("green")
    return out


# -- the night: killed where it stood, it goes on from there --------------------------------------------------------

def _night(f) -> dict:
    narrator = f.app.plugin.narrator
    left = narrator.remaining()
    return {"screen": f.app.sm.current, "line": f.by_id("line").text if f.app.sm.current == NIGHT else "",
            "index": narrator.index, "waiting": narrator.waiting,
            "remaining": None if left is None else round(left, 3), "phase": state(f).phase}


async def night_hang(f, args) -> dict:
    """The night, stopped on its 3rd line with 1 s of its pause gone; then wait to be killed."""
    await new_table(f, args)
    await f.wait_screen(TABLE)
    await f.tap(f.by_id("draw"))
    await acknowledge(f)
    await f.tap(f.by_id("riddle"))
    await f.wait_screen(NIGHT)
    await f.tap(f.by_id("next_line"))
    await f.tap(f.by_id("next_line"))
    await f.advance(1)
    return {**_night(f), "table_id": f.app.table.id, "wall": f.clock.wall(), "hang": True}


async def night_resume(f, args) -> dict:
    """Reopened: the same line, with the pause it had left; then on to the Traitor's choice, where it is killed."""
    await reopen(f, NIGHT)
    out = {"reopened": _night(f), "said_again": list(f.app.plugin.speaker.said)}
    while not f.app.plugin.narrator.waiting:
        await f.tap(f.by_id("next_line"))
    await f.advance(300)
    out["choice"] = _night(f)
    return {**out, "wall": f.clock.wall(), "hang": True}


async def night_choice(f, args) -> dict:
    """Reopened at the Traitor's choice: it still waits; the card holder closed, the last lines, step 4 — killed
    there."""
    await reopen(f, NIGHT)
    out = {"reopened": _night(f)}
    await f.tap(f.by_id("close_holder"))
    while f.app.sm.current == NIGHT:
        await f.tap(f.by_id("next_line"))
    await f.wait_screen(TABLE)
    out["after"] = {"screen": f.app.sm.current, "phase": state(f).phase}
    return {**out, "wall": f.clock.wall(), "hang": True}


async def night_over(f, args) -> dict:
    """Reopened after the night: step 4, the night not played again."""
    await reopen(f, TABLE)
    await f.frames(4)
    return {"screen": f.app.sm.current, "phase": state(f).phase, "narrating": f.app.plugin.narrator.running,
            "said": list(f.app.plugin.speaker.said), "waiting_glass": f.app.plugin.gameclock.waiting}


# -- the night's options: a countdown set at setup, pause, the masking sound and the sound switch ------------------

async def night_options(f, args) -> dict:
    out = {}
    sounds = f.app.sounds
    await f.wait_screen("home")
    await f.tap(f.by_class("GameCard", game="obscurio")[0].ids.new_button)
    await f.wait_screen("obscurio-setup")
    for _ in range(2):
        await f.tap(f.by_id("countdown").children[0])   # + : a 30 s countdown for the Traitor's choice
    out["countdown_text"] = f.app.plugin.setup.countdown_text
    await f.tap(f.by_id("start"))
    await f.frames(3)
    await close_checklist(f)
    await f.wait_screen(TABLE)
    await f.tap(f.by_id("draw"))
    await acknowledge(f)
    await f.tap(f.by_id("riddle"))
    await f.wait_screen(NIGHT)
    out["heard_in_the_night"] = sorted(sounds.heard)
    await f.tap(f.by_id("close_holder"))                  # too early: the Traitor has not been asked yet
    out["close_too_early"] = banner(f)
    # Pause: the line stays, its pause does not run; Go on says it again.
    line = f.by_id("line").text
    await f.tap(f.by_id("pause"))
    await f.advance(120)
    out["paused"] = {"line_kept": f.by_id("line").text == line, "button": f.by_id("pause").text,
                     "count": f.by_id("count").text}
    said = len(f.app.plugin.speaker.said)
    await f.tap(f.by_id("pause"))
    out["resumed"] = {"said_again": f.app.plugin.speaker.said[said:], "button": f.by_id("pause").text}
    # The sound switch (Menu): the masking sound goes with it, and comes back.
    await f.tap(f.by_id("menu"))
    await f.frames(2)
    await f.tap(f.app.sheet.ids.sound)
    out["heard_muted"] = sorted(sounds.heard)
    await f.tap(f.app.sheet.ids.sound)
    out["heard_again"] = sorted(sounds.heard)
    f.app.close_sheet()
    await f.frames(2)
    while not f.app.plugin.narrator.waiting:
        await f.tap(f.by_id("next_line"))
    await f.advance(29)
    out["countdown_1s"] = {"text": f.by_id("countdown").text, "phase": state(f).phase}
    await f.advance(1)                                    # time is up: the card holder is closed
    out["after_countdown"] = {"phase": state(f).phase, "decoys": state(f).decoys}
    while f.app.sm.current == NIGHT:
        await f.tap(f.by_id("next_line"))
    await f.wait_screen(TABLE)
    out["heard_after_the_night"] = sorted(sounds.heard)
    out["loops"] = sounds.loops
    return out

