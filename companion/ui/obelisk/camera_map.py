"""The Obelisk map read by a camera (issue 19 §4, §6): the tiles' marker stickers (vision/tiles.py) propose, the
players confirm — as with the tile-grid board (board.py).

- At setup, **Read the camera** shows the camera's photo with each cell boxed and read ("FE", amber "??" where no
  sticker could be read: a hand, glare), and *Use this map* makes it the group's map. A cell the camera could not
  read is never guessed: it stays "??" on the map, drawn as a question mark, and the game does not start until the
  group has tapped it and said which tile lies there (land, then arrow).
- During the Day, **Camera: read the map** (the table's menu) compares the photo with the app's map: a tile lying
  where the app has it but pointing elsewhere is a proposed Rotate, put on the map for the players to confirm with
  Rotate (the engine checks it: a marker, the budget); a tile turned back takes its proposal back; anything no Rotate
  makes is said, and nothing is applied.

No Kivy at import (the comparisons are tested without a window); `setup_map.SetupMap` draws an unread cell.
"""
from __future__ import annotations

import asyncio
import logging

from companion.games.errors import N_

log = logging.getLogger(__name__)

UNKNOWN = "??"
NO_CAMERA = N_("No camera yet: add one in Dice and boards (camera://0, or a photo file://…).")
NO_PICTURE = N_("The camera gives no picture yet{detail}.")
NO_STICKERS = N_("No map stickers found in the picture.")
FAILED = N_("The camera could not read this: {what}")
QUESTION = N_("The map on the photo: check it against the table")
USE = N_("Use this map")
UNREAD = N_("Not read ({n}, shown ??): {cells}. Tap them on the map and say which tile lies there.")
ALL_READ = N_("Every cell read.")
OBELISKS_SEEN = N_("{n} dice on tile corners: Obelisks are built during the Day, they are not part of the setup.")
FILL_LAND = N_("Which tile lies on {cell}?")
FILL_WAY = N_("{land} on {cell}: which way does its arrow point?")
NO_TILE = N_("No tile (an empty space)")
START_UNREAD = N_("Say which tile lies on {cells} first: tap them on the map (the camera could not read them)")
TURNED = N_("The camera: {cells} was turned. Tap Rotate to confirm, or turn it back")
TURNED_MANY = N_("The camera: {cells} were turned. Tap Rotate to confirm, or turn them back")
SAME = N_("The camera sees the map as the app has it")
OTHER = N_("The camera: {cells} changed in a way no Rotate makes. Put the tiles back as the map shows")
NIGHT = N_("The camera: {cells} turned at Night. Nobody may touch the map now: put the tiles back as the map shows")
FILL_HINT = N_("Tap each ? on the map and say which tile lies there")
NOT_SEEN = N_("{n} cells not read (a hand, glare): nothing is guessed there")
MENU = N_("Camera: read the map")
AT_TABLE = N_("Back shows the proposal on the table's map.")


# ------------------------------------------------------------------------------------------ plain functions

def words(text: str) -> list[list[str]]:
    """The map notation's cells, 5 rows of 5 words (as typed: not checked)."""
    return [row.split() for row in text.split("/")]


def unread(text: str) -> list[tuple[int, int]]:
    """The cells of a map text still marked unknown ("??"), row by row."""
    return [(r, c) for r, row in enumerate(words(text)) for c, w in enumerate(row) if w == UNKNOWN]


def filled(text: str, cell: tuple[int, int], word: str) -> str:
    """The map text with `cell` now `word` ("FE", "--")."""
    rows = words(text)
    rows[cell[0]][cell[1]] = word
    return " / ".join(" ".join(row) for row in rows)


