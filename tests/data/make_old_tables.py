"""Make a tables database with an earlier version of the app, and write down what that version showed of it.

    python tests/data/make_old_tables.py COMMIT [--then LATER] [OUT]     (OUT: tests/data/<COMMIT>[-then-<LATER>]/)

The database is written by the earlier app itself: COMMIT is checked out beside the repository (`git worktree add`),
and its own `companion` command creates every table (`import` of a header, then the hidden `session-script`, which
applies one entry at a time through its `Table`, as the tablet does) and plays the moves its own random player
chose. So the tables hold what that version accepted, under the rules it applied then (up to 29 Nov 2026 a Secure
could put 1 good in the vault; RULING obscurians-actions). Then the same old code reads every table back and
`expected.json` keeps what it showed: the two lists, each table's title, status, players, export, state, outcome,
undo/redo. tests/test_old_databases.py checks that today's app shows each table exactly so.

The script runs under both versions: `make` (today's code) drives; `play` and `record` run inside the old checkout
and import only what every version of the app has (Table, TableStore, games.get, randplay.random_game).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
DB_NAME = "tables.sqlite3"


# -- running inside the old checkout ------------------------------------------------------------------------------

def _secure_of_one(state, action) -> bool:
    """A Secure of 1 good while 2 or more were free: legal only before RULING obscurians-actions."""
    if action.to_json().get("type") != "secure" or len(action.goods) != 1:
        return False
    free = sum(state.goods[state.active].values())
    return free >= 2 and state.pending.get("secure", 0) < 4


def _obscurians_game(seed: int, n: int, *, need_one_good: bool, **kw):
    """(setup, actions, index of the first one-good Secure or None) of a random game the old engine played."""
    from companion.games.obscurians.randplay import random_game
    from companion.games.obscurians.state import new_game

    for s in range(seed, seed + 500):
        setup, actions = random_game(s, n, **kw)
        state, first = new_game(setup), None
        for i, a in enumerate(actions):
            if first is None and _secure_of_one(state, a):
                first = i
            state = state.apply(a)
        if first is not None or not need_one_good:
            return setup, actions, first
    raise SystemExit("no random game with a Secure of one good")


def _has_one_good_secure() -> bool:
    """Whether this version's engine lets a Secure take 1 good out of 2 or more."""
    import inspect

    from companion.games.obscurians import state as state_module
    return "Each Secure puts 2 goods" not in inspect.getsource(state_module)


def _entries(actions, *, undo_at=None, end_with_undo=0):
    """Log entries: the actions, an undo and a redo after action `undo_at`, and `end_with_undo` undos at the end."""
    out = []
    for i, a in enumerate(actions):
        out.append({"action": a.to_json()})
        if i == undo_at:
            out += [{"undo": True}, {"redo": True}]
    out += [{"undo": True}] * end_with_undo
    return out


