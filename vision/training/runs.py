"""What every training run of the dice reader's nets does alike (train_dice, train_faces, train_reader): the shared
photos and their folds, the options every run takes, the start of a run (threads, seeds, the split), the input as
the app feeds it, and the ONNX export.

The folds are five contiguous blocks of the photos sorted by name: the photos were shot in sessions, neighbours look
alike, so a random split would flatter. One thread by default: the machine is shared. Seeds are fixed, so a run is
repeatable up to the CPU's floating-point order. torch is imported where it is used, so that the photos and the
split can be read without the `train` extra.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

DEFAULT_PHOTOS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "dice_photos"
FOLDS = 5


def load_photos(folder: Path) -> list[tuple[str, np.ndarray, list]]:
    """(name, image, [(face, box)]) for every labelled photo, sorted by name."""
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    out = []
    for name in sorted(labels):
        img = cv2.imread(str(folder / name), cv2.IMREAD_COLOR)
        out.append((name, img, [(d["face"], tuple(d["box"])) for d in labels[name]]))
    return out


def fold_of(index: int, total: int) -> int:
    return index * FOLDS // total


def split(photos: list, fold: int | None) -> tuple[list, list]:
    """(trained on, held out): with no fold, every photo is trained on."""
    trained = [p for i, p in enumerate(photos) if fold is None or fold_of(i, len(photos)) != fold]
    held = [p for i, p in enumerate(photos) if fold is not None and fold_of(i, len(photos)) == fold]
    return trained, held


def arguments(description: str, out_help: str, fold_help: str) -> argparse.ArgumentParser:
    """The options every run takes; a run adds its own."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--photos", type=Path, default=DEFAULT_PHOTOS)
    ap.add_argument("--out", type=Path, required=True, help=out_help)
    ap.add_argument("--fold", type=int, default=None, help=fold_help)
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=19)
    return ap


def start(args) -> tuple[list, list, np.random.Generator]:
    """A run's start: its threads and seeds set, the photos read and split by `args.fold`, the output folder made.
    Returns (trained on, held out, the run's random generator)."""
    import torch

    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    trained, held = split(load_photos(args.photos), args.fold)
    print(f"training on {len(trained)} photos, holding out {len(held)}", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    return trained, held, rng


def to_input(img: np.ndarray) -> np.ndarray:
    """As the app feeds the networks (vision.dice._blob): BGR, (pixel - 127.5) / 255, channels first."""
    return ((img.astype(np.float32) - 127.5) / 255.0).transpose(2, 0, 1)


def export_onnx(model, path: Path, example: tuple[int, ...], names: tuple[str, str], dynamic_axes: dict) -> None:
    """`model` as ONNX at `path`, traced on zeros of shape `example`; `names` are its input's and its output's."""
    import torch

    model.eval()
    torch.onnx.export(model, torch.zeros(*example), str(path), input_names=[names[0]], output_names=[names[1]],
                      opset_version=17, dynamo=False, dynamic_axes=dynamic_axes)
