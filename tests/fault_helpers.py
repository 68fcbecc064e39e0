"""Real faults for the tables database: a tiny filesystem, a read-only mount, an unprivileged user, a lock holder.

Each helper makes the fault for real or skips the test with the plain reason it cannot be made on this machine.
Mounting needs root; as root, chmod does not stop us, so read-only files and folders are tried by an unprivileged
user (setpriv), exactly as a player's account would meet them. That account runs the app's code from a copy it can
read (the_app_for_user): the clone itself may sit where other accounts cannot enter (root's home, any 0700 folder).
"""
import atexit
import functools
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _mount(*args) -> None:
    result = subprocess.run(["mount", *args], capture_output=True, text=True)
    if result.returncode:
        pytest.skip(f"cannot mount here ({result.stderr.strip()})")


@contextmanager
def small_disk(path: Path, size: str = "200k"):
    """`path` as a fresh tmpfs of `size`: a real filesystem that fills up."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small filesystem needs root")
    path.mkdir(parents=True, exist_ok=True)
    _mount("-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path))
    try:
        yield path
    finally:
        subprocess.run(["umount", str(path)], check=True)


@contextmanager
def read_only_view(path: Path):
    """A read-only bind mount of the folder `path` (EROFS for everyone, root included); yields the view's path."""
    if os.geteuid() != 0:
        pytest.skip("a read-only bind mount needs root")
    view = Path(tempfile.mkdtemp(prefix="ro-view-"))
    try:
        _mount("--bind", str(path), str(view))
        try:
            _mount("-o", "remount,bind,ro", str(view))
            yield view
        finally:
            subprocess.run(["umount", str(view)], check=True)
    finally:
        view.rmdir()


@contextmanager
def read_only_file(path: Path):
    """`path` read-only for this very process, root included: chmod for a normal user; for root, whom chmod does not
    stop, the immutable attribute (chattr +i), which the kernel enforces for everyone. Skips where neither can be
    made (no chattr, a file system without attributes, no CAP_LINUX_IMMUTABLE)."""
    mode = path.stat().st_mode
    if os.geteuid() != 0:
        path.chmod(0o444)
        try:
            yield path
        finally:
            path.chmod(mode)
        return
    if shutil.which("chattr") is None:
        pytest.skip("running as root without chattr: cannot make a file read-only for root")
    made = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True)
    if made.returncode:
        pytest.skip(f"cannot make a file read-only for root here ({made.stderr.strip()})")
    try:
        yield path
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def nobody():
    """(uid, gid) of the unprivileged account tests run as when they are root."""
    try:
        entry = pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("no 'nobody' account to run an unprivileged process as")
    return entry.pw_uid, entry.pw_gid


def as_user(cmd: list[str]) -> list[str]:
    """`cmd` run by an account that file permissions apply to (ourselves unless we are root)."""
    if os.geteuid() != 0:
        return cmd
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: cannot drop privileges to test file permissions")
    uid, gid = nobody()
    return ["setpriv", f"--reuid={uid}", f"--regid={gid}", "--clear-groups", *cmd]