def play(out: str, offset: int = 0) -> None:
    """Write the plan of tables this version can make: [{title, game, setup, entries, how, secure_one_good}]."""
    from companion.session import games

    one_good = _has_one_good_secure()
    plan = []
    setup, actions, first = _obscurians_game(11 + offset, 4, need_one_good=one_good)
    plan.append({"title": "Friday, finished", "game": "obscurians", "setup": setup.to_json(), "how": "played",
                 "entries": _entries(actions, undo_at=len(actions) // 3), "secure_one_good": first is not None})
    setup, actions, first = _obscurians_game(23 + offset, 5, need_one_good=one_good)
    cut = max(len(actions) // 2, (first or 0) + 6)
    plan.append({"title": "Half way", "game": "obscurians", "setup": setup.to_json(), "how": "played",
                 "entries": _entries(actions[:cut], undo_at=cut // 2, end_with_undo=2),
                 "secure_one_good": first is not None and first < cut - 2})
    setup, actions, first = _obscurians_game(37 + offset, 7, need_one_good=False, missions_known=False)
    plan.append({"title": "Seven, imported", "game": "obscurians", "setup": setup.to_json(), "how": "imported",
                 "entries": _entries(actions), "secure_one_good": first is not None})
    setup, actions, first = _obscurians_game(41 + offset, 6, need_one_good=False, deck="physical")
    plan.append({"title": "Not started", "game": "obscurians", "setup": setup.to_json(), "how": "played",
                 "entries": [], "secure_one_good": False})
    if "obscurio" in games.names():
        from companion.games.obscurio.randplay import random_game

        setup, actions = random_game(5 + offset, 5)
        plan.append({"title": "Obscurio, escaped or not", "game": "obscurio", "setup": setup.to_json(),
                     "how": "played", "entries": _entries(actions, undo_at=len(actions) // 2),
                     "secure_one_good": False})
        setup, actions = random_game(8 + offset, 3)
        cut = len(actions) * 2 // 3
        plan.append({"title": "Obscurio, three wizards", "game": "obscurio", "setup": setup.to_json(),
                     "how": "played", "entries": _entries(actions[:cut], end_with_undo=1), "secure_one_good": False})
    from companion.session import TableStore

    if hasattr(TableStore, "delete"):  # schema 2: the players can take a table off the lists
        setup, actions, first = _obscurians_game(53 + offset, 4, need_one_good=False)
        plan.append({"title": "Deleted after two turns", "game": "obscurians", "setup": setup.to_json(),
                     "how": "played", "entries": _entries(actions[:12]), "secure_one_good": False, "delete": True})
    Path(out).write_text(json.dumps(plan))


def record(data_dir: str, out: str) -> None:
    """What this version shows of every table in `data_dir`, read through its own store and tables."""
    import sqlite3

    from companion.session import Table, TableStore, games

    with TableStore(data_dir) as store:
        shown = {"unfinished": [r.id for r in store.unfinished()], "finished": [r.id for r in store.finished()],
                 "tables": {}}
        if hasattr(store, "count"):
            shown["deleted"] = [r.id for r in store.tables(deleted=True)]
        for tid in shown["unfinished"] + shown["finished"]:
            try:
                table = Table.open(store, tid)
            except ValueError as err:  # a later version that cannot open an earlier one's table (the bug fixed)
                shown["tables"][str(tid)] = {"error": str(err)}
                continue
            shown["tables"][str(tid)] = {
                "title": store.get(tid).title, "game": table.game, "status": table.status(),
                "players": table.players(), "export": table.export(), "state": table.state.to_json(),
                "outcome": games.get(table.game).outcome_json(table.state),
                "can_undo": table.can_undo, "can_redo": table.can_redo,
            }
    conn = sqlite3.connect(Path(data_dir) / DB_NAME)
    shown["schema"] = conn.execute("PRAGMA user_version").fetchone()[0]
    conn.close()
    Path(out).write_text(json.dumps(shown, indent=1, sort_keys=True) + "\n")


# -- driving, with today's code -----------------------------------------------------------------------------------

def _old(checkout: Path, *args: str, stdin: str | None = None) -> str:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    run = subprocess.run([sys.executable, *args], cwd=checkout, env=env, input=stdin, capture_output=True,
                         text=True)
    if run.returncode:
        raise SystemExit(f"{' '.join(args)} failed under {checkout}:\n{run.stderr}")
    return run.stdout


class OldApp:
    """An earlier version of the app, checked out in a temporary folder for as long as the `with` lasts."""

    def __init__(self, commit: str):
        self.sha = subprocess.run(["git", "rev-parse", "--short", commit], cwd=ROOT, capture_output=True, text=True,
                                  check=True).stdout.strip()
        self.described = subprocess.run(["git", "log", "-1", "--format=%H %cs %s", self.sha], cwd=ROOT,
                                        capture_output=True, text=True, check=True).stdout.strip()

    def __enter__(self) -> "OldApp":
        self.checkout = Path(tempfile.mkdtemp(prefix=f"old-{self.sha}-"))
        subprocess.run(["git", "worktree", "add", "--detach", str(self.checkout), self.sha], cwd=ROOT, check=True,
                       capture_output=True)
        self.script = self.checkout / "make_old_tables.py"
        shutil.copyfile(__file__, self.script)
        return self

    def __exit__(self, *exc) -> None:
        subprocess.run(["git", "worktree", "remove", "--force", str(self.checkout)], cwd=ROOT, capture_output=True)

    def run(self, *args: str, stdin: str | None = None) -> str:
        env = {**os.environ, "PYTHONPATH": str(self.checkout)}
        done = subprocess.run([sys.executable, *args], cwd=self.checkout, env=env, input=stdin, capture_output=True,
                              text=True)
        if done.returncode:
            raise SystemExit(f"{' '.join(args)} failed under {self.sha}:\n{done.stderr}")
        return done.stdout

    def companion(self, db: Path, *args: str, stdin: str | None = None) -> str:
        return self.run("-m", "companion", "--data-dir", str(db), *args, stdin=stdin)

    def play_tables(self, work: Path, db: Path, offset: int = 0) -> list[dict]:
        """Every table of this version's plan, made and played by this version's own command line; `offset` makes
        other random games (a second version playing into the same file)."""
        self.run(str(self.script), "play", str(work / "plan.json"), str(offset))
        plan = json.loads((work / "plan.json").read_text())
        for n, table in enumerate(plan, start=1):
            log = work / f"{self.sha}-{n}.jsonl"
            head = json.dumps({"format": 1, "game": table["game"], "setup": table["setup"]})
            imported = table["how"] == "imported"
            log.write_text("\n".join([head] + ([json.dumps(e) for e in table["entries"]] if imported else [])) + "\n")
            said = self.companion(db, "import", str(log), "--title", table["title"])
            table["id"] = int(said.split(" as table ")[1].split()[0])
            if not imported and table["entries"]:
                self.companion(db, "session-script", "--table", str(table["id"]),
                               stdin="".join(json.dumps(e) + "\n" for e in table["entries"]))
            if table.get("delete"):
                self.run("-c", "import sys; from companion.session import TableStore; "
                         "TableStore(sys.argv[1]).delete(int(sys.argv[2]))", str(db), str(table["id"]))
        return plan

    def record(self, work: Path, db: Path) -> dict:
        self.run(str(self.script), "record", str(db), str(work / "shown.json"))
        return json.loads((work / "shown.json").read_text())


def make(commit: str, out: Path, then: str | None = None) -> None:
    """Tables made by `commit`; with `then`, that later version opens the same file afterwards and plays a table
    of its own there, as a group does that updates the app (schema 1 is migrated then)."""
    work = Path(tempfile.mkdtemp(prefix="old-tables-"))
    db = work / "db"
    with OldApp(commit) as old:
        plan = old.play_tables(work, db)
        expected = old.record(work, db)
        expected["commits"] = [old.described]
    if then:
        with OldApp(then) as later:
            plan += later.play_tables(work, db, offset=1000)
            shown = later.record(work, db)
            expected["commits"].append(later.described)
        # What each table showed when it was played: the earlier version's record of its own tables.
        expected = {**shown, "commits": expected["commits"],
                    "tables": {**shown["tables"], **expected["tables"]}}
    for table in plan:
        if str(table["id"]) in expected["tables"]:
            expected["tables"][str(table["id"])]["secure_one_good"] = table["secure_one_good"]
    out.mkdir(parents=True, exist_ok=True)
    # The file as the old app left it: closed cleanly, so its -wal is folded in and one file holds everything.
    assert not (db / (DB_NAME + "-wal")).exists()
    shutil.copyfile(db / DB_NAME, out / DB_NAME)
    (out / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")
    shutil.rmtree(work)


if __name__ == "__main__":
    role = sys.argv[1]
    if role == "play":
        play(sys.argv[2], int(sys.argv[3]))
    elif role == "record":
        record(sys.argv[2], sys.argv[3])
    else:
        args = sys.argv[2:]
        later = args[args.index("--then") + 1] if "--then" in args else None
        folder = next((a for a in args if a not in ("--then", later)), None)
        make(role, Path(folder) if folder else HERE / (role + (f"-then-{later}" if later else "")), later)
