"""The D6 reader (issue 19 §2) measured as a player would notice it: per-die F1 (box IoU >= 0.5 and the right face).

- On the shared real photos (../shared/data/dice_photos) held out: the nets of each of the five folds
  (bench/dice_folds/k, trained on the other 160 photos) read the 40 photos of their fold.
- The committed model (vision/models) on rendered scenes unlike its training (tiles and paper tables it never saw,
  held-out seeds; opaque, translucent and marbled dice), and on the 200 shared photos it was trained on (a
  regression guard).
- Close-ups (a phone held close): the held-out photos zoomed so that their dice are 80, 180 and 250 px, each fold
  read by its own nets; rendered close-ups with dice of 110-220 px, and of 220-300 px where the finder's farther
  look is worth having, read by the committed model.
- Any photo size and channel count; an empty table; a photo turned a quarter reads the same dice; specks on the
  table, a big die's pips and a box drawn round several dice are not read as dice.

The floors are a little under what bench/bench_vision_dice.py measured (docs/vision.md, *Measured*). Without the
shared photos beside this clone the real-photo tests are skipped and say so (CI has ../shared and runs them).
"""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.dice_sets import FOLDS, labelled, tally, unseen_tables
from vision.detections import f1, iou, match_dice
from vision.dice import CLUSTER_SIDE, DiceReader, _pips_or_cluster
from vision.dice_errors import close_ups, wholly_inside, zoomed
from vision.render.dice import render_dice
from vision.training.runs import split

HELD_OUT_FLOOR = {0: 0.92, 1: 0.93, 2: 0.96, 3: 0.92, 4: 0.96}   # measured 0.944, 0.952, 0.984, 0.938, 0.978
TRAINED_ON_FLOOR = 0.95                                                  # measured 0.976
# rendered, these seeds: measured 0.985, 0.969, 0.956, 0.957 (with the finder of before 4 December's: 0.963, 0.972,
# 0.961, 0.975)
RENDERED_FLOOR = {"opaque": 0.93, "translucent": 0.94, "marbled": 0.93, "smoke": 0.93}
# the held-out photos zoomed (every 2nd), dice of 80, 180 and 250 px: measured 0.921, 0.882, 0.836 (the finder of
# before 4 December's, taught close-ups in a fifth of its views: 0.905, 0.854, 0.879; and 0.884, 0.233 at 80 and
# 180 px with the nets of before close-ups). Dice of 250 px are over the finder's CLOSE_UP and upscaled six times
# from the shared photos (soft as no phone's close-up is): sharp rendered ones read better than before (docs/vision.md)
HELD_CLOSE_FLOOR = {80: 0.88, 180: 0.85, 250: 0.80}
FARTHER_GAIN = 0.05       # rendered dice of 220-300 px: the farther look on 0.769, off 0.677
CLOSE_UP_FLOOR = 0.88     # rendered close-ups, dice of 110-220 px: measured 0.928 (0.923 with the finder of before
                          # 4 December's, 0.852 without the farther look, 0.286 with the finder of before close-ups)


@pytest.fixture(scope="module")
def reader():
    return DiceReader()


@pytest.fixture(scope="module")
def photos():
    return [(cv2.imread(str(path)), truth) for path, truth in labelled()]


def scores(reader, items, cut: bool = False) -> float:
    """Per-die F1 over (photo, truth) items (`cut`: as tests.dice_sets.tally)."""
    return f1(*tally(reader, items, cut))


def test_the_shared_photos_it_was_trained_on(reader, photos):
    assert scores(reader, photos) >= TRAINED_ON_FLOOR


@pytest.mark.parametrize("style", ["opaque", "translucent", "marbled", "smoke"])
def test_rendered_scenes_unlike_the_training_ones(reader, style):
    """Smoke dice: translucent, every one dark and swirled with rimmed pips (render_dice's `smoke`)."""
    items = unseen_tables(style, {"opaque": 41, "translucent": 42, "marbled": 43, "smoke": 44}[style], 15)
    assert scores(reader, items) >= RENDERED_FLOOR[style]


