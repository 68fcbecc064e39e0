"""Captures of one die and `python -m firmware_bridge replay CAPTURE.jsonl --json`: hand-written captures of each
Pixels firmware generation and of a GoDice (their bytes follow the structs named in test_pixels_generations.py and
godiceapi.c), a capture written by `monitor --capture` of a die on the virtual radio replayed to exactly what the
device manager delivered, and bad captures refused in one line (exit 2)."""
from __future__ import annotations

import asyncio
import io
import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.capture import CaptureError, CaptureWriter, replay
from firmware_bridge.ble.virtual import VirtualRadio
from firmware_bridge.manager import DeviceManager
from firmware_bridge.observations import (BatteryLevel, DieCrooked, DieIdentified, DieRolled, DieRolling,
                                          DieSetDown)


def capture(kind: str, lines: list[tuple[float, str]], name: str = "die", advertisement=None) -> bytes:
    head = {"kind": kind, "name": name, "advertisement": advertisement or {}}
    return "\n".join([json.dumps(head)] + [json.dumps({"t": t, "hex": h.replace(" ", "")}) for t, h in lines]).encode()


def replayed(data: bytes, **kw) -> list[dict]:
    return list(replay(io.BytesIO(data), **kw))


def test_a_pixels_d10_of_november_2023():
    """LegacyIAmADie (22 bytes: d10, midnightGalaxy, 2023-11-15, at rest on index 0, 87 %), then a throw to 9,
    picked up and put back on 4 (handling, then 01: that firmware's onFace), a battery change, a crooked landing."""
    lines = [(0.05, "02 0a 03 04 04 03 02 01 d4 c3 b2 a1 34 12 c0 b2 54 65 01 00 57 00"),
             (1.0, "03 03 00"), (1.4, "03 01 09"),
             (2.0, "03 02 09"), (2.3, "03 01 04"),
             (3.0, "22 56 02"),
             (4.0, "03 03 04"), (4.5, "03 04 04")]
    assert replayed(capture("pixels", lines)) == [
        {"device": {"model": "d10", "colourway": "midnightGalaxy", "firmware": "2023-11-15", "battery": 87}},
        {"rolling": True}, {"rolled": 9, "confidence": 1.0},
        {"rolling": True}, {"set_down": 4},
        {"battery": 86, "charging": True},
        {"rolling": True}, {"crooked": True}]


def test_a_pixels_d6_of_june_2023_with_the_old_normals_and_flat_crooked():
    """The 22-byte layout with designAndColor (09 onyxBlack) and padding; faces through the old normals (index 4 is
    face 2); lying flat reported as crooked (04) is a roll, as pixels-js reads it."""
    lines = [(0.05, "02 06 09 00 04 03 02 01 ef be 00 00 34 12 40 fd 8a 64 04 04 40 00"),
             (1.0, "03 03 01"), (1.6, "03 04 04"),
             (2.0, "03 03 04"), (2.6, "03 04 01")]
    assert replayed(capture("pixels", lines)) == [
        {"device": {"model": "d6", "colourway": "onyxBlack", "firmware": "2023-06-15", "battery": 64}},
        {"rolling": True}, {"rolled": 2, "confidence": 1.0},
        {"rolling": True}, {"rolled": 5, "confidence": 1.0}]


def test_a_pixels_d00_of_current_firmware_and_its_advertisement():
    """IAmADie in chunks (d00, hematiteGrey, 2025-01-15, 100 % full on the charger); onFace 05 after handling."""
    chunked = ("02 0f 04 01 40 a3 87 67 01 01 00 01 00 01 00 01 09 42 00 fe ca 01 05 0a 02 02 00"
               " 09 50 69 78 65 6c 20 37 00 0d 44 33 22 11 30 75 00 00 00 00 01 00 05 64 03 05 03")
    lines = [(0.0, chunked), (1.0, "03 03 03"), (1.5, "03 01 03"), (2.0, "03 02 03"), (2.4, "03 05 07"),
             (3.0, "03 03 07"), (3.3, "03 01 07")]
    adv = {"manufacturer_data": {"3385": "0a 52 05 03 e4".replace(" ", "")},
           "service_data": {"a6b90001-7a5a-43f2-a962-350c8edc9b5b": "4200feca40a38767"}}
    assert replayed(capture("pixels", lines, "Pixel 7", adv)) == [
        {"device": {"model": "d00", "colourway": "hematiteGrey", "firmware": "2025-01-15", "battery": 100}},
        {"rolling": True}, {"rolled": 30, "confidence": 1.0},
        {"rolling": True}, {"set_down": 70},
        {"rolling": True}, {"rolled": 70, "confidence": 1.0}]   # the same face as before, thrown: a roll


def test_a_godice_in_a_d20_shell_turned_by_hand_and_tapped():
    """godiceapi.c: "Col" 03 blue, "Bat" 57 (87 %), "R" (with a trailing byte), "S" + xyz of D20 face 14
    (42 42 42), "MS" + the vector of face 6 (16 40 00) — turned by hand, "Tap", "DTap", "TS" tilted."""
    lines = [(0.0, "43 6f 6c 03"), (0.1, "42 61 74 57"), (1.0, "52 00"), (1.5, "53 2a 2a 2a"),
             (2.0, "4d 53 16 40 00"), (2.5, "54 61 70"), (2.6, "44 54 61 70"),
             (3.0, "52"), (3.4, "54 53 10 10 2a")]
    assert replayed(capture("godice", lines), shell="d20") == [
        {"device": {"model": "d20", "colourway": "blue", "firmware": None, "battery": None}},
        {"battery": 87, "charging": False},
        {"rolling": True}, {"rolled": 14, "confidence": 1.0},
        {"set_down": 6},
        {"rolling": True}, {"crooked": True}]


