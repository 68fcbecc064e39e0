"""The Obelisk table's screenshots at 1366 × 1024 (docs/screenshots/obelisk-day-1366x1024.png,
obelisk-night-1366x1024.png, obelisk-seats.png), taken from the real app on tables the engine's seeded random player
brought to a Day 2 (Obelisks built, demons on the map, tonight's routes), to a Night with captures to choose, and a
four-player Day with a player at each side of the table (near, right end, far, left end; kept as Menu → Where
everyone sits keeps them).

    xvfb-run -a -s "-screen 0 1400x1100x24" .venv/bin/python tests/ui/obelisk_shots.py \\
        --data-dir /tmp/d --out /tmp/shots.json --shots docs/screenshots

The window's pixels are read back as RGBA (Window.screenshot on some GL drivers writes the alpha channel as it finds
it, and a window over Xvfb has none: the PNG came out transparent); here they are read with glReadPixels as RGBA
and written opaque, and the result says each picture's size and how many distinct colours it has (a blank or
transparent shot has one).
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SIZE = (1366, 1024)


def prepare(store) -> dict:
    from companion.games.obelisk.legal import captures
    from companion.games.obelisk.setup import Setup
    from companion.session.table import Table
    from tests.ui.obelisk_touch import choose

    def table(seed, until, players=(("Ana", "blue"), ("Ben", "yellow"))):
        setup = Setup.from_json({"players": [{"name": n, "colour": c} for n, c in players], "seed": seed})
        t = Table.create(store, "obelisk", setup, title=", ".join(n for n, _ in players))
        rng = random.Random(seed)
        while not until(t.state):
            t.apply(choose(t.state, rng))
        return t.id

    return {"day": table(23, lambda s: s.phase == "day" and s.day >= 2 and s.demons and s.obelisks
                         and sum(map(len, s.used)) >= 1 or s.is_over),
            "night": table(23, lambda s: s.phase in ("march", "swarm") and captures(s) and s.day >= 2
                           or s.is_over),
            "seats": seated(store, table(23, lambda s: s.phase == "day" and s.day >= 2 and s.demons and s.obelisks
                                  and sum(map(len, s.used)) >= 1 or s.is_over, FOUR))}


FOUR = (("Ana", "blue"), ("Ben", "yellow"), ("Cora", "green"), ("Dan", "black"))


def seated(store, table_id):
    """Ana near, Ben at the right end, Cora far, Dan at the left end: kept beside the tables, as the Menu keeps it."""
    from companion.session import preferences

    preferences.keep_seats(store.data_dir, table_id, {"blue": "near", "yellow": "right", "green": "far",
                                                       "black": "left"})
    return table_id


def png(w: int, h: int, rgba: bytes) -> bytes:
    """A PNG of `rgba` rows, top row first (zlib and struct: the venv has no imaging library)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    stride = w * 4
    raw = b"".join(b"\x00" + rgba[y * stride:(y + 1) * stride] for y in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def save_rgba(path: Path) -> dict:
    """The window's pixels as an opaque RGBA PNG at `path`; its size and how many colours a sample of it has."""
    from kivy.core.window import Window
    from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels

    w, h = Window.system_size
    data = bytearray(glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE))
    data[3::4] = b"\xff" * (w * h)      # the window is opaque: whatever alpha the framebuffer kept is not the picture
    stride = w * 4
    rows = b"".join(bytes(data[y * stride:(y + 1) * stride]) for y in range(h - 1, -1, -1))   # GL reads bottom-up
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(png(w, h, rows))
    sample = {bytes(rows[i:i + 3]) for i in range(0, len(rows), 4 * 97)}
    return {"size": [w, h], "colours": len(sample)}


async def scenario(app, args) -> dict:
    from kivy.core.window import Window

    from tests.ui.touch import Touch

    d = Touch(app)
    tables = prepare(app.store)
    app.refresh_home()
    await d.wait_screen("home")
    Window.size = SIZE
    await d.frames(6)
    out = {}
    for view, table_id in tables.items():
        app.open_table(table_id)
        await d.wait_screen("obelisk-table")
        await d.frames(6)
        if app.sheet is not None:
            app.close_sheet()
            await d.frames(3)
        s = app.table.state
        out[view] = {"phase": s.phase, "day": s.day, "demons": len(s.demons), "obelisks": len(s.obelisks),
                     **save_rgba(Path(args.shots or args.data_dir) / (f"obelisk-{view}-{SIZE[0]}x{SIZE[1]}.png"
                                                                     if view != "seats" else "obelisk-seats.png"))}
        app.go_home()
        await d.wait_screen("home")
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    from tests.ui.drive import script_main

    sys.exit(script_main(scenario))
