"""Start the real app (`companion --data-dir DIR`) and print the seconds from process start to its first drawn frame.

Used by bench_app.py. The window's first `on_flip` is the first frame on screen; the clock starts at exec (from
/proc), so imports, the database check and building the screens all count.
"""
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def seconds_since_exec() -> float:
    start_ticks = int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19])
    uptime = float(Path("/proc/uptime").read_text().split()[0])
    return uptime - start_ticks / os.sysconf("SC_CLK_TCK")


def main() -> int:
    data_dir = sys.argv[1]
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    from companion import cli
    from kivy.app import App
    from kivy.core.window import Window

    def first_flip(*_):
        print(f"first_frame_s {seconds_since_exec():.3f}", flush=True)
        Window.unbind(on_flip=first_flip)
        App.get_running_app().stop()

    Window.bind(on_flip=first_flip)
    return cli.main(["--data-dir", data_dir])


if __name__ == "__main__":
    raise SystemExit(main())
