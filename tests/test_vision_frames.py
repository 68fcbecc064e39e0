"""Frame sources by URL (docs/architecture.md, conventions 5 and 8): files, the simulated camera, a real OpenCV camera that
is not there; and live reading that waits until the table is still, then reads once."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.frames import Camera, FrameError, ImageFiles, Rendered, StillnessGate, open_source


def test_file_url_gives_the_photo_again_and_again(tmp_path):
    img = np.full((64, 80, 3), 90, np.uint8)
    cv2.rectangle(img, (10, 10), (40, 40), (0, 0, 255), -1)
    path = tmp_path / "tisch ü.png"
    cv2.imwrite(str(path), img)
    source = open_source(f"file://{path}")
    assert isinstance(source, ImageFiles)
    first, second = source.read(), source.read()
    assert np.array_equal(first.image, img) and np.array_equal(second.image, img)
    assert (first.index, second.index) == (0, 1) and second.time >= first.time


def test_several_files_in_turn(tmp_path):
    paths = []
    for k in range(2):
        p = tmp_path / f"{k}.png"
        cv2.imwrite(str(p), np.full((40, 40, 3), 100 * k, np.uint8))
        paths.append(str(p))
    source = open_source("file://" + ",".join(paths))
    assert [int(source.read().image[0, 0, 0]) for _ in range(4)] == [0, 100, 0, 100]


def test_a_missing_file_is_a_frame_error_in_one_line(tmp_path):
    source = open_source(f"file://{tmp_path}/gone.jpg")
    with pytest.raises(FrameError) as err:
        source.read()
    assert "no such file" in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("url", ["webcam", "ftp://x", "sim://unicorns", "file://"])
def test_bad_addresses_are_refused_plainly(url):
    with pytest.raises(FrameError) as err:
        open_source(url).read()
    assert "\n" not in str(err.value)


def test_a_camera_that_is_not_there_is_a_frame_error():
    # OpenCV's real VideoCapture: this machine has no camera 57
    with pytest.raises(FrameError, match="no camera"):
        Camera(57)


def test_the_simulated_camera_throws_then_holds_still_with_its_truth():
    source = open_source("sim://dice?seed=4&moving=3&still=5&width=320&height=240")
    assert isinstance(source, Rendered)
    frames = [source.read() for _ in range(16)]
    assert all(f.image.shape == (240, 320, 3) for f in frames)
    assert [f.truth is not None for f in frames[:8]] == [False] * 3 + [True] * 5
    assert all(np.array_equal(frames[3].image, f.image) for f in frames[4:8])     # still: the same picture
    assert frames[8].truth is None and frames[11].truth is not None
    assert frames[11].truth != frames[3].truth                                      # a new throw


def test_live_reading_waits_for_stillness_and_reads_each_throw_once():
    source = open_source("sim://dice?seed=9&moving=4&still=8&width=320&height=240")
    gate = StillnessGate(frames=3)
    reads = [k for k in range(36) if gate.feed(source.read().image)]
    # three throws of 12 frames (4 tumbling, 8 still): each read once, when 3 frames in a row have not changed
    # since the one before (the first still frame still differs from the last tumbling one)
    assert reads == [7, 19, 31]


@pytest.mark.parametrize("kind", ["dice", "tiles", "goods", "symbols"])
def test_every_simulated_kind_renders(kind):
    frame = open_source(f"sim://{kind}?seed=1&moving=0&still=5&width=640&height=480").read()
    assert frame.image.shape == (480, 640, 3) and frame.truth is not None
