"""Camera frames → typed readings: dice, the Obelisk map, the Obscurians goods (docs/architecture.md, convention 8).

Frame sources (`vision.frames`: camera, image files, rendered scenes) are apart from recognisers (`vision.dice`,
`vision.tiles`, `vision.goods`, `vision.symbols`): pure functions from an image to detections with confidences.
Nothing here knows a game, the session or a screen (tests/test_layers.py).
"""
import os

# OpenCV reads this once, when it loads: no decoder may allocate more than this many pixels for one image
# (a few-kilobyte PNG can claim 60000x60000). Every module of this package is imported after this line runs.
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(50_000_000))