def test_a_phone_held_close_to_a_few_dice(reader):
    """Dice of 110-220 px in a 640 px photo, on the unseen tables. The finder is taught close-ups as well
    (vision/training/augment.py CLOSE_UP); taught dice up to 110 px only, it took a big die's pips for dice."""
    items = close_ups(47, 20)
    assert sum(len(t) for _i, t in items) >= 30
    assert scores(reader, items, cut=True) >= CLOSE_UP_FLOOR


def test_a_photo_turned_a_quarter_reads_the_same_dice(reader):
    rng = np.random.default_rng(46)
    same = total = 0
    for _ in range(4):
        img, _truths = render_dice(rng, (640, 480), n=8, side=50, tables=("wood", "felt"))
        upright = reader.read(img)
        turned = reader.read(np.ascontiguousarray(np.rot90(img)))      # counter-clockwise: (x, y) -> (y, w-1-x)
        w = img.shape[1]
        for d in upright:
            total += 1
            x0, y0, x1, y1 = d.box
            expected = (y0, w - x1, y1, w - x0)
            same += any(t.face == d.face and iou(t.box, expected) > 0.7 for t in turned)
    assert total >= 24 and same >= 0.9 * total, (same, total)


def test_an_empty_table_has_no_dice(reader):
    """Coins, pencils and paper scraps with printed dots, no die: the scraps are the renderer's hardest distractors
    (a light square with dots); measured 3 of these 6 tables read empty, the others one or two scraps as dice."""
    rng = np.random.default_rng(44)
    empty = 0
    for _ in range(6):
        img, truths = render_dice(rng, (640, 640), n=0, tables=("wood", "plain", "felt"))
        empty += len(reader.read(img)) == 0
    assert empty >= 3


def specked(img: np.ndarray, truth: list, rng: np.random.Generator) -> tuple[np.ndarray, list]:
    """The photo with dark specks (crumbs, pencil dots: about a pip's size) painted on its bare table, at least two
    dice away from every die; returns the photo and where the specks are."""
    side = float(np.median([b[2] - b[0] for _f, b in truth]))
    out, spots = img.copy(), []
    for _ in range(200):
        x, y = rng.uniform(side, img.shape[1] - side), rng.uniform(side, img.shape[0] - side)
        if all(np.hypot(x - (b[0] + b[2]) / 2, y - (b[1] + b[3]) / 2) > 2 * side for _f, b in truth) and \
                all(np.hypot(x - sx, y - sy) > 2 * side for sx, sy in spots):
            r = side * rng.uniform(0.05, 0.08)
            cv2.ellipse(out, (round(x), round(y)), (round(r * 1.3), round(r)), rng.uniform(0, 180), 0, 360,
                        tuple(int(v) for v in rng.integers(20, 70, 3)), -1, cv2.LINE_AA)
            spots.append((x, y))
        if len(spots) == 3:
            break
    return cv2.GaussianBlur(out, (3, 3), 0), spots


def test_a_speck_on_the_table_is_no_die(reader, photos):
    """A dark dot on the bare table looks, to a net that sees it alone, like the one pip of a 1; beside the dice of
    the throw it is far too small to be one (DiceModelCard.least_side). Real photos with three specks painted on
    their table each: none is read as a die. The face net, taught that a pip alone is no die, is unsure of them too,
    so the size check is also measured at a lower threshold (0.2), where it alone keeps them out."""
    from dataclasses import replace

    rng = np.random.default_rng(61)
    scenes = [specked(img, truth, rng) for img, truth in photos[::10] if len(truth) >= 3]
    card = reader.card

    def on_specks(read_card) -> int:
        reader.card = read_card
        try:
            return sum(any(np.hypot((d.box[0] + d.box[2]) / 2 - x, (d.box[1] + d.box[3]) / 2 - y) < 10
                           for d in reader.read(img)) for img, spots in scenes for x, y in spots)
        finally:
            reader.card = card

    assert sum(len(s) for _i, s in scenes) >= 30
    low = replace(card, min_confidence=0.2)
    assert on_specks(replace(low, least_side=0.0)) > 0       # the test can fail: unchecked, specks are read
    assert on_specks(low) == 0
    assert on_specks(card) == 0


