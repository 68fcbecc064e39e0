"""A camera by URL in the device manager (issue 19 §6): `file://photo.jpg` and `sim://camera` run the real capture
loop (frames read in a worker thread, the stillness gate, the dice reader) and report `DiceSettled`; through the
session's observation door a throw of five henchmen dice read by the camera becomes a Roll when every die is sure
and legal, and a question (the table unchanged) when a die is doubtful.
"""
from __future__ import annotations

import asyncio

import cv2
import numpy as np
import pytest

from companion.games.obscurians.actions import RevealEvent, Roll
from companion.games.obscurians.setup import Setup
from companion.session import Table, TableStore
from companion.session.observe import MIN_CONFIDENCE, ObservationDoor
from firmware_bridge.device import open_device
from firmware_bridge.manager import DeviceManager
from firmware_bridge.observations import ConnectionChanged, DiceSettled, DieRolling
from vision.camera_device import CameraDevice
from vision.render.dice import render_dice

PLAYERS = (("Anna", "red"), ("Ben", "blue"), ("Chris", "green"), ("Dana", "yellow"))
# RULING obscurians-dice default pips: 1 steal, 6 donate, 2 swap, 5 secure, 3 relocate, 4 wild
NAMES = {1: "steal", 6: "donate", 2: "swap", 5: "secure", 3: "relocate", 4: "wild"}


def five_dice_photo(path, faces, seed=3):
    """Five dice, big and clear, as a tablet over a dice tray sees them: the first rendering (from `seed` on) that
    the committed reader reads right — these tests are about the camera's way into the game; the reader's accuracy
    is measured in bench/bench_vision_dice.py."""
    from vision.detections import match_dice
    from vision.dice import default_reader
    for s in range(seed, seed + 30):
        img, truth = render_dice(np.random.default_rng(s), (640, 480), n=5, side=70, faces=faces, style="opaque",
                                 tables=("felt",))
        found = default_reader().read(img)
        if match_dice(found, [(t.face, t.box) for t in truth])[0] == len(truth) == len(found) and \
                min(d.confidence for d in found) >= MIN_CONFIDENCE:
            cv2.imwrite(str(path), img)
            return truth
    pytest.fail("no clear rendering of these five dice is read right by the committed reader")


async def collect(url, until, timeout=60.0):
    manager = DeviceManager()
    seen = []
    done = asyncio.Event()

    def on(obs):
        seen.append(obs)
        if until(seen):
            done.set()
    manager.subscribe(on)
    await manager.add(url)
    try:
        await asyncio.wait_for(done.wait(), timeout)
    finally:
        await manager.close()
    return seen


def test_the_camera_urls_open_camera_devices(tmp_path):
    for url in ("camera://0", f"file://{tmp_path}/a.jpg", "sim://camera?scene=dice&seed=1"):
        assert isinstance(open_device(url), CameraDevice)


def test_a_photo_file_is_read_once_it_is_still(tmp_path):
    truth = five_dice_photo(tmp_path / "tray.png", [1, 2, 3, 4, 5])
    seen = asyncio.run(collect(f"file://{tmp_path}/tray.png", lambda s: any(isinstance(o, DiceSettled) for o in s)))
    settled = next(o for o in seen if isinstance(o, DiceSettled))
    assert settled.source == f"file://{tmp_path}/tray.png"
    assert len(settled.dice) == len(truth)
    assert sorted(d.face for d in settled.dice) == sorted(t.face for t in truth)
    assert [d.die for d in settled.dice] == [f"file://{tmp_path}/tray.png#{k}" for k in range(1, len(truth) + 1)]
    assert all(0.0 <= d.confidence <= 1.0 for d in settled.dice)


def test_a_missing_camera_is_a_connection_state_not_a_crash(tmp_path):
    seen = asyncio.run(collect(f"file://{tmp_path}/gone.jpg",
                               lambda s: any(isinstance(o, ConnectionChanged) and o.state == "reconnecting" for o in s)))
    state = next(o for o in seen if isinstance(o, ConnectionChanged) and o.state == "reconnecting")
    assert "no such file" in state.detail


