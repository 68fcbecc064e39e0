"""Shared fixtures of tests/firmware."""
from __future__ import annotations

import fcntl
import shutil
import subprocess
from pathlib import Path

import pytest

# --- Table Bus (tests/firmware/test_tablebus*.py) ----------------------------------------------------------------
HARDWARE = Path(__file__).resolve().parents[2] / "hardware"


@pytest.fixture(scope="session")
def tablebus_build() -> Path:
    """hardware/ built with its Makefile (gcc): the pty simulator, the codec filter and the C unit tests."""
    if shutil.which("gcc") is None:
        pytest.skip("gcc is not installed")
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    # Under pytest-xdist several workers may build at once: one make at a time, the others then find it built.
    (HARDWARE / "build").mkdir(exist_ok=True)
    with open(HARDWARE / "build" / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = subprocess.run(["make", "-s", "-C", str(HARDWARE), "all"], capture_output=True, text=True)
    if done.returncode:
        pytest.fail(f"make -C hardware failed:\n{done.stdout}{done.stderr}")
    return HARDWARE / "build"
