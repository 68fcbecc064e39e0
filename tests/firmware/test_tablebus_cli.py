"""python -m firmware_bridge: encode/decode round trips, scan, monitor on the C simulator, and fuzzing — every
error one line on stderr with exit 2, never a traceback."""
from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge.__main__ import main
from firmware_bridge.tablebus import messages as m

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "firmware_bridge"]


def cli(args, stdin: bytes = b"", timeout: float = 30) -> subprocess.CompletedProcess:
    return subprocess.run(CLI + list(args), input=stdin, capture_output=True, timeout=timeout, cwd=ROOT)


def run_main(argv, stdin: bytes = b"") -> tuple[int, bytes, str]:
    """The CLI in this process (fast enough to fuzz): exit code, stdout bytes, stderr text."""
    out = io.BytesIO()
    fake_out = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    err = io.StringIO()
    with contextlib.ExitStack() as stack:
        stack.enter_context(contextlib.redirect_stderr(err))
        stack.enter_context(contextlib.redirect_stdout(fake_out))
        old_in = sys.stdin
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
        stack.callback(setattr, sys, "stdin", old_in)
        code = main(list(argv))
    fake_out.flush()
    return code, out.getvalue(), err.getvalue()


def assert_clean_failure(code: int, err: str) -> None:
    assert code == 2
    assert err.count("\n") == 1 and err.endswith("\n") and "Traceback" not in err, err


# ------------------------------------------------------------------------------------------------- round trips

def test_encode_demo_covers_every_message_and_decode_round_trips():
    frames = cli(["encode", "--demo", "45"])
    assert frames.returncode == 0 and frames.stderr == b""
    decoded = cli(["decode"], frames.stdout)
    assert decoded.returncode == 0
    lines = decoded.stdout.decode().splitlines()
    assert len(lines) == 45
    assert {json.loads(line)["type"] for line in lines} == {c.NAME for c in m.BOARD_MESSAGES + m.HOST_MESSAGES}
    assert decoded.stderr.decode().startswith("decode: 45 frames") and decoded.stderr.count(b"\n") == 1
    again = cli(["encode"], decoded.stdout)
    assert again.returncode == 0 and again.stdout == frames.stdout


def test_encode_hex_writes_one_frame_per_line():
    code, out, _ = run_main(["encode", "--demo", "15", "--hex"])
    lines = out.decode().split()
    assert code == 0 and len(lines) == 15 and all(bytes.fromhex(x)[0] == 0xA5 for x in lines)


def test_decode_reports_what_it_dropped_and_prints_unknown_frames_as_raw():
    code, frames, _ = run_main(["encode"], b'{"type": "button", "button": 1}\n{"type": "raw", "code": 96, '
                                           b'"payload": "0102"}\n')
    assert code == 0
    # "\xa5j" is a false start claiming 106 bytes: given up at the end of input, like the cut-off last frame
    code, out, err = run_main(["decode"], b"\x00\xa5junk" + frames + frames[:5])
    rows = [json.loads(line) for line in out.decode().splitlines()]
    assert rows == [{"type": "button", "seq": 0, "button": 1}, {"type": "raw", "seq": 1, "code": 96,
                                                                  "payload": "0102"}]
    assert "dropped 11 bytes" in err and "truncated 2" in err and "1 frames not understood" in err


def test_seq_is_kept_when_given_and_counted_when_not():
    code, out, _ = run_main(["encode", "--hex"], b'{"type":"ack","acked":1,"seq":200}\n{"type":"ack","acked":2}\n')
    first, second = (bytes.fromhex(x) for x in out.decode().split())
    assert code == 0 and first[3] == 200 and second[3] == 0


