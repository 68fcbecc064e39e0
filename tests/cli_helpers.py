"""The command line as a player runs it: `companion ARGS` in a fresh Python process, this clone's code first on the
path. Every CLI test goes through `companion()` (fault_helpers.companion_as_user runs it as another account)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def companion(*argv, data_dir=None, stdin=None, cwd=None, text: bool = True, stdout=subprocess.PIPE,
              timeout: float = 60) -> subprocess.CompletedProcess:
    """`python -m companion [--data-dir DATA_DIR] ARGV…` run from `cwd` (the clone by default), stdin fed from
    `stdin`; stdout (unless sent elsewhere by `stdout`) and stderr captured, as str (or bytes with text=False:
    hostile input may print odd bytes)."""
    args = [sys.executable, "-m", "companion"]
    if data_dir is not None:
        args += ["--data-dir", str(data_dir)]
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run(args + [str(a) for a in argv], input=stdin, stdout=stdout, stderr=subprocess.PIPE,
                          text=text, cwd=cwd or ROOT, timeout=timeout, env=env)