def compare(game_map, cells: list[list[str]]):
    """The camera's cells against the app's map: ({cell: new arrow} for tiles that lie as the app has them but point
    elsewhere, [cells that point as the app has them], [cells no Rotate explains], [cells not read])."""
    turned, same, other, unseen = {}, [], [], []
    for r in range(5):
        for c in range(5):
            seen, lying = cells[r][c], game_map[(r, c)]
            if seen == UNKNOWN:
                unseen.append((r, c))
            elif lying is None or seen == "--":
                (same if lying is None and seen == "--" else other).append((r, c))
            elif seen[0] != lying.kind:
                other.append((r, c))
            elif seen[1] != lying.facing:
                turned[(r, c)] = seen[1]
            else:
                same.append((r, c))
    return turned, same, other, unseen


def cell_boxes(reading, t) -> list[dict]:
    """A box per map cell on the photo (from the reading's plane), labelled with what was read; amber when unread."""
    import cv2
    import numpy as np

    from companion.ui import photo

    if reading.homography is None:
        return []
    rows = []
    for r in range(5):
        for c in range(5):
            square = np.array([[c - .45, r - .45], [c + .45, r - .45], [c + .45, r + .45], [c - .45, r + .45]])
            corners = cv2.perspectiveTransform(square.reshape(-1, 1, 2), reading.homography).reshape(-1, 2)
            x0, y0 = corners.min(0)
            x1, y1 = corners.max(0)
            seen = reading.cells[r][c]
            rows.append({"box": [float(x0), float(y0), float(x1), float(y1)], "text": seen,
                         "rgba": photo.DOUBT_RGBA if seen == UNKNOWN else photo.SURE_RGBA})
    return rows


# ----------------------------------------------------------------------------------------- the camera, asked once

def read(app, done) -> None:
    """Read the map on the first camera's newest picture in a worker thread; `done(image, reading)` on the app's
    loop when it has markers, else the reason is said."""
    from companion.ui.camera import first_camera

    t = app.t
    url = first_camera(app)
    if url is None:
        app.say(t(NO_CAMERA))
        return
    device = app.devices.manager.device(url)
    if device is None or getattr(device, "last_frame", None) is None:
        app.say(t(NO_PICTURE).format(detail=""))
        return
    from vision.tiles import read_map

    def finished(task) -> None:
        err = None if task.cancelled() else task.exception()
        if err is not None:
            log.error("the camera could not read the map", exc_info=err)
            app.say(t(FAILED).format(what=err))
            return
        image, reading = task.result()
        if not reading.markers:
            app.say(t(NO_STICKERS))
            return
        app.dismiss_banner()         # "Reading the map…" is over
        done(image, reading)

    app.say(t(N_("Reading the map…")))
    asyncio.ensure_future(device.look(read_map)).add_done_callback(finished)


# ---------------------------------------------------------------------------------------------------- the setup

def propose_setup(setup) -> None:
    """Setup: the photo with its cells, and the map read; used as the group's map once they say so."""
    read(setup.app, lambda image, reading: _ask_setup(setup, image, reading))


def _ask_setup(setup, image, reading) -> None:
    from companion.games.obelisk.model import cell_name
    from companion.ui.obelisk import SETUP
    from companion.ui.photo import PhotoConfirmSheet

    t = setup.app.t
    if setup.app.screen != SETUP:
        return                       # the group left the setup while the camera read: nothing to ask
    lines = [" ".join(row) for row in reading.cells]
    gaps = [tuple(rc) for rc in reading.unknown]
    lines.append(t(UNREAD).format(n=len(gaps), cells=", ".join(cell_name(c) for c in gaps)) if gaps else t(ALL_READ))
    if reading.obelisks:
        lines.append(t(OBELISKS_SEEN).format(n=len(reading.obelisks)))
    sheet = PhotoConfirmSheet(question=t(QUESTION), lines="\n".join(lines), yes_text=t(USE))
    sheet.yes_action = lambda: setup.use_camera_map(reading.notation)
    setup.app.open_sheet(sheet)
    sheet.show(image, cell_boxes(reading, t))