@contextmanager
def user_folder():
    """A fresh folder the unprivileged account can use (pytest's tmp_path is private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="companion-faults-"))
    try:
        folder.chmod(0o755)
        yield folder
    finally:
        for dirpath, dirnames, _ in os.walk(folder):  # undo the test's chmods so the folder can be removed
            for name in dirnames:
                os.chmod(os.path.join(dirpath, name), 0o755)
        shutil.rmtree(folder)


def give_to_user(path: Path) -> None:
    """Make the unprivileged account own `path` and everything in it (as a player owns their data folder)."""
    if os.geteuid() != 0:
        return
    uid, gid = nobody()
    for dirpath, dirnames, filenames in os.walk(path):
        os.chown(dirpath, uid, gid)
        for name in filenames:
            os.chown(os.path.join(dirpath, name), uid, gid)


# The packages the command line imports (companion/cli.py and what `tables`, `export`, `import` use; the standard
# library besides). Kept in step by test_the_copy_holds_what_the_command_line_imports in tests/test_cli_tables.py.
CLI_PACKAGES = ("companion", "firmware_bridge")


@functools.cache
def the_app_for_user() -> tuple[str, Path]:
    """(a Python the unprivileged account can run, a folder holding a copy of the app's code it can read).

    The copy is this clone's code, byte for byte, so the account runs exactly what the tests test. Without it a
    clone in a folder other accounts cannot enter fails here with "No module named companion"."""
    folder = Path(tempfile.mkdtemp(prefix="companion-code-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    for package in CLI_PACKAGES:
        shutil.copytree(Path(ROOT) / package, folder / package, ignore=shutil.ignore_patterns("__pycache__"))
    for dirpath, _, filenames in os.walk(folder):
        os.chmod(dirpath, 0o755)
        for name in filenames:
            os.chmod(os.path.join(dirpath, name), 0o644)
    # The venv's python may be a link into the private folder too; its target, or the base interpreter, may not.
    candidates = dict.fromkeys([sys.executable, os.path.realpath(sys.executable),
                                getattr(sys, "_base_executable", sys.executable), shutil.which("python3.11") or ""])
    for python in filter(None, candidates):
        probe = subprocess.run(as_user([python, "-c", "import sqlite3, companion.cli"]), cwd=folder,
                               env=_user_env(folder), capture_output=True, timeout=60)
        if probe.returncode == 0:
            return python, folder
    pytest.skip("no Python interpreter here that the unprivileged account can run")


def _user_env(code: Path) -> dict:
    return {**os.environ, "PYTHONPATH": str(code), "PYTHONDONTWRITEBYTECODE": "1"}


def companion_as_user(*args, data_dir, stdin=None):
    if os.geteuid() != 0:  # permissions apply to us: run the clone's own code as the other tests do
        python, code, cwd, env = sys.executable, None, ROOT, None
    else:
        python, code = the_app_for_user()
        cwd, env = code, _user_env(code)
    return subprocess.run(
        as_user([python, "-m", "companion", "--data-dir", str(data_dir), *args]),
        input=stdin, capture_output=True, text=True, cwd=cwd, env=env, timeout=60,
    )


HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
if sys.argv[2] == "exclusive":
    conn.execute("PRAGMA locking_mode=EXCLUSIVE")
    conn.execute("BEGIN EXCLUSIVE")
else:
    conn.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.readline()        # hold the lock until the test says so (or closes the pipe)
conn.execute("ROLLBACK")
"""


class LockHolder:
    """A second process holding the database's write lock (`BEGIN IMMEDIATE`) until release()."""

    def __init__(self, db_path: Path, how: str = "immediate"):
        self.proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(db_path), how],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout.readline().strip() == "locked"

    def release(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.write("\n")
            self.proc.stdin.flush()
        self.proc.wait(timeout=10)

    def __enter__(self) -> "LockHolder":
        return self

    def __exit__(self, *exc) -> None:
        self.release()


def snapshot(db_path: Path) -> list:
    """Everything stored, as plain rows (read with a separate connection, bytes for text so damage is visible)."""
    import sqlite3

    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        tables = conn.execute("SELECT id, CAST(game AS BLOB), CAST(setup_json AS BLOB), CAST(title AS BLOB), "
                              "CAST(finished AS BLOB) FROM tables ORDER BY id").fetchall()
        events = conn.execute("SELECT table_id, seq, kind, CAST(payload_json AS BLOB) FROM events "
                              "ORDER BY table_id, seq").fetchall()
        return [tables, events]
    finally:
        conn.close()


KILLED_WRITER = """
import os, signal, sys
sys.path.insert(0, os.path.join(sys.argv[4], "tests"))
from companion.session import Table, TableStore
from session_helpers import game
setup, actions = game(int(sys.argv[2]))
store = TableStore(sys.argv[1])
table = Table.create(store, "obscurians", setup)
for action in actions[:int(sys.argv[3])]:
    table.apply(action)
    print("ack", table.log_length, flush=True)
os.kill(os.getpid(), signal.SIGKILL)   # no close, no checkpoint: the moves stay in the -wal
"""


def killed_writer(data_dir: Path, seed: int, moves: int) -> list[int]:
    """A real writer that acknowledges `moves` moves of a new table and is then SIGKILLed; returns its acks."""
    result = subprocess.run([sys.executable, "-c", KILLED_WRITER, str(data_dir), str(seed), str(moves), ROOT],
                            capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == -9, result.stderr
    return [int(line.split()[1]) for line in result.stdout.splitlines()]


def file_bytes(folder: Path) -> dict:
    """Every file in `folder` with its bytes: to show that nothing was created, changed or removed."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def file_bytes_but(folder: Path, *endings: str) -> dict:
    """`file_bytes` without the files whose names end so (SQLite's -shm index, which any reader may rebuild)."""
    return {name: data for name, data in file_bytes(folder).items() if not name.endswith(endings)}
