"""Reading a photo from a file, with one plain sentence for anything that is not a photo we can use.

cv2.imread returns None for a missing file, a truncated JPEG may decode half grey without a word, and a 60000x60000
PNG of a few kilobytes asks for gigabytes: each becomes an `UnreadableImage` naming the file and what is wrong.
"""
from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

import cv2
import numpy as np

MAX_FILE_BYTES = 64 * 1024 * 1024      # a phone photo is a few MB; anything far past that is not one
MAX_PIXELS = 50_000_000                 # 50 MP: larger sensors exist, but not on a tablet over a table
MIN_SIDE = 32                           # smaller than this there is no die to see


class UnreadableImage(ValueError):
    """A file that cannot be used as a photo; the message is one line for a player."""


def _header_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG or JPEG header without decoding, to refuse huge images cheaply."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data[:2] == b"\xff\xd8":
        i = 2
        while i + 9 < len(data):
            if data[i] != 0xFF:
                return None
            marker = data[i + 1]
            if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
                return int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7], "big")
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
                i += 2
                continue
            i += 2 + int.from_bytes(data[i + 2:i + 4], "big")
    return None


@contextlib.contextmanager
def _c_stderr_silenced():
    """libpng and libjpeg print their own warnings ("IDAT: Too much image data") straight to file descriptor 2;
    the user gets our one line instead."""
    try:
        fd = sys.stderr.fileno()
    except (AttributeError, ValueError, OSError):      # stderr replaced (tests, an app without a console)
        yield
        return
    sys.stderr.flush()
    saved = os.dup(fd)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), fd)
            yield
    finally:
        os.dup2(saved, fd)
        os.close(saved)


def decode_image(data: bytes, name: str = "the photo") -> np.ndarray:
    """BGR uint8 pixels of an encoded image (JPEG, PNG, BMP, WebP, TIFF…), or UnreadableImage."""
    if not data:
        raise UnreadableImage(f"{name}: the file is empty")
    if len(data) > MAX_FILE_BYTES:
        raise UnreadableImage(f"{name}: the file is too large for a photo ({len(data) // 2**20} MB)")
    size = _header_size(data)
    if size and size[0] * size[1] > MAX_PIXELS:
        raise UnreadableImage(f"{name}: the picture is too large ({size[0]}x{size[1]} pixels)")
    if data[:2] == b"\xff\xd8" and not data.rstrip(b"\x00").endswith(b"\xff\xd9"):
        raise UnreadableImage(f"{name}: the photo is cut short (an incomplete JPEG file)")
    try:
        with _c_stderr_silenced():
            img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error:
        img = None
    if img is None:
        raise UnreadableImage(f"{name}: not a picture this app can read (JPEG, PNG, BMP, WebP or TIFF)")
    if min(img.shape[:2]) < MIN_SIDE:
        raise UnreadableImage(f"{name}: the picture is too small ({img.shape[1]}x{img.shape[0]} pixels)")
    return img


def read_image(path: str | os.PathLike) -> np.ndarray:
    """The photo at `path` (any Unicode name) as BGR uint8, or UnreadableImage with the reason in one line."""
    p = Path(path)
    try:
        with open(p, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise UnreadableImage(f"{p}: no such file") from None
    except IsADirectoryError:
        raise UnreadableImage(f"{p}: is a folder, not a photo") from None
    except PermissionError:
        raise UnreadableImage(f"{p}: not allowed to read this file") from None
    except OSError as err:
        raise UnreadableImage(f"{p}: cannot be read ({err.strerror or err})") from None
    return decode_image(data, str(p))