def test_a_capture_of_a_die_on_the_virtual_radio_replays_to_what_the_manager_delivered(tmp_path):
    """monitor --capture's writer on a Pixels die of November 2023 and a current one: the replay of the file is the
    stream of observations the device manager handed the session, in the replay's words."""
    async def main(firmware: str, path):
        async with VirtualRadio() as radio:
            px = await radio.add_pixels("F0:00:00:00:00:02", die_type="d20", firmware=firmware, battery=55)
            url = "ble://F0:00:00:00:00:02?kind=pixels&timeout=2"
            device = radio.open_device(url)
            writer = CaptureWriter(str(path), device)
            delivered = []
            async with DeviceManager(opener=lambda u: device) as manager:
                manager.subscribe(delivered.append)
                await manager.add(url)
                await px.wait_subscribed()
                writer.opened()
                await asyncio.sleep(0.1)
                for face in (20, 20, 7):
                    await px.roll(face)
                await px.set_down(12)
                await px.crooked()
                await px.low_battery(8)
                await asyncio.sleep(0.3)
            writer.close()
        return delivered

    for firmware in ("2023-11", "current"):
        path = tmp_path / f"{firmware}.jsonl"
        delivered = asyncio.run(asyncio.wait_for(main(firmware, path), 30))
        expected = []
        for o in delivered:
            if isinstance(o, DieIdentified):
                expected.append({"device": {"model": o.model, "colourway": o.colour or None,
                                            "firmware": o.firmware or None, "battery": 55}})
            elif isinstance(o, DieRolling):
                expected.append({"rolling": True})
            elif isinstance(o, DieRolled):
                expected.append({"rolled": o.face, "confidence": o.confidence})
            elif isinstance(o, DieCrooked):
                expected.append({"crooked": True})
            elif isinstance(o, DieSetDown):
                expected.append({"set_down": o.face})
            elif isinstance(o, BatteryLevel) and o.percent != 55:
                expected.append({"battery": o.percent, "charging": o.charging})
        got = list(replay(path.open("rb")))
        assert got == expected, firmware
        assert got[1:] == [{"rolling": True}, {"rolled": 20, "confidence": 1.0}, {"rolling": True},
                           {"rolled": 20, "confidence": 1.0}, {"rolling": True}, {"rolled": 7, "confidence": 1.0},
                           {"rolling": True}, {"set_down": 12}, {"rolling": True}, {"crooked": True},
                           {"battery": 8, "charging": False}]
        head = json.loads(path.read_text().splitlines()[0])
        assert head["kind"] == "pixels" and "3385" in head["advertisement"]["manufacturer_data"]


def run_cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "firmware_bridge", *args], capture_output=True, text=True,
                          input=stdin, timeout=60)


def test_replay_on_the_command_line_prints_one_json_object_per_line(tmp_path):
    path = tmp_path / "c.jsonl"
    path.write_bytes(capture("pixels", [(0.05, "02 0a 03 04 04 03 02 01 d4 c3 b2 a1 34 12 c0 b2 54 65 01 00 57 00"),
                                        (1.0, "03 03 00"), (1.4, "03 01 09")]))
    done = run_cli("replay", str(path), "--json")
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.splitlines() == [
        '{"device": {"model": "d10", "colourway": "midnightGalaxy", "firmware": "2023-11-15", "battery": 87}}',
        '{"rolling": true}', '{"rolled": 9, "confidence": 1.0}']


@pytest.mark.parametrize("text, words", [
    ("", "empty"),
    ("not json\n", "line 1: not JSON"),
    ('{"kind": "dice"}\n', "kind"),
    ('{"kind": "pixels", "colour": 1}\n', "colour: unknown field"),
    ('{"kind": "pixels", "advertisement": {"manufacturer_data": {"x": "00"}}}\n', "company id"),
    ('{"kind": "pixels"}\n{"t": 1, "hex": "0g"}\n', "line 2: hex"),
    ('{"kind": "pixels"}\n{"t": "soon", "hex": "00"}\n', "line 2: t"),
    ('{"kind": "pixels"}\n[1, 2]\n', "line 2: expected"),
    ('{"kind": "godice"}\n' + "[" * 5000 + "\n", "line 2"),
])
def test_a_bad_capture_is_one_line_and_exit_2(tmp_path, text, words):
    path = tmp_path / "bad.jsonl"
    path.write_text(text)
    done = run_cli("replay", str(path), "--json")
    assert done.returncode == 2 and done.stdout == ""
    assert words in done.stderr and len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_replay_of_a_missing_file_and_a_bad_shell(tmp_path):
    done = run_cli("replay", str(tmp_path / "none.jsonl"))
    assert done.returncode == 2 and "No such file" in done.stderr
    path = tmp_path / "g.jsonl"
    path.write_bytes(capture("godice", [(0, "52")]))
    done = run_cli("replay", str(path), "--shell", "d7")
    assert done.returncode == 2 and "d7" in done.stderr and len(done.stderr.splitlines()) == 1


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["pixels", "godice"]), st.lists(st.binary(max_size=60), max_size=12))
def test_replay_never_fails_on_what_a_die_might_send(kind, notifications):
    lines = replayed(capture(kind, [(i * 0.1, n.hex()) for i, n in enumerate(notifications)]))
    assert all(isinstance(line, dict) and len(line) in (1, 2) for line in lines)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_replay_of_any_file_is_lines_or_one_capture_error(data):
    try:
        replayed(data)
    except CaptureError as err:
        assert "\n" not in str(err)
