"""Running the Obscurio driver (tests/ui/obscurio_driver.py) in a child process, on a virtual screen if needed."""
from __future__ import annotations

from pathlib import Path

from tests.ui.conftest import run_script, script_command

DRIVER = Path(__file__).with_name("obscurio_driver.py")


def driver_command(*args: str) -> list[str]:
    return script_command(DRIVER, *args)


def run_driver(*args: str, out: Path, timeout: float = 150) -> dict:
    return run_script(DRIVER, *args, out=out, timeout=timeout)
