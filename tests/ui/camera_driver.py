"""Drive the real app's camera screen by touch, in its own process (like tests/ui/devices_driver.py):

    python tests/ui/camera_driver.py --data-dir D --out result.json --scenario NAME [--photo P] [--shots DIR]

Scenarios:
  camera    Home → Dice and boards → Add a camera (its address typed: file://P) → Open camera: the photo shows
            live; Read dice draws a box, face and confidence over each die (checked at every tablet size, in three
            languages); Read map and Count goods say why they found nothing; Back to Dice and boards; Home.
  doubtful  the camera's five dice (file://P, read with a die below the door's confidence) bound by touch to the
            henchmen; an Obscurians table waiting for its roll is resumed from Home, its menu opens the camera, Read
            dice: a question showing the photo with its boxes, the table unchanged until the players confirm; read
            again: not the turn's roll, asked again; Back to the table.
  sure      as doubtful, with five dice the reader is sure of (every one at least the door's 0.9): Read dice is
            Anna's roll at once, no question; Back shows the table with the roll in its log.
  goods     a finished Obscurians game's end screen; a camera on a rendered photo of every player's goods (file://,
            one player with a red good more than the log) and the table's goods calibration: "Goods from a photo"
            shows the photo with its detections and each player's counts against the app's, used once confirmed.
  bench     (bench/bench_camera_preview.py) the camera screen left running: preview frames per second.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.ui.drive import run_app  # noqa: E402
from tests.ui.touch import Stuck, Touch  # noqa: E402  (the shared touch driver)


def sheet_widget(app, cls: str, **fields):
    for w in app.sheet.walk(restrict=True):
        if type(w).__name__ == cls and all(getattr(w, k, None) == v for k, v in fields.items()):
            return w
    raise Stuck(f"no {cls} {fields} on the sheet")


def device_row(d: Touch, url: str):
    return next(r for r in d.by_class("DeviceRow") if r.url == url)


def row_button(row, text: str):
    return next(w for w in row.walk(restrict=True) if getattr(w, "text", None) == text and hasattr(w, "dimmed"))


async def add_camera(d: Touch, app, url: str) -> None:
    """Home → Dice and boards → Add a camera → type its address → Save: connected."""
    await d.tap(d.by_id("devices"))
    await d.wait_screen("devices")
    await d.tap(d.by_id("add_camera"))
    await d.until(lambda: app.sheet is not None, "the address sheet")
    field = app.sheet.ids.field
    field.text = ""
    await d.type_text(field, url)
    await d.tap(app.sheet.ids.save)
    model = app.devices_model
    await d.until(lambda: any(r["url"] == url and "connected" in r["status"] for r in model.devices),
                f"the camera {url} connected")


async def open_camera(d: Touch, app, url: str):
    await d.frames(3)
    await d.tap(row_button(device_row(d, url), app.t("Open camera")))
    await d.wait_screen("camera")
    photo = d.by_id("photo")
    await d.until(lambda: photo.frames_shown > 0, "the camera's picture on screen")
    return photo


async def every_size(d: Touch, app, photo) -> list[dict]:
    """The camera screen at every tablet size, in every language: what does not fit, what leaves the window, and
    whether the picture and its boxes are still drawn."""
    from kivy.core.window import Window

    from tests.ui.fit import WINDOW_SIZES, control_places, unfit_labels, window_box

    out = []
    for lang in ("en", "de", "es"):
        app.set_language(lang)
        for w, h in WINDOW_SIZES.values():
            Window.size = (w, h)
            await d.frames(4)
            screen = d.screen()
            out.append({"size": f"{w}x{h}", "lang": lang, "unfit": unfit_labels(screen),
                        "window": [0, 0, Window.width, Window.height], "controls": control_places(screen),
                        "photo": list(window_box(photo)), "photo_shown": list(photo.norm_image_size),
                        "labels": len(photo.labels)})
    app.set_language("en")
    Window.size = (1280, 800)
    await d.frames(4)
    return out


async def camera_scenario(app, args) -> dict:
    d = Touch(app)
    await d.wait_screen("home")
    url = f"file://{args.photo}"
    await add_camera(d, app, url)
    result = {"device_title": next(r["title"] for r in app.devices_model.devices if r["url"] == url)}
    photo = await open_camera(d, app, url)
    model = app.sm.current_screen.model
    result["title"] = model.title
    result["frame_size"] = list(photo.frame_size)
    result["boxes_before"] = list(photo.labels)
    from tests.ui.fit import control_places, moved

    before = control_places(d.screen())
    await d.tap(d.by_id("read_dice"))
    await d.until(lambda: not model.busy and photo.labels, "the dice read and drawn")
    await d.frames(5)
    result["moved_by_reading"] = moved(before, control_places(d.screen()))
    result["labels"] = list(photo.labels)
    result["boxes"] = [row["box"] for row in model.boxes]
    result["status"] = model.status
    result["banner"] = app.banner
    if args.shots:
        await d.shot(Path(args.shots), "camera")
    result["sizes"] = await every_size(d, app, photo)
    # Read map on a photo of dice: no stickers, said in a sentence; Count goods without a calibration: why not.
    await d.tap(d.by_id("read_map"))
    await d.until(lambda: not model.busy and model.status.startswith("No map"), "the map refusal")
    result["map_status"] = model.status
    await d.tap(d.by_id("count_goods"))
    await d.frames(3)
    result["goods_status"] = model.status
    await d.tap(d.by_id("back"))
    await d.wait_screen("devices")
    result["after_back"] = app.screen
    await d.frames(20)
    try:   # the screen left is released (docs/ui.md, "Memory"): its picture is gone, or at least stopped
        result["preview_stopped"] = photo._follow is None
    except ReferenceError:
        result["preview_stopped"] = True
    await open_camera(d, app, url)
    await d.tap(d.by_id("home"))
    await d.wait_screen("home")
    result["after_home"] = app.screen
    return result


async def camera_over_a_waiting_table(d, app, args) -> tuple[dict, int]:
    """The camera's five dice (file://P) bound by touch to the henchmen; an Obscurians table waiting for Anna's roll
    resumed from Home; its menu opens the camera over it, whose picture is on screen. Returns (the result so far,
    the table's number of actions before any reading)."""
    from companion.games.obscurians.actions import RevealEvent
    from companion.games.obscurians.setup import Setup
    from companion.session.table import Table

    await d.wait_screen("home")
    table = Table.create(app.store, "obscurians", Setup(players=(("Anna", "red"), ("Ben", "blue"), ("Chris", "green"),
                                                                 ("Dana", "yellow")), deck="physical", seed=1),
                         clock=app.clock)
    table.apply(RevealEvent("no_swap"))              # Anna's turn: the table waits for her roll
    table_id = table.id
    url = f"file://{args.photo}"
    await add_camera(d, app, url)
    model = app.devices_model
    dice = [f"{url}#{k}" for k in range(1, 6)]
    await d.until(lambda: all(any(r["die"] == die for r in model.dice) for die in dice), "the camera's five dice")
    for index, die in enumerate(dice):          # bound by touch: H1 … H5
        await d.frames(2)
        await d.tap(next(b for b in d.by_class("PlaceButton") if b.die == die and b.index == index))
    result = {"bound": [app.devices.manager.bindings.binding(die).index for die in dice]}
    log_before = len(table.actions)
    await d.tap(d.by_id("back"))
    await d.wait_screen("home")
    # Resume the table from Home; its menu opens the camera over it.
    await d.home_list(finished=False)
    item = next(w for w in d.by_class("TableItem") if getattr(w, "table_id", None) == table_id)
    await d.tap(item.ids.open)                   # Resume
    await d.wait_screen("round")
    app.close_sheet()                                # the event card's moment
    await d.frames(3)
    await d.tap(next(b for b in d.by_class("ObsnCornerButton") if b.kind == "menu"))
    await d.tap(sheet_widget(app, "MenuExtra", text=app.t("Camera: read the dice")))
    await d.wait_screen("camera")
    result["table_kept"] = app.table is not None and app.table.id == table_id
    photo = d.by_id("photo")
    await d.until(lambda: photo.frames_shown > 0, "the camera's picture on screen")
    return result, log_before


async def doubtful_scenario(app, args) -> dict:
    d = Touch(app)
    result, log_before = await camera_over_a_waiting_table(d, app, args)
    await d.tap(d.by_id("read_dice"))
    await d.until(lambda: app.sheet is not None and type(app.sheet).__name__ == "PhotoChoiceSheet",
                "the question with the photo", timeout=40)
    sheet = app.sheet
    await d.frames(10)
    result["question"] = sheet.question
    result["answers"] = [e["text"] for e in sheet.extras]
    result["labels"] = list(sheet.ids.photo.labels)
    result["frame_size"] = list(sheet.ids.photo.frame_size)
    result["log_while_asked"] = len(app.table.actions) - log_before
    if args.shots:
        await d.shot(Path(args.shots), "camera-question")
    await d.tap(sheet_widget(app, "MenuExtra", text=app.t("Yes, use these dice")))
    await d.until(lambda: app.table.state.dice is not None, "the confirmed roll")
    await d.frames(5)
    result["screen_after_yes"] = app.screen
    result["log_after_yes"] = len(app.table.actions) - log_before
    result["dice"] = list(app.table.state.dice)
    result["move"] = app.table.actions[-1].to_text()
    # The same dice read again: the table is not waiting for a roll now — asked, with the photo; "No" changes nothing.
    log = len(app.table.actions)
    await d.tap(d.by_id("read_dice"))
    await d.until(lambda: app.sheet is not None and type(app.sheet).__name__ == "PhotoChoiceSheet",
                "the second question with the photo", timeout=40)
    await d.frames(5)
    result["again_question"] = app.sheet.question
    result["again_answers"] = [e["text"] for e in app.sheet.extras]
    result["again_labels"] = len(app.sheet.ids.photo.labels)
    ignore = next(e["text"] for e in app.sheet.extras if e["text"] in (app.t("No, ignore this throw"),
                                                                        app.t("We enter it on the screen")))
    await d.tap(sheet_widget(app, "MenuExtra", text=ignore))
    await d.frames(5)
    result["log_after_no"] = len(app.table.actions) - log
    result["sheet_after_no"] = app.sheet is not None
    await d.tap(d.by_id("back"))
    await d.wait_screen("round")
    await d.frames(5)
    result["back_to"] = app.screen
    return result


async def sure_scenario(app, args) -> dict:
    d = Touch(app)
    result, log_before = await camera_over_a_waiting_table(d, app, args)
    await d.tap(d.by_id("read_dice"))
    await d.until(lambda: app.table.state.dice is not None or app.sheet is not None, "the roll or a question",
                  timeout=40)
    await d.frames(10)
    result["sheet"] = type(app.sheet).__name__ if app.sheet is not None else None
    result["log_after_read"] = len(app.table.actions) - log_before
    result["dice"] = list(app.table.state.dice or ())
    result["move"] = app.table.actions[-1].to_text()
    model = app.sm.current_screen.model
    await d.until(lambda: not model.busy and model.boxes, "the dice boxed on the camera screen")
    result["labels"] = [row["text"] for row in model.boxes]
    result["status"] = model.status
    await d.until(lambda: app.banner, "the banner saying the table took the dice")
    result["banner"] = app.banner
    if args.shots:
        await d.shot(Path(args.shots), "camera-sure")
    await d.tap(d.by_id("back"))
    await d.wait_screen("round")
    await d.frames(5)
    result["back_to"] = app.screen
    if args.shots:
        await d.shot(Path(args.shots), "camera-roll-applied")
    return result


def goods_table(app, folder: Path, seed: int = 9):
    """A finished 4-player game in the store, a rendered photo of each player's goods in front of them (one player
    with a red good more than the log says) and the table's goods calibration in the data folder. Returns (table,
    the photo's path, per seat the goods on the photo)."""
    import numpy as np

    from companion.games.obscurians.randplay import random_game
    from companion.session.table import Table
    from companion.ui.calibrate import calibration_path
    from companion.ui.obscurians.goods_photo import held
    from vision.goods import calibrate
    import cv2
    from vision.render.goods import PLAYERS, calibration_scene, render_goods

    setup, actions = random_game(seed)
    table = Table.create(app.store, "obscurians", setup, clock=app.clock)
    for action in actions:
        table.apply(action)
    logged = held(table.state)
    names = [name for name, _ in setup.players]
    wanted = [dict(goods) for goods in logged]
    wanted[1]["red"] = wanted[1].get("red", 0) + 1            # the table shows one more than the log
    rng = np.random.default_rng(seed)
    image, truth = render_goods(rng, (1280, 960), counts=dict(zip(PLAYERS, wanted)), lighting=False)
    calib_image, info = calibration_scene(np.random.default_rng(seed + 1), (1280, 960), camera=truth["camera"],
                                          table=truth["table"])
    zones = {name: truth["zones"][zone] for name, zone in zip(names, PLAYERS)}
    calibrate(calib_image, {"zones": zones, "samples": info["samples"]}).save(calibration_path(app))
    path = folder / "goods.png"
    cv2.imwrite(str(path), image)
    placed = [truth["counts"][zone] for zone in PLAYERS]
    return table, path, placed, logged


async def goods_scenario(app, args) -> dict:
    d = Touch(app)
    await d.wait_screen("home")
    table, path, placed, logged = goods_table(app, Path(args.data_dir))
    url = f"file://{path}"
    app.start_devices()
    await app.devices.add(url)
    await d.until(lambda: getattr(app.devices.manager.device(url), "last_frame", None) is not None,
                "the camera's picture")
    app.attach(table)
    await d.wait_screen("end")
    app.close_sheet()                          # the winners' moment
    await d.frames(3)
    result = {"placed": placed, "logged": logged, "names": [n for n, _ in table.state.setup.players]}
    model = app.plugin.end
    await d.tap(d.by_id("goods_photo"))
    await d.until(lambda: type(app.sheet).__name__ == "PhotoConfirmSheet", "the goods photo", timeout=60)
    await d.frames(10)
    sheet = app.sheet
    result["question"] = sheet.question
    result["lines"] = sheet.lines.split("\n")
    result["labels"] = list(sheet.ids.photo.labels)
    result["cards_before"] = [c["photo"] for c in model.score_cards]
    if args.shots:
        await d.shot(Path(args.shots), "goods-photo")
    await d.tap(sheet.ids.yes)
    await d.frames(5)
    result["cards_after"] = [c["photo"] for c in model.score_cards]
    result["banner"] = app.banner
    result["scores_unchanged"] = [p.total for p in table.state.score().players]
    # The same count on the camera screen, opened from the end screen's menu: per zone, the heaps boxed.
    await d.tap(d.by_id("menu"))
    await d.tap(sheet_widget(app, "MenuExtra", text=app.t("Camera: read the dice")))
    await d.wait_screen("camera")
    camera = app.sm.current_screen.model
    await d.tap(d.by_id("count_goods"))
    await d.until(lambda: not camera.busy and camera.boxes, "the goods counted on the camera screen", timeout=60)
    result["camera_status"] = camera.status.split("\n")
    result["camera_boxes"] = len(camera.boxes)
    await d.tap(d.by_id("back"))
    await d.wait_screen("end")
    result["back_to"] = app.screen
    return result


async def bench_scenario(app, args) -> dict:
    """The camera screen left running for `--seconds`, then the same while Read dice is tapped again and again:
    frames the preview showed per second, the camera's frames per second, and the UI's longest frame."""
    from kivy.clock import Clock

    d = Touch(app)
    await d.wait_screen("home")
    url = f"file://{args.photo}" if args.photo else "sim://camera?scene=dice&seed=7"
    app.start_devices()
    await app.devices.add(url)
    await d.until(lambda: getattr(app.devices.manager.device(url), "last_frame", None) is not None,
                "the camera's picture", timeout=60)
    app.show_camera(url)
    await d.wait_screen("camera")
    photo, model = d.by_id("photo"), app.sm.current_screen.model
    device = app.devices.manager.device(url)
    await d.until(lambda: photo.frames_shown > 5, "the preview running")

    async def measure(reading: bool) -> dict:
        ticks = []
        event = Clock.schedule_interval(lambda _dt: ticks.append(time.perf_counter()), 0)
        shown, grabbed, t0 = photo.frames_shown, device.frames_seen, time.perf_counter()
        upload, cpu0 = photo.upload_cpu, time.process_time()
        reads = 0
        while time.perf_counter() - t0 < args.seconds:
            if reading and not model.busy:
                model.read_dice()
                reads += 1
            await asyncio.sleep(0.02)
        seconds = time.perf_counter() - t0
        event.cancel()
        gaps = [b - a for a, b in zip(ticks, ticks[1:])] or [0.0]
        return {"preview_fps": round((photo.frames_shown - shown) / seconds, 1),
                "camera_fps": round((device.frames_seen - grabbed) / seconds, 1),
                "ui_fps": round(len(ticks) / seconds, 1), "longest_ui_frame_ms": round(max(gaps) * 1000, 1),
                "reads": reads, "upload_ms_per_frame": round((photo.upload_cpu - upload) * 1000 /
                                                              max(1, photo.frames_shown - shown), 2),
                "process_cpu_share": round((time.process_time() - cpu0) / seconds, 2)}
    return {"url": url, "frame": list(photo.frame_size), "idle": await measure(False),
            "reading": await measure(True)}


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--data-dir", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--shots", default="")
    p.add_argument("--lang", default="en")
    p.add_argument("--photo", default="")
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--scenario", choices=("camera", "doubtful", "sure", "goods", "bench"), default="camera")
    args = p.parse_args()
    from companion.session.store import TableStore
    from companion.ui.app import CompanionApp

    store = TableStore(args.data_dir)
    app = CompanionApp(store=store, lang=args.lang, seed=1)
    play = {"camera": camera_scenario, "doubtful": doubtful_scenario, "sure": sure_scenario, "goods": goods_scenario,
            "bench": bench_scenario}[args.scenario]
    return run_app(app, lambda: play(app, args), args.out, dump={"indent": 1, "ensure_ascii": False},
                   after=app.close_devices, close=store.close)


if __name__ == "__main__":
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    raise SystemExit(main())
