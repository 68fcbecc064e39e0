"""A sampled mutation pass over the pure modules: do the tests notice one broken line? (`make mutate`)

mutmut (configured in pyproject.toml, [tool.mutmut]) copies the packages into mutants/, writes every mutant of the
modules named there (an operator flipped, a constant changed, a line dropped…), learns which tests call each
function, and runs only those tests against that function's mutants, one forked process each. mutmut itself has
no sampling, so this driver:

1. lets mutmut write every mutant and collect its test map (a run that asks for a mutant that does not exist);
2. draws a fixed-seed sample of each package's mutants (the same code gives the same sample on any machine);
3. runs mutmut on exactly those mutants;
4. prints, per package, how many the tests caught, and the ones that lived (`mutmut show NAME` prints the change).

    python bench/mutate.py                    # 40 mutants per package, seed 17, a fresh mutants/ folder
    python bench/mutate.py --per-package 10   # a quicker look
    python bench/mutate.py --keep             # reuse mutants/ from the last run (mutmut updates what changed)
    python bench/mutate.py --package store    # run one package's sample only (drawn as in a full run)

A mutant is caught when one of its tests fails or it times out (an endless loop is noticed too); it lives when
every test passes or no test calls its function at all. mutmut's full log is in mutants/mutate.log.
"""
from __future__ import annotations

import argparse
import json
import random
import resource
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = ROOT / "mutants"
LOG = MUTANTS / "mutate.log"

# The packages the score is given for: name -> the source files (glob) that belong to it. Together they are
# pyproject.toml's [tool.mutmut] only_mutate.
PACKAGES = {
    "obscurians": ["companion/games/obscurians/*.py"],
    "obscurio": ["companion/games/obscurio/*.py"],
    "device protocols": ["firmware_bridge/ble/*_protocol.py", "firmware_bridge/tablebus/frame.py",
                         "firmware_bridge/tablebus/messages.py"],
    "store": ["companion/session/store.py"],
}
NO_SUCH_MUTANT = "no.such.mutant__mutmut_0"  # asks mutmut to prepare everything and then run nothing
CAUGHT = {"killed", "timeout", "segfault", "caught by type check"}
LIVED = {"survived", "no tests"}


def mutmut(*args: str) -> int:
    """Run mutmut in the repository, its chatter (a spinner per step) appended to mutants/mutate.log."""
    exe = Path(sys.executable).with_name("mutmut")
    MUTANTS.mkdir(exist_ok=True)
    with LOG.open("a") as log:
        log.write(f"\n$ mutmut {' '.join(args[:3])}{' …' if len(args) > 3 else ''}\n")
        log.flush()
        return subprocess.run([str(exe), *args], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT).returncode


def mutants_by_package() -> dict[str, list[str]]:
    """Every mutant mutmut wrote, by package, sorted by name (mutmut keeps them in mutants/<file>.py.meta)."""
    out: dict[str, list[str]] = defaultdict(list)
    for meta in sorted(MUTANTS.rglob("*.py.meta")):
        source = meta.relative_to(MUTANTS).as_posix()[: -len(".meta")]
        package = next((p for p, globs in PACKAGES.items() if any(fnmatch(source, g) for g in globs)), None)
        if package is not None:
            out[package].extend(json.loads(meta.read_text())["exit_code_by_key"])
    return {p: sorted(names) for p, names in out.items()}


def exit_codes() -> dict[str, int | None]:
    codes: dict[str, int | None] = {}
    for meta in MUTANTS.rglob("*.py.meta"):
        codes.update(json.loads(meta.read_text())["exit_code_by_key"])
    return codes


def status(code: int | None) -> str:
    from mutmut.stats import status_by_exit_code  # mutmut's own reading of its exit codes

    return status_by_exit_code[code]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=17, help="the sample's seed (default 17)")
    ap.add_argument("--per-package", type=int, default=40, help="mutants drawn per package (default 40)")
    ap.add_argument("--keep", action="store_true", help="reuse mutants/ from the last run")
    ap.add_argument("--package", action="append", choices=sorted(PACKAGES), metavar="NAME",
                    help="run only this package's sample (repeatable; the sample is drawn as in a full run, so the "
                         f"same mutants come out); one of: {', '.join(sorted(PACKAGES))}")
    args = ap.parse_args(argv)

    started = time.monotonic()
    if not args.keep and MUTANTS.exists():
        shutil.rmtree(MUTANTS)
    print("mutmut: writing every mutant and finding which tests call each function …", flush=True)
    mutmut("run", NO_SUCH_MUTANT)  # ends in "nothing matches" once the mutants and the test map are written
    if not (MUTANTS / "mutmut-stats.json").exists():
        print(f"mutmut could not prepare the run: see {LOG}", file=sys.stderr)
        return 2
    everything = mutants_by_package()
    rng = random.Random(args.seed)
    sample = {p: sorted(rng.sample(names, min(args.per_package, len(names))))
              for p, names in sorted(everything.items())}
    if args.package:  # drawn above for every package, so that a package's sample does not depend on this choice
        sample = {p: names for p, names in sample.items() if p in args.package}
    chosen = [name for names in sample.values() for name in names]
    prepared = time.monotonic() - started
    print(f"  {sum(map(len, everything.values()))} mutants written in {prepared:.0f} s; "
          f"running {len(chosen)} of them (seed {args.seed}) …", flush=True)
    mutmut("run", *chosen)
    codes = exit_codes()

    print(f"\n{'package':<18}{'mutants':>8}{'caught':>8}{'lived':>7}{'score':>8}")
    lived_names = []
    for package, names in sample.items():
        states = [status(codes.get(n)) for n in names]
        caught = sum(s in CAUGHT for s in states)
        lived = [n for n, s in zip(names, states) if s in LIVED]
        lived_names += [(n, s) for n, s in zip(names, states) if s in LIVED]
        unrun = len(names) - caught - len(lived)
        score = caught / (caught + len(lived)) if caught + len(lived) else 0.0
        print(f"{package:<18}{len(names):>8}{caught:>8}{len(lived):>7}{score:>8.0%}"
              + (f"   ({unrun} not run: see {LOG.relative_to(ROOT)})" if unrun else ""))
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"\n{len(chosen)} mutants in {time.monotonic() - started:.0f} s (preparing {prepared:.0f} s); "
          f"{cpu.ru_utime + cpu.ru_stime:.0f} s of CPU (mutmut and its tests: a busy machine adds to the wall time)")
    if lived_names:
        print("\nLived (`.venv/bin/mutmut show NAME` prints the change):")
        for name, state in lived_names:
            print(f"  {name}" + ("  (no test calls it)" if state == "no tests" else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