@pytest.mark.parametrize("shape", [(300, 1000, 3), (3000, 4000, 3), (40, 40, 3), (480, 640), (480, 640, 4)])
def test_any_photo_size_and_channels(reader, shape):
    rng = np.random.default_rng(45)
    img, truths = render_dice(rng, (shape[1], shape[0]), n=3, side=min(shape[:2]) * 0.15)
    if len(shape) == 2:
        img = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    elif shape[2] == 4:
        img = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
    found = reader.read(img)
    for d in found:
        assert 1 <= d.face <= 6 and 0 <= d.confidence <= 1
        x0, y0, x1, y1 = d.box
        assert -5 <= x0 < x1 <= shape[1] + 5 and -5 <= y0 < y1 <= shape[0] + 5
    if min(shape[:2]) >= 300 and shape[1] <= 1000:
        assert found                 # three big dice: some are seen whatever the size of the photo



@pytest.mark.parametrize("fold", sorted(HELD_OUT_FLOOR))
def test_photos_it_never_saw(photos, fold):
    """A fold's nets (bench/dice_folds/k: finder, reader and face net trained by the committed recipe on the other
    160 photos only) read the 40 they never saw."""
    held = split(photos, fold)[1]
    assert len(held) == 40
    assert scores(DiceReader(FOLDS / str(fold) / "dice"), held) >= HELD_OUT_FLOOR[fold]


@pytest.mark.parametrize("side", sorted(HELD_CLOSE_FLOOR))
def test_photos_it_never_saw_held_close(photos, side):
    """The held-out photos zoomed so that their dice are `side` px in a 640x640 window (the phone held close),
    every fold read by its own nets."""
    counts = [tally(DiceReader(FOLDS / str(fold) / "dice"),
                    [zoomed(img, truth, side) for img, truth in split(photos, fold)[1][::2]], cut=True)
              for fold in range(5)]
    tp, fp, fn = (sum(c) for c in zip(*counts))
    assert tp + fn >= 100
    assert f1(tp, fp, fn) >= HELD_CLOSE_FLOOR[side]


def test_held_close_the_die_is_found_seen_smaller(reader):
    """Dice of 220-300 px at 640, over what the finder was taught (CLOSE_UP: to 220 px): their pips are the size of
    usual dice, and the first look takes them for dice and misses the die. The finder's farther look (the photo at
    224 px: DiceReader.farther) finds the die, and the die holding its pips keeps the die. Rendered, on the unseen
    tables, read by the committed model with the farther look and without it."""
    items = close_ups(48, 30, (220, 300), most=3)
    assert sum(len(t) for _i, t in items) >= 25
    off = DiceReader()
    off.card = replace(off.card, farther_side=0)
    with_it, without = scores(reader, items, cut=True), scores(off, items, cut=True)
    assert with_it >= without + FARTHER_GAIN, (with_it, without)


def _square(cx: float, cy: float, side: float, face: int = 1, confidence: float = 0.8) -> tuple:
    return ((cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2), confidence, face)


def test_a_big_die_holding_its_pips_keeps_the_die():
    """A phone held close: the 5 of a 200 px die, its pips also read as small 1s (surer than the die itself)."""
    die = _square(300, 300, 200, face=5, confidence=0.6)
    pips = [_square(300 + dx, 300 + dy, 34, face=1, confidence=0.9) for dx, dy in
            ((-55, -55), (55, -55), (0, 0), (-55, 55), (55, 55))]
    neighbour = _square(560, 300, 190, face=2)          # another big die beside it, holding nothing
    assert _pips_or_cluster(pips + [die, neighbour]) == [die, neighbour]
    assert _pips_or_cluster(pips + [die]) == [die]        # alone in the photo it is weighed against nothing