def ask_cell(setup, cell) -> None:
    """An unread cell tapped at setup: which land (or none), then which way its arrow points."""
    from companion.games.obelisk.model import cell_name
    from companion.games.obelisk.vocabulary import LAND
    from companion.ui.obelisk.board import ORDER
    from companion.ui.obelisk.texts import WAY

    t, name = setup.app.t, cell_name(cell)

    def land(kind):
        setup.plugin.pick(t(FILL_WAY).format(land=t(LAND[kind]), cell=name), [
            {"text": t(WAY[d]), "action": (lambda d=d: setup.fill_cell(cell, kind + d))} for d in "NESW"])

    setup.plugin.pick(t(FILL_LAND).format(cell=name),
                      [{"text": t(LAND[kind]), "action": (lambda kind=kind: land(kind))} for kind in ORDER]
                      + [{"text": t(NO_TILE), "action": lambda: setup.fill_cell(cell, "--")}])


def picture(text: str, t) -> dict:
    """The group's map with unread cells, for the setup's drawing: an unread cell is drawn as "?" (setup_map.py)."""
    from companion.games.errors import InvalidInput
    from companion.games.obelisk.notation import cell_from_text
    from companion.ui.obelisk.texts import land_word

    rows = words(text)
    if len(rows) != 5 or any(len(row) != 5 for row in rows):
        return {}
    tiles = []
    for r, row in enumerate(rows):
        for c, w in enumerate(row):
            if w == UNKNOWN:
                tiles.append(((r, c), UNKNOWN))
                continue
            try:
                tile = cell_from_text(w, "map")
            except InvalidInput:
                return {}
            tiles.append(((r, c), None if tile is None else (tile.kind, tile.facing, False, None,
                                                             land_word(tile.kind, t))))
    return {"tiles": tiles, "routes": [], "demons": [], "obelisks": []}


# ------------------------------------------------------------------------------------------------------ the Day

def propose_turns(model) -> None:
    """The open table: the camera's tiles against the app's map; turned tiles become the proposed Rotate."""
    read(model.app, lambda _image, reading: turns_seen(model, reading.cells))


def turns_seen(model, cells) -> None:
    if model.table is None:
        return
    turns, said = judge(model.state, model.pending, model.actor, model._refusal, model.app.t, cells)
    if turns is not None and turns != model.pending:
        model.pending = turns
        model.refresh()
    model.app.say(said)


def judge(s, pending: dict, actor, refusal, t, cells) -> tuple[dict | None, str]:
    """The camera's cells against the table `s` with the turns proposed so far: (the turns to propose now, or None
    to leave them as they are; what to say)."""
    from companion.games.obelisk.actions import Rotate
    from companion.games.obelisk.model import cell_name
    from companion.ui.obelisk import texts

    turned, same, other, unseen = compare(s.map, cells)

    def names(cs):
        return ", ".join(cell_name(c) for c in sorted(cs))

    tail = (" · " + t(NOT_SEEN).format(n=len(unseen))) if unseen else ""
    if other:
        return None, t(OTHER).format(cells=names(other)) + tail
    if s.is_night or s.is_over:
        return None, (t(NIGHT).format(cells=names(turned)) if turned else t(SAME)) + tail
    turns = {c: d for c, d in pending.items() if c not in same}     # a tile turned back: no longer proposed
    turns.update(turned)
    if not turns:
        return turns, t(SAME) + tail
    why = refusal(Rotate(actor, tuple(turns.items())), s) if actor else t(texts.NO_ONE)
    if why is not None:
        return None, why + tail
    return turns, t(TURNED if len(turns) == 1 else TURNED_MANY).format(cells=names(turns)) + tail


def seen_from_camera_screen(plugin, reading) -> str:
    """The camera screen (opened from the table's menu: the table stays open, its screen released) read the map:
    the turns it sees are judged against the open table as the menu's reading is, and kept for the table's map,
    where they are shown proposed when the group goes back; what the table says is returned for the camera's
    status."""
    s = plugin.app.table.state
    actor = s.acting[0] if s.acting else None
    turns, said = judge(s, plugin.camera_turns, actor, plugin.table_model._refusal, plugin.app.t, reading.cells)
    if turns is not None:
        plugin.camera_turns, plugin.camera_table = turns, plugin.app.table
    return said + ("\n" + plugin.app.t(AT_TABLE) if plugin.camera_turns else "")
