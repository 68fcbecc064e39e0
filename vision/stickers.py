"""Marker stickers for the Obelisk tiles: which marker goes on which tile, and the printable sheet.

Each of the 25 tiles gets one ArUco marker (OpenCV's 4x4 dictionary of 50: big cells, read from afar and through
blur) stuck on its middle with the sticker's arrow along the tile's arrow; the marker's id says the land, its turn
says the direction. Four more markers, laid diagonally outside the map's four corners, are optional: they fix the
map's edges and which way is up when a whole row is hidden.

The sheet is an A4 page at 300 dpi, as PNG and as PDF (a minimal PDF written here: one page, one lossless image).
"""
from __future__ import annotations

import zlib
from pathlib import Path

import cv2
import numpy as np

DICTIONARY = cv2.aruco.DICT_4X4_50
KIND_NAMES = {"P": "Portal", "C": "Crystals", "F": "Forest", "G": "Grass", "M": "Mountain"}
# The box's 25 basic tiles (rulebook, Contents): 1 Portal, 4 Crystals, 10 Forests, 6 Grass, 4 Mountains.
TILE_KINDS: tuple[str, ...] = ("P",) + ("C",) * 4 + ("F",) * 10 + ("G",) * 6 + ("M",) * 4
CORNER_IDS = {25: "top left", 26: "top right", 27: "bottom right", 28: "bottom left"}
STICKER_SHARE = 0.4          # the marker's side as a share of the tile's side (the corners stay free for obelisks)
DPI = 300
A4 = (2480, 3508)            # pixels at 300 dpi


def dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(DICTIONARY)


def tile_label(marker_id: int) -> str:
    kind = TILE_KINDS[marker_id]
    n = TILE_KINDS[:marker_id + 1].count(kind)
    return KIND_NAMES[kind] if kind == "P" else f"{KIND_NAMES[kind]} {n}"


def marker_image(marker_id: int, side: int) -> np.ndarray:
    """The marker alone, `side` pixels, black on white, with its quiet border."""
    inner = side * 6 // 8                           # 4x4 bits + a black frame = 6 cells; a white cell each side
    img = cv2.aruco.generateImageMarker(dictionary(), marker_id, inner)
    pad = (side - inner) // 2
    return cv2.copyMakeBorder(img, pad, side - inner - pad, pad, side - inner - pad, cv2.BORDER_CONSTANT, value=255)


def sticker_image(marker_id: int, side: int) -> np.ndarray:
    """One sticker: the marker, an arrow above it along the marker's top and the tile's name (grey, BGR)."""
    h = int(side * 1.45)
    img = np.full((h, side), 255, np.uint8)
    m = marker_image(marker_id, side)
    top = int(side * 0.25)
    img[top:top + side] = m
    cx = side // 2
    # the arrow: lay it along the tile's arrow
    cv2.arrowedLine(img, (cx, top - 4), (cx, 6), 0, max(2, side // 60), cv2.LINE_AA, tipLength=0.45)
    label = tile_label(marker_id) if marker_id < len(TILE_KINDS) else f"corner: {CORNER_IDS[marker_id]}"
    scale = side / 420
    (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, max(1, side // 150))
    cv2.putText(img, label, ((side - tw) // 2, top + side + th + side // 30), cv2.FONT_HERSHEY_SIMPLEX, scale, 0,
                max(1, side // 150), cv2.LINE_AA)
    cv2.rectangle(img, (0, 0), (side - 1, h - 1), 190, 1)      # cutting line
    return img


INSTRUCTIONS = (
    "Table Companion - marker stickers for the Obelisk map (print at 100%, no scaling)",
    "1. Cut out each sticker along its grey line and stick it on the MIDDLE of the tile it names.",
    "2. The arrow above each marker must point the same way as the arrow on the tile.",
    "3. Keep the tile corners free: the obelisks stand there.",
    "4. Optional: lay the four corner markers just outside the map's four corners, diagonally,",
    "   so the map is read even when a hand hides a whole row.",
    "Then: Dice and boards > Camera > Read map. Hold the camera above the map; the whole map in view.",
)


def sheet(dpi: int = DPI) -> np.ndarray:
    """The whole A4 sheet (grey uint8): instructions, 25 tile stickers, 4 corner markers."""
    w, h = (round(A4[0] * dpi / DPI), round(A4[1] * dpi / DPI))
    page = np.full((h, w), 255, np.uint8)
    margin = int(0.5 * dpi)                              # half an inch
    y = margin
    for i, line in enumerate(INSTRUCTIONS):
        scale = dpi / 300 * (1.05 if i == 0 else 0.9)
        cv2.putText(page, line, (margin, y + int(30 * dpi / 300)), cv2.FONT_HERSHEY_SIMPLEX, scale, 0,
                    2 if i == 0 else 1, cv2.LINE_AA)
        y += int(42 * dpi / 300)
    y += int(20 * dpi / 300)
    cols = 6
    side = (w - 2 * margin) // cols - int(0.08 * dpi)     # ~34 mm markers
    cell_w = (w - 2 * margin) // cols
    cell_h = int(side * 1.45) + int(0.08 * dpi)
    ids = list(range(len(TILE_KINDS))) + sorted(CORNER_IDS)
    for k, marker_id in enumerate(ids):
        r, c = divmod(k, cols)
        x0 = margin + c * cell_w
        y0 = y + r * cell_h
        s = sticker_image(marker_id, side)
        page[y0:y0 + s.shape[0], x0:x0 + s.shape[1]] = s
    return page


def write_pdf(gray: np.ndarray, path: Path, dpi: int = DPI) -> None:
    """A one-page PDF holding `gray` at `dpi`, losslessly (Flate): page size follows the image."""
    h, w = gray.shape
    pw, ph = w * 72 / dpi, h * 72 / dpi
    data = zlib.compress(np.ascontiguousarray(gray).tobytes(), 9)
    content = f"q {pw:.2f} 0 0 {ph:.2f} 0 0 cm /Im0 Do Q".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {pw:.2f} {ph:.2f}] /Resources << /XObject << /Im0 5 0 R >> >> "
        f"/Contents 4 0 R >>".encode(),
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        (f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceGray /BitsPerComponent 8 "
         f"/Filter /FlateDecode /Length {len(data)} >>\nstream\n").encode() + data + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    path.write_bytes(bytes(out))


def write_sheet(out: str | Path, pdf: str | Path | None = None) -> list[Path]:
    """Writes the sheet as PNG at `out` and as PDF (at `pdf`, or beside the PNG); returns both paths."""
    out = Path(out)
    pdf_path = Path(pdf) if pdf else out.with_suffix(".pdf")
    page = sheet()
    ok, buf = cv2.imencode(".png", page)
    if not ok:
        raise ValueError(f"{out}: could not encode the sheet")
    out.write_bytes(buf.tobytes())
    write_pdf(page, pdf_path)
    return [out, pdf_path]
