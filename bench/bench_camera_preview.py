"""The camera screen's live preview on this machine: frames per second it shows, with the camera idle and while
Read dice runs again and again (the reading is in a worker thread; the preview must keep going).

    .venv/bin/python bench/bench_camera_preview.py [--seconds 10] [--photo PATH]

Runs the real app (tests/ui/camera_driver.py, scenario "bench") with a simulated camera rendering dice throws
(sim://camera?scene=dice), or a photo file (--photo: file://PATH, 640x640 for the shared dice photos). Needs a screen:
without DISPLAY it runs under xvfb-run. Prints figures; asserts nothing. The camera device grabs at most 30 frames a
second (vision/camera_device.py), so 30 is the preview's ceiling.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DRIVER = ROOT / "tests" / "ui" / "camera_driver.py"


def run(seconds: float, photo: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "bench.json"
        (Path(tmp) / "data").mkdir()
        cmd = [sys.executable, str(DRIVER), "--scenario", "bench", "--data-dir", str(Path(tmp) / "data"),
               "--out", str(out), "--seconds", str(seconds)] + (["--photo", photo] if photo else [])
        if not os.environ.get("DISPLAY") and shutil.which("xvfb-run"):
            cmd = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24"] + cmd
        env = dict(os.environ, KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_NO_FILELOG="1",
                   PYTHONPATH=str(ROOT))
        subprocess.run(cmd, env=env, cwd=ROOT, timeout=seconds * 4 + 180, capture_output=True)
        result = json.loads(out.read_text()) if out.exists() else {"error": "no result"}
    if "error" in result:
        raise SystemExit(f"the bench failed: {result.get('trace', result['error'])}")
    return result


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--photo", default="")
    args = p.parse_args()
    r = run(args.seconds, args.photo)
    print(f"camera {r['url']}  frame {r['frame'][0]}x{r['frame'][1]}  "
          f"({args.seconds:.0f} s each, {os.cpu_count()} cores)")
    print(f"{'':10} {'preview fps':>12} {'camera fps':>11} {'UI fps':>8} {'longest UI frame':>17} {'reads':>6} "
          f"{'upload/frame':>13} {'app CPU':>8}")
    for name in ("idle", "reading"):
        m = r[name]
        print(f"{name:10} {m['preview_fps']:12.1f} {m['camera_fps']:11.1f} {m['ui_fps']:8.1f} "
              f"{m['longest_ui_frame_ms']:14.1f} ms {m['reads']:6d} {m['upload_ms_per_frame']:10.2f} ms "
              f"{m['process_cpu_share']:7.0%}")
    load = os.getloadavg()[0]
    print(f"load average while measured: {load:.1f} on {os.cpu_count()} cores (other jobs share the machine)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
