"""The other recognisers on rendered photos: the Obelisk map (cells and obelisks), the goods counts, the symbol dice;
plus the live path (frame source + stillness gate). Accuracy tables and milliseconds per frame on ONE core.

Run: .venv/bin/python bench/bench_vision.py [--n N]
Times are CPU time of this one thread (time.process_time, OpenCV pinned to one thread), so they measure one
core even when the machine is busy with other work. No assertions: it prints figures. (The dice reader has bench/bench_vision_dice.py.)
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.detections import iou  # noqa: E402
from vision.frames import StillnessGate, open_source  # noqa: E402
from vision.goods import calibrate, count_goods  # noqa: E402
from vision.render.goods import calibration_scene, render_goods  # noqa: E402
from vision.render.symbols import FACES, render_symbols  # noqa: E402
from vision.render.tiles import render_map  # noqa: E402
from vision.symbols import read_symbol_dice, teach  # noqa: E402
from vision.tiles import UNKNOWN, read_map  # noqa: E402


def ms(times):
    return f"median {statistics.median(times):6.1f} ms, 90th pct {sorted(times)[int(0.9 * len(times))]:6.1f} ms"


def bench_tiles(n):
    rng = np.random.default_rng(500)
    wrong = read = visible = empties = empties_read = 0
    ob_total = ob_right = ob_extra = 0
    times = []
    for _ in range(n):
        photo, truth = render_map(rng)
        t0 = time.process_time()
        reading = read_map(photo)
        times.append((time.process_time() - t0) * 1000)
        actual = [r.split() for r in truth["map"].split(" / ")]
        for r in range(5):
            for c in range(5):
                got = reading.cells[r][c]
                if got != UNKNOWN and got != actual[r][c]:
                    wrong += 1
                if truth["cells"][r][c] not in (UNKNOWN, "--"):
                    visible += 1
                    read += got == actual[r][c]
                if actual[r][c] == "--":
                    empties += 1
                    empties_read += got == "--"
        want = {tuple(o["corner"]): o for o in truth["obelisks"]}
        got = {tuple(o.corner): o for o in reading.obelisks}
        ob_extra += len(set(got) - set(want))
        for corner, o in want.items():
            ob_total += 1
            g = got.get(corner)
            ob_right += bool(g and g.colour == o["colour"] and g.strength == o["strength"])
    print(f"map ({n} photos, 1280x960: slant, turn, blur, noise, glare, 0-2 hands)")
    print(f"  visible cells read right   {read}/{visible} ({read / visible:.1%})")
    print(f"  cells read wrong           {wrong}")
    print(f"  removed tiles seen empty   {empties_read}/{empties} (the rest: unknown)")
    print(f"  obelisks right (colour+pips) {ob_right}/{ob_total}, on a corner without one: {ob_extra}")
    print(f"  {ms(times)} (markers + dice reader)")


def bench_goods(n):
    rng = np.random.default_rng(600)
    right = total = 0
    times = []
    for _ in range(n):
        cal_photo, setup = calibration_scene(rng)
        calibration = calibrate(cal_photo, setup)
        photo, truth = render_goods(rng, camera=setup["camera"], table=setup["table"])
        t0 = time.process_time()
        reading = count_goods(photo, calibration)
        times.append((time.process_time() - t0) * 1000)
        for zone, counts in truth["counts"].items():
            for kind in set(counts) | {k for k, v in reading.zones[zone].items() if v}:
                total += 1
                right += reading.zones[zone].get(kind, 0) == counts.get(kind, 0)
    print(f"goods ({n} tables, 1280x960, 4 zones, other light than the calibration photo)")
    print(f"  (zone, kind) counts right  {right}/{total} ({right / total:.1%})")
    print(f"  {ms(times)}")


def bench_symbols(n):
    rng = np.random.default_rng(700)
    right = wrong = unsure = missed = total = 0
    times = []
    for k in range(n):
        body, ink = rng.uniform(150, 255, 3), rng.uniform(0, 90, 3)
        colours = (ink * 0.6 + 20, body) if k % 2 else (body, ink)
        photos = {f: [render_symbols(rng, faces=[f], n=1, side=70, set_colours=colours, tables=("plain", "felt"))[0]
                      for _ in range(2)] for f in FACES}
        symbol_set = teach(photos)
        photo, truth = render_symbols(rng, n=5, set_colours=colours)
        t0 = time.process_time()
        found = read_symbol_dice(photo, symbol_set)
        times.append((time.process_time() - t0) * 1000)
        for d in truth:
            total += 1
            m = [f for f in found if iou(f.box, tuple(d["box"])) > 0.5]
            if not m:
                missed += 1
            elif m[0].face == d["face"]:
                right += 1
            elif m[0].face is None:
                unsure += 1
            else:
                wrong += 1
    print(f"symbol dice ({n} sets taught from 2 photos per face, read on {n} photos of 5 dice, 960x720)")
    print(f"  right {right}/{total}, wrong {wrong}, unsure {unsure}, missed {missed}")
    print(f"  {ms(times)}")


def bench_live(frames=120):
    source = open_source("sim://dice?seed=3&width=640&height=480")
    gate = StillnessGate()
    grab, gate_times = [], []
    for _ in range(frames):
        t0 = time.process_time()
        f = source.read()
        t1 = time.process_time()
        gate.feed(f.image)
        grab.append((t1 - t0) * 1000)
        gate_times.append((time.process_time() - t1) * 1000)
    print(f"live: simulated camera 640x480 {ms(grab)} per frame (rendering); stillness check {ms(gate_times)}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=20)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    bench_tiles(args.n)
    bench_goods(args.n)
    bench_symbols(args.n)
    bench_live()


if __name__ == "__main__":
    main()
