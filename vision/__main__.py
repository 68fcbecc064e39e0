"""`python -m vision …`: read dice, the Obelisk map or the goods from photos; print marker stickers; teach symbols.

    python -m vision dice IMG… [--json]
    python -m vision tiles IMG [--json]
    python -m vision goods IMG --calibration FILE [--json]
    python -m vision calibrate IMG --zones ZONES.json --out FILE
    python -m vision stickers --out sheet.png [--pdf sheet.pdf]
    python -m vision teach --faces DIR --out SET.json ; python -m vision symbols IMG --set SET.json [--json]

Exit 0 with the readings; exit 2 with one line on stderr for anything wrong with the input (a missing or unreadable
photo, a bad calibration file), never a traceback.
"""
from __future__ import annotations

import argparse
import json
import sys

from .frames import FrameError
from .imageio import UnreadableImage


class UsageError(ValueError):
    """Bad input from the command line: one line, exit 2."""


def _print_json(obj) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def cmd_dice(args) -> int:
    from .dice import default_reader
    from .imageio import read_image
    reader = default_reader()
    result = {}
    for p in args.images:      # nothing is printed until every photo has been read: one bad file, one line
        result[p] = [d.to_json() for d in reader.read(read_image(p))]
    if args.json:
        _print_json(result)
    else:
        for p, dice in result.items():
            faces = sorted(d["face"] for d in dice)
            print(f"{p}: {len(dice)} dice: {' '.join(map(str, faces)) or '-'}")
    return 0


def cmd_tiles(args) -> int:
    from .imageio import read_image
    from .tiles import read_map
    reading = read_map(read_image(args.image))
    if args.json:
        _print_json(reading.to_json())
    else:
        print(reading.describe())
    return 0


def cmd_stickers(args) -> int:
    from .stickers import write_sheet
    written = write_sheet(args.out, pdf=args.pdf)
    for path in written:
        print(path)
    return 0


def cmd_goods(args) -> int:
    from .goods import Calibration, count_goods
    from .imageio import read_image
    calibration = Calibration.load(args.calibration)
    reading = count_goods(read_image(args.image), calibration)
    if args.json:
        _print_json(reading.to_json())
    else:
        print(reading.describe())
    return 0


def cmd_calibrate(args) -> int:
    from .goods import calibrate, load_zones
    from .imageio import read_image
    calibration = calibrate(read_image(args.image), load_zones(args.zones))
    calibration.save(args.out)
    print(args.out)
    return 0


def cmd_teach(args) -> int:
    from .symbols import teach_from_folder
    symbol_set = teach_from_folder(args.faces)
    symbol_set.save(args.out)
    print(f"{args.out}: {len(symbol_set.faces)} faces learnt")
    return 0


def cmd_symbols(args) -> int:
    from .imageio import read_image
    from .symbols import SymbolSet, read_symbol_dice
    symbol_set = SymbolSet.load(args.set)
    found = read_symbol_dice(read_image(args.image), symbol_set)
    if args.json:
        _print_json([d.to_json() for d in found])
    else:
        print(" ".join(d.face for d in found) or "-")
    return 0


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m vision", description="Read the table from a photo.")
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("dice", help="find every D6 and read its face")
    p.add_argument("images", nargs="+", metavar="IMG")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_dice)
    p = sub.add_parser("tiles", help="read the Obelisk map from its marker stickers")
    p.add_argument("image", metavar="IMG")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_tiles)
    p = sub.add_parser("stickers", help="print the marker stickers for the 25 tiles")
    p.add_argument("--out", required=True, help="the sheet as PNG")
    p.add_argument("--pdf", help="also as PDF (default: beside the PNG)")
    p.set_defaults(run=cmd_stickers)
    p = sub.add_parser("goods", help="count the Obscurians goods in each player's zone")
    p.add_argument("image", metavar="IMG")
    p.add_argument("--calibration", required=True, metavar="FILE")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_goods)
    p = sub.add_parser("calibrate", help="learn the goods' colours from one photo and the player zones")
    p.add_argument("image", metavar="IMG")
    p.add_argument("--zones", required=True, metavar="ZONES.json")
    p.add_argument("--out", required=True, metavar="FILE")
    p.set_defaults(run=cmd_calibrate)
    p = sub.add_parser("teach", help="learn a set of symbol dice from photos of each face")
    p.add_argument("--faces", required=True, metavar="DIR", help="a folder with FACE-NAME.jpg photos (one or two each)")
    p.add_argument("--out", required=True, metavar="SET.json")
    p.set_defaults(run=cmd_teach)
    p = sub.add_parser("symbols", help="read symbol dice with a taught set")
    p.add_argument("image", metavar="IMG")
    p.add_argument("--set", required=True, metavar="SET.json")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_symbols)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    import cv2
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)   # our one line instead of OpenCV's WARNs
    try:
        return args.run(args)
    except (UnreadableImage, UsageError, FrameError) as err:
        print(f"vision {args.command}: {err}", file=sys.stderr)
        return 2
    except (OSError, ValueError) as err:   # an output folder missing, a file not writable, a bad JSON
        print(f"vision {args.command}: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