@pytest.mark.parametrize("line, says", [
    (b'{"type": "tile", "cell": 25, "tile": 1, "direction": "N"}', "cell: expected an integer 0-24"),
    (b'{"type": "led", "pattern": "disco"}', "pattern: one of"),
    (b'{"type": "warp"}', "is not a Table Bus message"),
    (b'{"type": "button", "button": 1, "colour": 3}', "button.colour: unknown field"),
    (b'{"type": "ack", "acked": 1, "seq": 256}', "seq: expected an integer 0-255"),
    (b'{"type": "battery", "percent": 1e999}', "the number 1e999 is too large"),  # refused as JSON (strictjson)
    (b'{"type": "raw", "code": 1, "payload": "zz"}', "raw.payload: expected a hex string"),
    (b'{"type": "error", "text": "' + b"x" * 70 + b'"}', "text: at most 64 bytes"),
    (b'{"type": "grid", "cells": [{"tile": 1}]}', "cells: exactly 25 cells"),
    (b"[" * 50000, "nested too deeply"),
    (b'{"type": "button", "button": ' + b"9" * 5000 + b"}", "not JSON"),
    (b"\xff\xfe", "not UTF-8"),
])
def test_encode_refuses_a_bad_line_in_one_line(line, says):
    code, _, err = run_main(["encode"], b'{"type": "button"}\n' + line + b"\n")
    assert_clean_failure(code, err)
    assert "line 2" in err and says in err, err


@pytest.mark.parametrize("argv", [[], ["bogus"], ["encode", "--demo", "-1"], ["encode", "--demo", "9" * 40],
                                  ["encode", "--demo", "x"], ["scan", "--timeout", "nan"],
                                  ["scan", "--timeout", "1e308"], ["monitor"], ["monitor", "ftp://x"],
                                  ["monitor", "serial:///nonexistent/port"], ["monitor", "ble://x?kind=nope"],
                                  ["monitor", "sim://tablebus?retries=x"], ["monitor", "\udcff\U0001F3B2://"],
                                  ["monitor", "sim://tablebus", "--count", "0"]])
def test_bad_arguments_fail_in_one_line(argv):
    code, _, err = run_main(argv)
    assert_clean_failure(code, err)


# ------------------------------------------------------------------------------------------------------- fuzzing

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20)
message_like = st.fixed_dictionaries({"type": st.sampled_from(sorted(m.BY_NAME) + ["x"])},
                                     optional={k: json_values for k in ("seq", "cell", "tile", "direction", "dice",
                                                                       "cells", "name", "code", "payload",
                                                                       "pattern", "upright", "percent")})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(message_like | json_values, max_size=4))
def test_fuzz_encode_with_json(values):
    stdin = "".join(json.dumps(v) + "\n" for v in values).encode()
    code, out, err = run_main(["encode"], stdin)
    if code == 2:
        assert_clean_failure(code, err)
    else:
        assert code == 0 and err == ""
        code, back, _ = run_main(["decode"], out)
        assert code == 0 and len(back.decode().splitlines()) == len([v for v in values])


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000), st.sampled_from(["encode", "decode"]))
def test_fuzz_encode_and_decode_with_bytes(data, command):
    code, _, err = run_main([command], data)
    if code == 2:
        assert_clean_failure(code, err)
    else:
        assert code == 0 and "Traceback" not in err


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=12) | st.sampled_from(["--demo", "--hex", "--timeout", "--count", "-h"]),
                max_size=4), st.sampled_from(["encode", "decode", "", "--demo"]))
def test_fuzz_arguments(args, first):
    argv = ([first] if first else []) + args
    code, _, err = run_main(argv)
    assert code in (0, 2) and "Traceback" not in err
    if code == 2:
        assert_clean_failure(code, err)


# ------------------------------------------------------------------------------------------------ scan, monitor

def test_scan_lists_ports_and_notes_ble_in_one_line():
    done = cli(["scan", "--timeout", "0.5"])
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    for line in done.stdout.decode().splitlines():
        assert line.startswith(("serial://", "ble://"))


