"""Running the Obscurio driver (tests/ui/obscurio_driver.py) in a child process, on a virtual screen if needed."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ui.conftest import child_env

DRIVER = Path(__file__).with_name("obscurio_driver.py")
SCREEN = "-screen 0 1280x800x24"


def driver_command(*args: str) -> list[str]:
    cmd = [sys.executable, str(DRIVER), *args]
    if not os.environ.get("DISPLAY"):
        if not shutil.which("xvfb-run"):
            (pytest.fail if os.environ.get("CI") else pytest.skip)(
                "no DISPLAY and no xvfb-run: cannot open the app's window (apt-get install xvfb xauth)")
        cmd = ["xvfb-run", "-a", "-s", SCREEN, *cmd]
    return cmd


def run_driver(*args: str, out: Path, timeout: float = 150) -> dict:
    proc = subprocess.run(driver_command(*args, "--out", str(out)), env=child_env(), timeout=timeout,
                          capture_output=True, text=True)
    if not out.exists():
        raise AssertionError(f"the app wrote no result (exit {proc.returncode}):\n{proc.stderr[-3000:]}")
    result = json.loads(out.read_text())
    assert "error" not in result, result.get("trace", result["error"])
    return result