def test_a_box_round_several_dice_is_dropped():
    """A box the nets drew round six touching dice of 40 px amid others of the throw: it is over CLUSTER_SIDE
    times the dice outside it, so it goes and the six inside it stand."""
    inside = [_square(200 + 42 * (k % 3), 200 + 42 * (k // 3), 40, face=k + 1) for k in range(6)]
    big = _square(242, 221, 170, face=6, confidence=0.9)
    outside = [_square(500, 100 + 60 * k, 38, face=3) for k in range(3)]
    assert 170 > CLUSTER_SIDE * 38
    assert _pips_or_cluster([big] + inside + outside) == inside + outside
    assert _pips_or_cluster(outside) == outside           # nothing holds anything: all stand


def test_held_close_a_die_is_not_read_as_its_pips(photos, monkeypatch):
    """The held-out photos zoomed so that their dice are 200 px: the nets read some pips as small dice inside the
    die they also found. With the rule (vision.dice._pips_or_cluster) no reading lies inside a bigger one's box and
    fewer readings are extra than without it."""
    import vision.dice

    def holds(big, small) -> bool:       # small's middle inside big's box, small under 0.6 of big's side
        x, y = (small[0] + small[2]) / 2, (small[1] + small[3]) / 2
        return big[0] < x < big[2] and big[1] < y < big[3] and small[2] - small[0] < 0.6 * (big[2] - big[0])

    def nested_and_score(on: bool) -> tuple[int, int]:
        monkeypatch.setattr(vision.dice, "_pips_or_cluster", _pips_or_cluster if on else (lambda r: r))
        nested = fp = 0
        for fold in range(5):
            reader = DiceReader(FOLDS / str(fold) / "dice")
            for img, truth in split(photos, fold)[1][::2]:
                win, near = zoomed(img, truth, 200)
                found = reader.read(win)
                nested += sum(any(holds(o.box, d.box) for o in found) for d in found)
                fp += match_dice([d for d in found if wholly_inside(d.box, win.shape)], near)[1]
        return nested, fp

    nested_off, fp_off = nested_and_score(False)
    nested_on, fp_on = nested_and_score(True)
    assert nested_off >= 3 and nested_on == 0
    assert fp_on < fp_off


def test_a_crowded_tray_is_read_with_fewer_crops(reader):
    """Each net reading costs about half a millisecond a crop. Two candidates the reader placed on one die go on as
    one (DiceModelCard.same_die): the same dice, fewer crops. Looking again only at dice whose box the first look
    moved (look_again 0.8; the committed card looks again at every die that moved at all) saves more crops and
    reads nearly as many dice right. Crowded rendered trays on training tables, seeds the bench does not use."""
    from dataclasses import replace

    crops = {}
    look = reader.look

    def counted(image, boxes, turns=1):
        crops[mode] = crops.get(mode, 0) + len(boxes)
        return look(image, boxes, turns)

    rng = np.random.default_rng(77)
    scenes = []
    for _ in range(8):
        img, truths = render_dice(rng, (640, 640), n=22, tables=("wood", "felt", "cloth", "plain", "dark"))
        scenes.append((img, [(d.face, d.box) for d in truths]))
    card = reader.card
    found = {}
    try:
        reader.look = counted
        for mode, c in (("twice", replace(card, look_again=1.01, same_die=1.01)), ("as committed", card),
                        ("moved only", replace(card, look_again=0.8))):
            reader.card = c
            found[mode] = scores(reader, scenes)
    finally:
        reader.card, reader.look = card, look
    assert crops["as committed"] < crops["twice"] and found["as committed"] == found["twice"]
    assert crops["moved only"] < 0.9 * crops["twice"]
    assert found["moved only"] >= found["twice"] - 0.01