@pytest.fixture()
def c_board(tablebus_build):
    with tempfile.TemporaryDirectory(prefix="tbsim-") as tmp:
        link = os.path.join(tmp, "board")
        proc = subprocess.Popen([str(tablebus_build / "tbsim"), "--link", link, "--heartbeat", "50"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline().startswith("ready ")
        try:
            yield proc, link
        finally:
            proc.stdin.write("quit\n")
            proc.stdin.flush()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()


def test_monitor_prints_a_c_boards_observations(c_board):
    board, link = c_board
    mon = subprocess.Popen(CLI + ["monitor", f"serial://{link}", "--count", "3"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        first = json.loads(mon.stdout.readline())
        assert first["type"] == "connection" and first["state"] == "connected"
        board.stdin.write("button 1\ntile 4 27 S\n")
        board.stdin.flush()
        rest = [json.loads(mon.stdout.readline()) for _ in range(2)]
        assert mon.wait(10) == 0
    finally:
        if mon.poll() is None:
            mon.kill()
    assert {r["type"] for r in rest} == {"button", "tile_read"}
    assert [r for r in rest if r["type"] == "tile_read"][0] | {"at": 0} == {
        "type": "tile_read", "cell": 4, "tile": 27, "direction": "S", "confidence": 1.0,
        "source": f"serial://{link}", "at": 0}


def _at_a_terminal() -> None:
    """In the child before it runs: Ctrl-C as at a terminal. A test run started in the background of a script
    (`make test &`) hands its children SIGINT ignored, as POSIX shells do for background jobs, and a program rightly
    keeps an ignored SIGINT ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_monitor_stops_cleanly_on_ctrl_c(c_board):
    _, link = c_board
    mon = subprocess.Popen(CLI + ["monitor", f"serial://{link}"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, cwd=ROOT, preexec_fn=_at_a_terminal)
    try:
        assert json.loads(mon.stdout.readline())["state"] == "connected"
        mon.send_signal(signal.SIGINT)
        assert mon.wait(10) == 0
        assert "Traceback" not in mon.stderr.read()
    finally:
        if mon.poll() is None:
            mon.kill()


def test_monitor_of_a_board_that_goes_away_fails_in_one_line(c_board):
    board, link = c_board
    mon = subprocess.Popen(CLI + ["monitor", f"serial://{link}"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, cwd=ROOT)
    try:
        assert json.loads(mon.stdout.readline())["state"] == "connected"
        board.stdin.write("unplug\n")
        board.stdin.flush()
        assert json.loads(mon.stdout.readline())["state"] == "lost"
        assert mon.wait(10) == 2
        err = mon.stderr.read()
        assert err.count("\n") == 1 and "connection lost" in err
    finally:
        if mon.poll() is None:
            mon.kill()


def test_scan_lists_ble_boards_from_the_ble_scanner(monkeypatch):
    from firmware_bridge.ble import scan

    class Found:
        def __init__(self, address, name, kind, rssi):
            self.address, self.name, self.kind, self.rssi = address, name, kind, rssi

        @property
        def url(self):
            return f"ble://{self.address}?kind={self.kind}" if self.kind else None

    async def discover(timeout):
        return [Found("F0:00:00:00:00:01", "TableBus-stand", "tablebus", -50),
                Found("F0:00:00:00:00:02", "Headphones", None, -70)]

    monkeypatch.setattr(scan, "discover", discover)
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [])
    code, out, _ = run_main(["scan", "--timeout", "0.1"])
    assert code == 0 and out.decode().splitlines() == ["ble://F0:00:00:00:00:01?kind=tablebus\tTableBus-stand\t-50 dBm"]
    code, out, _ = run_main(["scan", "--timeout", "0.1", "--all"])
    assert code == 0 and out.decode().splitlines()[1] == "ble://F0:00:00:00:00:02\tHeadphones\t-70 dBm"

    async def no_radio(timeout):
        raise OSError("No such file or directory")

    monkeypatch.setattr(scan, "discover", no_radio)
    code, out, err = run_main(["scan", "--timeout", "0.1"])
    assert code == 0 and out == b"" and "BLE skipped" in err and "Traceback" not in err
