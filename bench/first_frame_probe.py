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
    """Print the figures when the first frame is drawn, then stop the running app.

    No window is made here: importing kivy.core.window creates it, and one made before the app's would be made
    before the app's own imports and settings, outside what is measured as the app's (and, made before
    kivy_setup's settings, another window: 800x600, multisampled). The window is looked up only once Kivy's
    event loop starts, when the app (or the bare App) has made it. Kivy's settings module is imported first, as
    companion/ui/app.py does: kivy's logger reads KIVY_NO_CONSOLELOG when kivy is first imported."""
    from companion.ui import kivy_setup  # noqa: F401  (1280x800, no multisampling, no console log)
    from kivy.base import EventLoop

    def started(*_):
        from kivy.app import App
        from kivy.core.window import Window  # made by now: the app made it before the loop started

        def first_flip(*_):
            print(f"first_frame_s {seconds_since_exec():.3f}", flush=True)
            print(f"first_frame_cpu_s {cpu_seconds():.3f}", flush=True)
            Window.unbind(on_flip=first_flip)
            App.get_running_app().stop()

        Window.bind(on_flip=first_flip)

    EventLoop.bind(on_start=started)


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
