"""Every recogniser takes any picture without raising: noise, flat colours, stripes, a marker sheet cut up and
pasted at random, any size from a sliver to a large photo (Hypothesis draws them)."""
from __future__ import annotations

import cv2
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vision.dice import default_reader
from vision.goods import Calibration, KindColour, count_goods
from vision.stickers import marker_image
from vision.symbols import SymbolSet, read_symbol_dice
from vision.tiles import read_map

CALIBRATION = Calibration({"a": [[0, 0], [50, 0], [50, 50]]},
                          {"red": KindColour([100, 180, 160], 5, 300), "lamp": KindColour([240, 128, 128], 4, 600)},
                          [640, 480], [120, 130, 140])
SYMBOLS = SymbolSet({"a": [np.pad(np.ones((20, 20), np.float32), 14)], "b": [np.eye(48, dtype=np.float32)]})


def picture(seed: int, w: int, h: int, kind: str) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if kind == "noise":
        return rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    if kind == "flat":
        return np.full((h, w, 3), rng.integers(0, 256, 3), np.uint8)
    if kind == "stripes":
        img = np.zeros((h, w, 3), np.uint8)
        img[:, ::max(1, int(rng.integers(1, 9)))] = 255
        return img
    img = np.full((h, w, 3), 200, np.uint8)        # markers pasted at random, some cut by the edge
    for _ in range(int(rng.integers(1, 12))):
        s = int(rng.integers(8, max(9, min(w, h) // 2)))
        m = cv2.cvtColor(marker_image(int(rng.integers(0, 29)), s), cv2.COLOR_GRAY2BGR)
        x, y = int(rng.integers(-s // 2, w)), int(rng.integers(-s // 2, h))
        x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + s, w), min(y + s, h)
        if x1 > x0 and y1 > y0:
            img[y0:y1, x0:x1] = m[y0 - y:y1 - y, x0 - x:x1 - x]
    return img


class NoDice:
    def read(self, image):
        return []


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), w=st.integers(32, 1500), h=st.integers(32, 1200),
       kind=st.sampled_from(["noise", "flat", "stripes", "markers"]))
def test_recognisers_never_raise(seed, w, h, kind):
    img = picture(seed, w, h, kind)
    reading = read_map(img, NoDice())
    assert len(reading.notation.split(" / ")) == 5
    goods = count_goods(img, CALIBRATION)
    assert set(goods.zones) == {"a"}
    for die in read_symbol_dice(img, SYMBOLS):
        assert die.face in (None, "a", "b")
    for die in default_reader().read(img):
        assert 1 <= die.face <= 6 and 0 <= die.confidence <= 1
