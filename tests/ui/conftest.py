"""UI tests run the real app in a child process (one Kivy window per process) on the current screen.

With no DISPLAY (e.g. `pytest` run directly on a headless machine) each child is wrapped in `xvfb-run`; `make test`
already provides a virtual screen. Without either, the UI tests are skipped locally and fail in CI.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

OBSCURIANS_DRIVER = Path(__file__).with_name("obscurians_driver.py")
SCREEN = "-screen 0 1280x800x24"


def script_command(script: Path, *args: str) -> list[str]:
    """The command that runs a driver script (obscurians_driver.py, obscurio_driver.py, …) with `args` on a screen."""
    cmd = [sys.executable, str(script), *args]
    if not os.environ.get("DISPLAY"):
        if not shutil.which("xvfb-run"):
            # In CI a missing screen is a broken setup, never a pass.
            (pytest.fail if os.environ.get("CI") else pytest.skip)(
                "no DISPLAY and no xvfb-run: cannot open the app's window (apt-get install xvfb xauth)")
        cmd = ["xvfb-run", "-a", "-s", SCREEN, *cmd]
    return cmd


def obscurians_command(*args: str) -> list[str]:
    return script_command(OBSCURIANS_DRIVER, *args)


def child_env() -> dict:
    env = dict(os.environ, KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_NO_FILELOG="1")
    root = str(OBSCURIANS_DRIVER.parents[2])
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def run_script(script: Path, *args: str, out: Path, timeout: float = 150) -> dict:
    """Runs a driver script in a child process; the result it wrote to `out` (it must hold no "error")."""
    proc = subprocess.run(script_command(script, *args, "--out", str(out)), env=child_env(), timeout=timeout,
                          capture_output=True, text=True)
    if not out.exists():
        raise AssertionError(f"the app wrote no result (exit {proc.returncode}):\n{proc.stderr[-3000:]}")
    result = json.loads(out.read_text())
    assert "error" not in result, result.get("trace", result["error"])
    return result


def run_own_driver(script: Path, tmp_path_factory, name: str) -> dict:
    """A test file that is its own touch driver (tests/ui/drive.py script_main), run once on a fresh store."""
    tmp = tmp_path_factory.mktemp(name)
    (tmp / "data").mkdir()
    return run_script(script, "--data-dir", str(tmp / "data"), out=tmp / f"{name}.json")


@pytest.fixture(scope="module")
def own_driver(request, tmp_path_factory) -> dict:
    """What a test file that is its own touch driver found: the file run once as a script (tests/ui/drive.py
    script_main), on a fresh store. The file names the result for what it holds:

        @pytest.fixture(scope="module")
        def gestures(own_driver):
            return own_driver
    """
    script = Path(request.module.__file__)
    return run_own_driver(script, tmp_path_factory, script.stem)


def run_obscurians(*args: str, out: Path, timeout: float = 150) -> dict:
    return run_script(OBSCURIANS_DRIVER, *args, out=out, timeout=timeout)


@pytest.fixture
def data_dir(tmp_path) -> Path:
    d = tmp_path / "data"
    d.mkdir()
    return d
