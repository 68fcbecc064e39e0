"""Which characters a font can draw: the codepoints of its TrueType `cmap` (formats 4 and 12), read without any
font library. A character outside them shows as an empty box on the screen (the issue's missing ✓)."""
from __future__ import annotations

import struct
from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=None)
def codepoints(path: str) -> frozenset:
    data = Path(path).read_bytes()
    n_tables = struct.unpack(">H", data[4:6])[0]
    for i in range(n_tables):
        tag, _, offset, _ = struct.unpack(">4sIII", data[12 + 16 * i:28 + 16 * i])
        if tag == b"cmap":
            break
    else:
        return frozenset()
    out: set[int] = set()
    for j in range(struct.unpack(">H", data[offset + 2:offset + 4])[0]):
        _, _, sub = struct.unpack(">HHI", data[offset + 4 + 8 * j:offset + 12 + 8 * j])
        at = offset + sub
        fmt = struct.unpack(">H", data[at:at + 2])[0]
        if fmt == 4:
            seg2 = struct.unpack(">H", data[at + 6:at + 8])[0]
            ends = struct.unpack(f">{seg2 // 2}H", data[at + 14:at + 14 + seg2])
            starts = struct.unpack(f">{seg2 // 2}H", data[at + 16 + seg2:at + 16 + 2 * seg2])
            for s, e in zip(starts, ends):
                out.update(range(s, e + 1))
        elif fmt == 12:
            n_groups = struct.unpack(">I", data[at + 12:at + 16])[0]
            for g in range(n_groups):
                s, e, _ = struct.unpack(">III", data[at + 16 + 12 * g:at + 28 + 12 * g])
                out.update(range(s, e + 1))
    return frozenset(out)


@lru_cache(maxsize=None)
def font_path(font_name: str) -> str:
    from kivy.core.text import LabelBase
    from kivy.resources import resource_find

    registered = LabelBase._fonts.get(font_name)
    if registered:
        return registered[0]
    return resource_find(font_name) or resource_find(font_name + ".ttf") or font_name


def has_glyph(font_name: str, ch: str) -> bool:
    return ord(ch) in codepoints(font_path(font_name))
