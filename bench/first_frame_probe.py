"""Start the real app (`companion --data-dir DIR`) and print the seconds from process start to its first drawn frame.

    python bench/first_frame_probe.py DIR       the app, on the tables in DIR
    python bench/first_frame_probe.py --bare    a bare Kivy window (an App whose root is one empty Widget, in the
                                                app's window settings): the yardstick, what any Kivy app pays
                                                before its first frame

Used by bench_app.py. The window's first `on_flip` is the first frame on screen; the clock starts at exec (from
/proc), so imports, the database check and building the screens all count. The process then stops its app and
exits, so a whole-process timer measures the same start.
"""
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def seconds_since_exec() -> float:
    start_ticks = int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19])
    uptime = float(Path("/proc/uptime").read_text().split()[0])
    return uptime - start_ticks / os.sysconf("SC_CLK_TCK")


def at_first_frame() -> None:
    """Print the figures when the first frame is drawn, then stop the running app. The app's window settings are
    made first, as companion/ui/app.py makes them: importing kivy.core.window creates the window, and one made
    before them would be another window (800x600, multisampled: slower to make and to draw)."""
    from companion.ui import kivy_setup  # noqa: F401  (1280x800, no multisampling)
    from kivy.app import App
    from kivy.core.window import Window

    def first_flip(*_):
        print(f"first_frame_s {seconds_since_exec():.3f}", flush=True)
        print(f"first_frame_cpu_s {cpu_seconds():.3f}", flush=True)
        Window.unbind(on_flip=first_flip)
        App.get_running_app().stop()

    Window.bind(on_flip=first_flip)


def bare() -> int:
    at_first_frame()
    from kivy.app import App
    from kivy.uix.widget import Widget

    class Bare(App):
        def build(self):
            return Widget()

    Bare().run()
    return 0


def cpu_seconds() -> float:
    """User + system seconds this process (its threads included: software GL renders in them) has run so far: on a
    shared machine less disturbed by the other work than the wall clock."""
    return time.process_time()


def main() -> int:
    data_dir = sys.argv[1]
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    if data_dir == "--bare":
        return bare()
    from companion import cli

    at_first_frame()
    return cli.main(["--data-dir", data_dir])


if __name__ == "__main__":
    raise SystemExit(main())
