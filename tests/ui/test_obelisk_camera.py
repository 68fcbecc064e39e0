"""A camera reading the Obelisk map at a table (issue 19 §4, §6), by touch in the real app under Xvfb, with rendered
photos of the map's marker stickers (vision/render/tiles.py): at setup, Read the camera shows the photo with every
cell boxed and the map read; Use this map makes it the group's map, the cells a hand hid stay "?" (never guessed)
and the game does not start until the group has tapped them and said which tile lies there. During the Day, the
camera seeing a tile turned is a proposed Rotate, which Rotate confirms; nothing is played by the camera alone — read
by the table menu's "Camera: read the map", or on the camera screen opened from the table's menu (shown on the map
when the group goes back).

This file is also the driver: `python tests/ui/test_obelisk_camera.py --data-dir D --out result.json [--shots DIR]`.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.ui
SEED = 2          # a rendered map where a hand hides two stickers (cells A2 and A3) and every other cell is read


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    from tests.ui.conftest import run_own_driver

    return run_own_driver(Path(__file__), tmp_path_factory, "obelisk_camera")


def test_without_a_camera_read_the_camera_says_how_to_add_one(run):
    assert run["no_camera"] == "No camera yet: add one in Dice and boards (camera://0, or a photo file://…)."
    assert not run["no_camera_sheet"]


def test_the_map_read_at_setup_shows_the_photo_and_waits_for_the_players(run):
    assert run["question"] == "The map on the photo: check it against the table"
    assert run["boxes"] == 25 and run["amber"] == run["hidden_names"] == ["A2", "A3"]
    assert run["lines"][:5] == run["seen"].split(" / ")
    assert run["lines"][5] == "Not read (2, shown ??): A2, A3. Tap them on the map and say which tile lies there."
    assert run["before_yes"] == ""                  # nothing taken before the players say so


def test_cells_a_hand_hid_are_shown_unknown_and_must_be_filled_before_starting(run):
    assert run["proposed"] == run["seen"] and run["map_by"] == "table"
    assert run["drawn_unknown"] == 2                # drawn as "?" on the group's map, not guessed
    assert run["fill_hint"] == "Tap each ? on the map and say which tile lies there"
    assert run["start_refused"] == ("Say which tile lies on A2, A3 first: tap them on the map (the camera could not "
                                    "read them)")
    assert run["screen_after_refusal"] == "obelisk-setup"
    assert run["questions"][0] == "Which tile lies on A2?" and run["questions"][1].endswith(
        "on A2: which way does its arrow point?")
    assert run["filled"] == run["truth"]            # tapped in by the group: the map is the table's
    assert run["table_map"] == run["truth"]


def test_a_tile_the_camera_sees_turned_in_the_day_is_a_proposed_rotate(run):
    name, arrow = run["turned"]
    assert run["actions_after_reading"] == 0        # proposed, not played
    assert run["turn_banner"] == f"The camera: {name} was turned. Tap Rotate to confirm, or turn it back"
    assert run["rotate_text"] == "Rotate 1"
    assert run["played"].endswith(f" {name}:{arrow}") and run["played"].startswith("rotate ")


def test_a_tile_turned_back_takes_the_proposal_back_and_a_turn_without_a_marker_is_refused(run):
    assert run["back_banner"] == "The camera sees the map as the app has it"
    assert run["pending_after_refusal"] == 0 and run["actions_after_refusal"] == 1
    name, _arrow = run["turned"]
    assert run["refused_banner"] == f"The tile at {name} has no rotation marker: it cannot be turned again"


def test_the_camera_screen_opened_from_the_table_proposes_the_turn_on_the_table(run):
    name, arrow = run["turned"]
    assert run["camera_table_kept"] and run["camera_actions"] == 0      # read there, nothing played
    assert run["camera_status"][-2:] == [f"The camera: {name} was turned. Tap Rotate to confirm, or turn it back",
                                         "Back shows the proposal on the table's map."]
    assert run["camera_banner"] == ""                                   # the table's earlier words are gone
    assert run["camera_pending"] == run["pending"]                      # Back: the same Rotate as the menu's
    assert run["camera_back_banner"] == f"The camera: {name} was turned. Tap Rotate to confirm, or turn it back"
    assert run["camera_rotate_text"] == "Rotate 1"


def test_reading_times(run):
    # a reading takes a worker thread, never the screen: the menu is back at once and the proposal follows
    assert 0 < run["read_seconds"] < 20


# -- the driver --------------------------------------------------------------------------------------------------



def photos(folder: Path):
    """The setup photo (a hand over two stickers), its truth, the Day's photo (the same map, one tile turned) and
    a photo of the map with that tile turned back."""
    import cv2
    import numpy as np

    from vision.render.tiles import notation, random_map, render_map

    rng = np.random.default_rng(SEED)
    cells = random_map(rng, empty=0)
    setup, truth = render_map(rng, cells=cells, obelisks=[], hands=1, glare=False, corner_markers=True, slant=0.05)
    r, c = next((r, c) for r in range(5) for c in range(5) if cells[r][c][0] not in "PM")
    day_cells = [row[:] for row in cells]
    arrow = "NESW"[("NESW".index(cells[r][c][1]) + 1) % 4]
    day_cells[r][c] = cells[r][c][0] + arrow
    day, _ = render_map(np.random.default_rng(SEED + 100), cells=day_cells, obelisks=[], hands=0, glare=False,
                        corner_markers=True, slant=0.05)
    back, _ = render_map(np.random.default_rng(SEED + 200), cells=cells, obelisks=[], hands=0, glare=False,
                         corner_markers=True, slant=0.05)
    paths = folder / "map-setup.png", folder / "map-day.png", folder / "map-back.png"
    for path, image in zip(paths, (setup, day, back)):
        cv2.imwrite(str(path), image)
    return paths, notation(cells), notation(truth["cells"]), ((r, c), arrow)


async def scenario(app, args) -> dict:
    from companion.games.obelisk.model import cell_name
    from companion.games.obelisk.notation import map_to_text
    from companion.games.obelisk.vocabulary import LAND
    from companion.ui.obelisk.texts import WAY
    from tests.ui.obelisk_touch import ObeliskFinger

    d = ObeliskFinger(app)
    shots = Path(args.shots) if args.shots else None
    (setup_photo, day_photo, back_photo), truth, seen, (turned_cell, arrow) = photos(Path(args.data_dir))
    out: dict = {"truth": truth, "seen": seen}
    await d.wait_screen("home")
    await d.until(lambda: getattr(app, "devices", None) is not None, "the devices")
    await d.new_game("obelisk", "obelisk-setup")
    setup = app.plugin_for("obelisk").setup
    await d.tap(d.by_id("map_camera"))            # no camera added yet: said, nothing changes
    out["no_camera"] = app.banner
    out["no_camera_sheet"] = app.sheet is not None
    url = f"file://{setup_photo}"
    await app.devices.add(url)
    await d.until(lambda: getattr(app.devices.manager.device(url), "last_frame", None) is not None, "the picture")
    # Read the camera: the photo with each cell boxed, the map read, asked.
    await d.tap(d.by_id("map_camera"))
    await d.until(lambda: type(app.sheet).__name__ == "PhotoConfirmSheet", "the map on the photo")
    sheet = app.sheet
    await d.frames(8)
    out["question"] = sheet.question
    out["lines"] = sheet.lines.split("\n")
    out["boxes"] = len(sheet.ids.photo.boxes)
    out["amber"] = [cell_name(divmod(i, 5)) for i, b in enumerate(sheet.ids.photo.boxes) if b["text"] == "??"]
    out["hidden_names"] = [cell_name((r, c)) for r, row in enumerate(seen.split(" / "))
                           for c, w in enumerate(row.split()) if w == "??"]
    out["before_yes"] = setup.map_text
    await d.shot(shots, "obelisk-setup-camera")
    await d.tap(sheet.ids.yes)
    await d.frames(4)
    out.update(proposed=setup.map_text, map_by=setup.map_by, fill_hint=app.banner,
               drawn_unknown=sum(1 for _, t in setup.picture.get("tiles", ()) if t == "??"))
    await d.shot(shots, "obelisk-setup-camera-map")
    # Start with cells unread: refused in words, no table.
    await d.tap(d.by_id("start"))
    out["start_refused"] = setup.error
    out["screen_after_refusal"] = app.screen
    # Each unread cell tapped on the map: its land, then its arrow, as the group sees them on the table.
    preview = d.by_id("preview")
    out["questions"] = []
    words = [row.split() for row in truth.split(" / ")]
    for name in out["hidden_names"]:
        r, c = int(name[1]) - 1, "ABCDE".index(name[0])
        await d.tap_at(*preview.to_window(*preview.cell_centre((r, c))))
        await d.until(lambda: app.sheet is not None, "the land question")
        out["questions"].append(app.sheet.question)
        await d.pick(app.t(LAND[words[r][c][0]]))
        out["questions"].append(app.sheet.question)
        await d.pick(app.t(WAY[words[r][c][1]]))
    out["filled"] = setup.map_text
    await d.tap(d.by_id("start"))
    await d.wait_screen("obelisk-table")
    model = d.model
    out["table_map"] = map_to_text(model.state.map)
    # The Day: the camera now sees one tile turned; the table's menu reads it.
    url = await point(d, app, url, day_photo)
    started = time.monotonic()
    await read_map(d, app)
    await d.until(lambda: model.pending, "the proposed turn")
    out["read_seconds"] = round(time.monotonic() - started, 2)
    # Turned back on the table: the proposal goes; turned again: proposed again.
    url = await point(d, app, url, back_photo)
    await read_map(d, app)
    await d.until(lambda: not model.pending, "the proposal gone")
    out["back_banner"] = app.banner
    # The camera screen opened from the table's menu (the table stays open, its screen released): its Read map
    # sees the tile turned; the proposal waits for the table's map, where Back shows it.
    url = await point(d, app, url, day_photo)
    await d.tap(d.by_id("menu"))
    await d.pick("Camera: read the dice")
    await d.wait_screen("camera")
    camera = app.sm.current_screen.model
    await d.tap(d.by_id("read_map"))
    await d.until(lambda: not camera.busy and camera.status.startswith("Map:"), "the map on the camera screen")
    out["camera_status"] = camera.status.split("\n")
    out["camera_banner"] = app.banner
    out["camera_table_kept"] = app.table is not None and app.screen == "camera"
    out["camera_actions"] = len(app.table.actions)
    await d.shot(shots, "camera-map-at-table")
    await d.tap(d.by_id("back"))
    await d.wait_screen("obelisk-table")
    model = d.model
    await d.frames(3)
    out["camera_pending"] = [[list(c), f] for c, f in model.pending.items()]
    out["camera_back_banner"] = app.banner
    out["camera_rotate_text"] = next(w for w in d.by_class("ObeliskAction") if w.value == "rotate").text
    # turned back on the table: the menu's reading takes the proposal back, as above
    url = await point(d, app, url, back_photo)
    await read_map(d, app)
    await d.until(lambda: not model.pending, "the camera screen's proposal gone")
    url = await point(d, app, url, day_photo)
    await read_map(d, app)
    await d.until(lambda: model.pending, "the proposed turn again")
    out["turned"] = [cell_name(turned_cell), arrow]
    out["actions_after_reading"] = len(app.table.actions)
    out["pending"] = [[list(c), f] for c, f in model.pending.items()]
    out["turn_banner"] = app.banner
    out["rotate_text"] = next(w for w in d.by_class("ObeliskAction") if w.value == "rotate").text
    await d.shot(shots, "obelisk-camera-turn")
    await d.button("rotate")
    await d.until(lambda: len(app.table.actions) == 1, "the Rotate")
    out["played"] = app.table.actions[-1].to_text()
    # The tile turned back on the table after the Rotate: its marker is gone, so no Rotate can: said, not proposed.
    url = await point(d, app, url, back_photo)
    banner = app.banner
    await read_map(d, app)
    await d.until(lambda: app.banner and app.banner not in (banner, "Reading the map…"), "the refusal")
    out["refused_banner"] = app.banner
    out["pending_after_refusal"] = len(model.pending)
    out["actions_after_refusal"] = len(app.table.actions)
    return out


async def point(d, app, url: str, photo: Path) -> str:
    """The camera now looks at `photo` (the table changed under it)."""
    new = f"file://{photo}"
    await app.devices.replace(url, new)
    await d.until(lambda: getattr(app.devices.manager.device(new), "last_frame", None) is not None, "the picture")
    return new


async def read_map(d, app) -> None:
    await d.tap(d.by_id("menu"))
    await d.pick("Camera: read the map")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    from tests.ui.drive import script_main

    sys.exit(script_main(scenario))