def test_the_simulated_camera_reports_each_throw_after_it_settles():
    def two_throws(seen):
        return sum(isinstance(o, DiceSettled) for o in seen) >= 2
    seen = asyncio.run(collect("sim://camera?scene=dice&seed=5&moving=3&still=8", two_throws))
    kinds = [type(o).__name__ for o in seen if not isinstance(o, ConnectionChanged)]
    first = kinds.index("DiceSettled")
    assert "DieRolling" in kinds[first + 1:]          # the second throw is announced by the dice moving
    assert all(isinstance(o, DieRolling) for o in seen if type(o).__name__ == "DieRolling")


@pytest.fixture
def table(tmp_path):
    store = TableStore(tmp_path / "db")
    t = Table.create(store, "obscurians", Setup(players=PLAYERS, deck="physical", seed=1))
    t.apply(RevealEvent("no_swap"))       # Anna's turn, before rolling
    yield t
    store.close()


def camera_throw(tmp_path, table, faces, min_confidence=MIN_CONFIDENCE):
    url = f"file://{tmp_path}/throw.png"
    five_dice_photo(tmp_path / "throw.png", faces)
    seen = asyncio.run(collect(url, lambda s: any(isinstance(o, DiceSettled) for o in s)))
    settled = next(o for o in seen if isinstance(o, DiceSettled))
    questions, applied = [], []
    bindings = {f"{url}#{k}": ("henchmen", k - 1) for k in range(1, 6)}
    door = ObservationDoor(table, bindings, min_confidence=min_confidence, on_question=questions.append,
                           on_applied=applied.append)
    door.observe(settled)
    return settled, door, questions, applied


def test_a_sure_camera_throw_is_the_roll(tmp_path, table):
    """The door as the app opens it (MIN_CONFIDENCE 0.9): a clear photo's dice are sure enough to be the roll with
    no question (a die's confidence is how often such readings were right, vision/training/dice_confidence.py)."""
    settled, door, questions, applied = camera_throw(tmp_path, table, [1, 1, 2, 4, 3])
    faces = [d.face for d in settled.dice]
    if min(d.confidence for d in settled.dice) < MIN_CONFIDENCE:
        pytest.fail(f"the reader was unsure of a clear photo: {settled}")
    assert sorted(faces) == [1, 1, 2, 3, 4]
    assert applied == [Roll(tuple(NAMES[f] for f in faces))]
    assert table.state.dice == tuple(NAMES[f] for f in faces) and door.question is None


def test_a_doubtful_camera_reading_is_a_question_and_changes_nothing(tmp_path, table):
    before = len(table.actions)
    settled, door, questions, applied = camera_throw(tmp_path, table, [6, 5, 4, 3, 2], min_confidence=1.01)
    assert applied == [] and len(table.actions) == before
    assert door.question is not None and questions[-1] is door.question
    assert [r.face for r in door.question.readings] == [d.face for d in settled.dice]


def test_read_now_reads_the_newest_frame_and_reports_it_as_a_throw(tmp_path):
    """The camera screen's Read dice: the reading comes back to the screen and reaches the manager (and so the
    observation door) as a DiceSettled, like a throw the camera saw settle."""
    truth = five_dice_photo(tmp_path / "tray.png", [6, 5, 4, 3, 2])
    url = f"file://{tmp_path}/tray.png"

    async def run():
        manager = DeviceManager()
        settled = []
        manager.subscribe(lambda o: settled.append(o) if isinstance(o, DiceSettled) else None)
        await manager.add(url)
        try:
            for _ in range(600):                      # the first still frame is read by itself …
                if settled:
                    break
                await asyncio.sleep(0.05)
            device = manager.device(url)
            reading = await device.read_now()         # … and Read dice reads it again, on demand
            for _ in range(200):
                if len(settled) >= 2:
                    break
                await asyncio.sleep(0.05)
            return reading, settled
        finally:
            await manager.close()

    reading, settled = asyncio.run(run())
    assert sorted(d.face for d in reading.dice) == sorted(t.face for t in truth)
    assert reading.image.shape[:2] == (480, 640)
    assert len(settled) == 2 and settled[1].source == url
    assert [d.face for d in settled[1].dice] == [d.face for d in reading.dice]
    assert settled[1].dice[0].roll == settled[0].dice[0].roll + 1        # a throw of its own
