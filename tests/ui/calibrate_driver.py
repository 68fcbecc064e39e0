"""Drive the goods calibration by touch in the real app, in its own process (like tests/ui/camera_driver.py):

    python tests/ui/calibrate_driver.py --data-dir D --out result.json [--shots DIR]

A finished 4-player Obscurians game in the store; a camera (file://) on a rendered photo of one piece of each kind
laid on the table. Home → Dice and boards → Add a camera → Open camera → Calibrate goods: a finger drawn across
each player's zone (seat by seat), Zones done, a tap beside a piece (refused), then a tap on a piece of each kind the
screen names, Save. The camera is then pointed at a rendered photo of every player's goods (the same camera and
table; one player with a red good more than the log says) and the end screen's "Goods from a photo" counts with the
calibration the group just made.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.ui.camera_driver import add_camera, open_camera  # noqa: E402
from tests.ui.drive import script_main  # noqa: E402
from tests.ui.touch import Touch  # noqa: E402


def scenes(app, folder: Path, seed: int = 9):
    """The finished table, the calibration photo (one piece of each kind, the taps a person would make, the zones)
    and the goods photo (what each seat has on it) — one camera, one table."""
    import cv2
    import numpy as np

    from companion.games.obscurians.randplay import random_game
    from companion.session.table import Table
    from companion.ui.obscurians.goods_photo import held
    from vision.render.goods import PLAYERS, calibration_scene, render_goods

    setup, actions = random_game(seed)
    table = Table.create(app.store, "obscurians", setup, clock=app.clock)
    for action in actions:
        table.apply(action)
    logged = held(table.state)
    wanted = [dict(goods) for goods in logged]
    wanted[1]["red"] = wanted[1].get("red", 0) + 1            # the table shows one more than the log
    goods, truth = render_goods(np.random.default_rng(seed), (1280, 960), counts=dict(zip(PLAYERS, wanted)),
                                lighting=False)
    calib, info = calibration_scene(np.random.default_rng(seed + 1), (1280, 960), camera=truth["camera"],
                                    table=truth["table"])
    paths = folder / "calibrate.png", folder / "goods.png"
    cv2.imwrite(str(paths[0]), calib)
    cv2.imwrite(str(paths[1]), goods)
    zones = [info["zones"][z] for z in PLAYERS]               # seat order: the players sit north, east, south, west
    return table, paths, zones, info["samples"], [truth["counts"][z] for z in PLAYERS], logged


def inner_box(polygon) -> list[float]:
    """The rectangle a person draws inside a slightly slanted zone: between its second-smallest and second-largest
    corner coordinates."""
    xs, ys = sorted(p[0] for p in polygon), sorted(p[1] for p in polygon)
    return [xs[1], ys[1], xs[2], ys[2]]


async def every_size(d: Touch, app) -> list[dict]:
    """The calibration screen at every tablet size, in every language: what does not fit, what leaves the window."""
    from kivy.core.window import Window

    from tests.ui.fit import WINDOW_SIZES, control_places, unfit_labels

    out = []
    for lang in ("en", "de", "es"):
        app.set_language(lang)
        for w, h in WINDOW_SIZES.values():
            Window.size = (w, h)
            await d.frames(4)
            out.append({"size": f"{w}x{h}", "lang": lang, "unfit": unfit_labels(d.screen()),
                        "prompt": d.screen().model.prompt, "done": d.by_id("done").text,
                        "window": [0, 0, Window.width, Window.height], "controls": control_places(d.screen())})
    app.set_language("en")
    Window.size = (1280, 800)
    await d.frames(4)
    return out


def on_screen(photo, x: float, y: float) -> tuple[float, float]:
    return photo.to_window(*photo._to_widget(x, y))


async def calibrate_scenario(app, args) -> dict:
    d = Touch(app)
    await d.wait_screen("home")
    table, (calib, goods), zones, samples, placed, logged = scenes(app, Path(args.data_dir))
    url = f"file://{calib}"
    await add_camera(d, app, url)
    await open_camera(d, app, url)
    started, taps = time.monotonic(), d.taps
    await d.tap(d.by_id("calibrate"))
    await d.wait_screen("calibrate")
    model = app.sm.current_screen.model
    photo = d.by_id("photo")
    await d.until(lambda: photo.frame_size[0] > 0, "the still photo")
    result = {"frame_size": list(photo.frame_size), "prompts": [model.prompt]}
    # 1. a finger across each zone, seat by seat
    for polygon in zones:
        x0, y0, x1, y1 = inner_box(polygon)
        await d.tap_at(*on_screen(photo, x0, y0), move_to=on_screen(photo, x1, y1))
    # a stray drag across the middle, taken back with Undo (not counted in the calibration's touches)
    extra = d.taps
    await d.tap_at(*on_screen(photo, 500, 400), move_to=on_screen(photo, 800, 600))
    result["zones_with_stray"] = len(model.zones)
    await d.tap(d.by_id("undo"))
    extra = d.taps - extra
    result["zones"] = [list(map(round, z)) for z in model.zones]
    result["zone_labels"] = list(photo.labels)
    if args.shots:
        await d.shot(Path(args.shots), "calibrate-zones")
    await d.tap(d.by_id("done"))
    result["prompts"].append(model.prompt)
    # 2. a tap on the bare table first: refused, nothing learnt
    await d.tap_at(*on_screen(photo, 640, 150))
    await d.until(lambda: not model.busy, "the tap checked")
    result["table_tap"] = {"banner": app.banner, "samples": len(model.samples)}
    # 3. a piece of each kind, as the screen asks for them (the artifact skipped first, then taken back with Undo)
    checks = []
    skipped = False
    while model.kind is not None:
        kind = model.kind
        if kind == "artifact" and not skipped:
            skipped, before = True, d.taps
            await d.tap(d.by_id("skip"))
            result["after_skip"] = {"prompt": model.prompt, "can_skip": model.can_skip}
            await d.tap(d.by_id("undo"))
            result["after_undo"] = model.prompt
            extra += d.taps - before
            continue
        t0 = time.monotonic()
        await d.tap_at(*on_screen(photo, *samples[kind]))
        await d.until(lambda: not model.busy, f"the {kind} tap checked")
        checks.append(round((time.monotonic() - t0) * 1000))
        if kind not in model.samples:
            result["refused"] = kind
            break
    result["tap_ms"] = checks
    await d.frames(3)
    result["prompts"].append(model.prompt)
    result["sample_labels"] = list(photo.labels)
    result["sample_boxes"] = len(model.boxes)
    result["learnt"] = list(model.samples)
    if args.shots:
        await d.shot(Path(args.shots), "calibrate-colours")
    result["sizes"] = await every_size(d, app)
    await d.tap(d.by_id("done"))
    await d.wait_screen("camera")
    result["touches"] = d.taps - taps - extra
    result["seconds"] = round(time.monotonic() - started, 1)
    result["banner"] = app.banner
    from companion.ui.calibrate import calibration_path

    result["saved"] = calibration_path(app).exists()
    # The camera now sees the players' goods; the end screen counts them with the calibration just made.
    await app.devices.replace(url, f"file://{goods}")
    await d.until(lambda: getattr(app.devices.manager.device(f"file://{goods}"), "last_frame", None) is not None,
                "the goods photo")
    app.attach(table)
    await d.wait_screen("end")
    app.close_sheet()                          # the winners' moment
    await d.frames(3)
    await d.tap(d.by_id("goods_photo"))
    await d.until(lambda: type(app.sheet).__name__ == "PhotoConfirmSheet", "the goods photo", timeout=60)
    await d.frames(5)
    result["lines"] = app.sheet.lines.split("\n")
    result["names"] = [n for n, _ in table.state.setup.players]
    result["placed"], result["logged"] = placed, logged
    return result


if __name__ == "__main__":
    raise SystemExit(script_main(calibrate_scenario, seed=1))
