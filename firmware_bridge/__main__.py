"""python -m firmware_bridge: Table Bus frames and live devices from the command line.

    encode [--demo N] [--hex]   JSON lines on stdin -> Table Bus frames on stdout (--demo N: N sample frames of
                                every message type; --hex: one frame per line in hex)
    decode                      bytes on stdin -> one JSON line per good frame (the form `encode` reads), and a
                                one-line summary of what was dropped on stderr
    scan [--timeout S] [--all]  serial ports that look like boards, and BLE devices when a radio is there
    monitor URL [--count N] [--capture FILE]
                                open a device by URL and print its observations as JSON lines (Ctrl-C ends);
                                --capture: also write what one die sent, as a capture `replay` reads
    replay CAPTURE.jsonl [--json] [--shell d6] [--die d20]
                                the observations a captured die gives, as the session receives them (capture.py)

Every error is one line on stderr and exit status 2; never a traceback.
"""
from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import random
import sys
from typing import Iterator

PROG = "python -m firmware_bridge"
MAX_DEMO = 10_000_000
MAX_LINE = 1 << 20          # a JSON line longer than 1 MiB is refused rather than parsed


class CliError(Exception):
    """One line for stderr; exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:        # argparse's own two-line usage + error: made one line
        raise CliError(f"{message} (see {PROG} --help)")


def _say(stream, text: str) -> None:
    text = " ".join(str(text).split())            # one line, whatever the message carried
    if len(text) > 400:
        text = text[:397] + "..."
    enc = getattr(stream, "encoding", None) or "utf-8"
    stream.write(text.encode(enc, "backslashreplace").decode(enc, "replace") + "\n")
    stream.flush()


# ---------------------------------------------------------------------------------------------------- encode

def _demo_messages(n: int, seed: int = 1) -> Iterator[tuple[object, int]]:
    """n sample messages cycling through every Table Bus message type (board and host), with varied fields."""
    from firmware_bridge.tablebus import messages as m

    rng = random.Random(seed)
    dirs = m.DIRECTIONS

    def samples():
        yield m.Hello(1, 0, rng.randrange(4), 1, rng.randrange(10), rng.randrange(10), 500, rng.getrandbits(32),
                      rng.choice(["stand-1", "obelisk", "tower", "Sablier é"]))
        yield m.Heartbeat(rng.getrandbits(32), rng.randrange(10))
        yield m.Ack(rng.randrange(256))
        yield m.Nack(rng.randrange(256), rng.choice([1, 2, 3, 4, 5]))
        yield m.Dice(rng.randrange(65536), tuple(m.DieResult(i, rng.randrange(0, 7), rng.randrange(50, 101))
                                                 for i in range(rng.randrange(1, 6))))
        yield m.Grid(tuple(m.Cell(rng.randrange(28), rng.choice(dirs)) for _ in range(m.GRID_CELLS)))
        yield m.Tile(rng.randrange(25), rng.randrange(28), rng.choice(dirs))
        yield m.Button(rng.randrange(4))
        yield m.Flip(rng.random() < 0.5, rng.randrange(65536))
        yield m.Battery(rng.randrange(101), rng.random() < 0.5, rng.randrange(3300, 4200))
        yield m.Error(rng.choice([16, 17, 18, 19]), rng.choice(["", "cell 7 unreadable", "rx overflow"]))
        yield m.HostHello(1, 0)
        yield m.Led(rng.choice(m.LED_PATTERNS), rng.randrange(256), rng.randrange(256), rng.randrange(256),
                    rng.randrange(10), rng.randrange(100, 2000))
        yield m.RequestState()
        yield m.RequestBattery()

    seq = 0
    while n > 0:
        for msg in samples():
            if n <= 0:
                return
            yield msg, seq
            seq = (seq + 1) & 0xFF
            n -= 1


def cmd_encode(args) -> int:
    from firmware_bridge.tablebus.messages import encode_message, message_from_json

    out = sys.stdout.buffer
    hex_lines = args.hex

    def emit(frame: bytes) -> None:
        out.write(frame.hex().encode() + b"\n" if hex_lines else frame)

    if args.demo is not None:
        if not 0 <= args.demo <= MAX_DEMO:
            raise CliError(f"--demo: a number of frames from 0 to {MAX_DEMO}")
        for msg, seq in _demo_messages(args.demo):
            emit(encode_message(msg, seq))
        out.flush()
        return 0
    from firmware_bridge.capture import json_lines

    auto_seq = 0
    for number, obj in json_lines(sys.stdin.buffer, CliError, MAX_LINE):
        try:
            msg, seq = message_from_json(obj)
            if seq is None:
                seq, auto_seq = auto_seq, (auto_seq + 1) & 0xFF
            frame = encode_message(msg, seq)
        except RecursionError:
            raise CliError(f"line {number}: JSON nested too deeply") from None
        except (ValueError, TypeError) as err:
            raise CliError(f"line {number}: {err}") from None
        emit(frame)
    out.flush()
    return 0


# ---------------------------------------------------------------------------------------------------- decode

def decoded_json(frame) -> dict:
    """The JSON line for one good frame: its message when re-encoding gives back the very same bytes, else raw
    (an unknown type, a payload that breaks its layout, trailing bytes from a newer minor version)."""
    from firmware_bridge.tablebus.frame import encode_frame
    from firmware_bridge.tablebus.messages import Raw, encode_message, message_to_json, parse_message

    msg = parse_message(frame)
    if not isinstance(msg, Raw):
        try:
            if encode_message(msg, frame.seq) == encode_frame(frame.type, frame.seq, frame.payload):
                return message_to_json(msg, frame.seq)
        except ValueError:
            pass
    return message_to_json(Raw(frame.type, frame.payload), frame.seq)


def cmd_decode(args) -> int:
    from firmware_bridge.tablebus.frame import Decoder

    decoder = Decoder()
    out = sys.stdout
    unknown = 0
    stdin = sys.stdin.buffer

    def write(frames) -> None:
        nonlocal unknown
        for frame in frames:
            d = decoded_json(frame)
            unknown += d["type"] == "raw"
            out.write(json.dumps(d) + "\n")

    while True:
        chunk = stdin.read1(65536) if hasattr(stdin, "read1") else stdin.read(65536)
        if not chunk:
            break
        write(decoder.feed(chunk))
    write(decoder.flush())
    out.flush()
    s = decoder.stats
    _say(sys.stderr, f"decode: {s.frames} frames from {s.bytes_in} bytes; dropped {s.bytes_skipped} bytes "
                     f"(bad length {s.bad_length}, bad CRC {s.bad_crc}, truncated {s.truncated}); "
                     f"{unknown} frames not understood (printed as raw)")
    return 0


# ------------------------------------------------------------------------------------------------------ scan

def cmd_scan(args) -> int:
    if not (0 < args.timeout <= 60):
        raise CliError("--timeout: seconds, more than 0 and at most 60")
    from firmware_bridge.tablebus.ports import serial_boards

    ports, problem = serial_boards(every=args.all)
    if problem:
        _say(sys.stderr, f"scan: {problem}")
    for port in ports:
        print(f"{port.url}\t{port.title}{f' ({port.ids})' if port.ids else ''}", flush=True)
    found = len(ports)
    found += _scan_ble(args.timeout, args.all)
    if not found:
        _say(sys.stderr, "scan: no boards found")
    return 0


def _scan_ble(timeout: float, everything: bool = False) -> int:
    """BLE devices from firmware_bridge.ble.scan.discover (when that module is there): those of a kind we know
    (Table Bus boards, dice), or every one with --all. No radio is a one-line note, not a failure."""
    try:
        from firmware_bridge.ble import scan as ble_scan
    except ImportError:
        _say(sys.stderr, "scan: BLE skipped (this build has no BLE scanner)")
        return 0
    discover = getattr(ble_scan, "discover", None)
    if discover is None:
        _say(sys.stderr, "scan: BLE skipped (this build has no BLE scanner)")
        return 0

    async def run():
        result = discover(timeout)
        if inspect.isawaitable(result):
            result = await result
        return result

    try:
        found = asyncio.run(asyncio.wait_for(run(), timeout + 10))
    except KeyboardInterrupt:
        raise
    except Exception as err:  # noqa: BLE001 — no adapter, Bluetooth off, no D-Bus: one note, not a failure
        _say(sys.stderr, f"scan: BLE skipped ({' '.join(str(err).split()) or type(err).__name__})")
        return 0
    n = 0
    for item in found or ():
        if not everything and getattr(item, "kind", "?") is None:
            continue
        print(_ble_line(item), flush=True)
        n += 1
    return n


def _ble_line(item) -> str:
    url = getattr(item, "url", None)
    if callable(url):
        url = url()
    name = getattr(item, "name", None)
    kind = getattr(item, "kind", None)
    address = getattr(item, "address", None)
    if url is None and address is not None:
        url = f"ble://{address}" + (f"?kind={kind}" if kind else "")
    parts = [str(url if url is not None else item)]
    if name:
        parts.append(str(name))
    rssi = getattr(item, "rssi", None)
    if rssi is not None:
        parts.append(f"{rssi} dBm")
    return "\t".join(parts)


# --------------------------------------------------------------------------------------------------- monitor

def cmd_monitor(args) -> int:
    from firmware_bridge.device import open_device

    if args.count is not None and not 1 <= args.count <= 1 << 40:
        raise CliError("--count: a number of observations, 1 or more")
    device = open_device(args.url)
    writer = None
    if args.capture:
        from firmware_bridge.capture import CaptureWriter, capturable

        target = capturable(device)
        if target is None:
            raise CliError("--capture records one die: a ble:// die, or sim://godice|pixels with count=1")
        try:
            writer = CaptureWriter(args.capture, target)
        except OSError as err:
            raise CliError(f"--capture: {args.capture}: {err.strerror or err}") from None

    async def run() -> None:
        seen = 0
        try:
            async with device:
                if writer is not None:
                    writer.opened()
                async for obs in device.observations():
                    sys.stdout.write(json.dumps(obs.to_json()) + "\n")
                    sys.stdout.flush()
                    seen += 1
                    if args.count is not None and seen >= args.count:
                        return
        finally:
            if writer is not None:
                writer.close()

    asyncio.run(run())
    return 0


# ---------------------------------------------------------------------------------------------------- replay

def cmd_replay(args) -> int:
    from firmware_bridge.capture import CaptureError, replay

    try:
        with open(args.capture, "rb") as f:
            for line in replay(f, shell=args.shell, die_type=args.die):
                sys.stdout.write((json.dumps(line) if args.json else _plain(line)) + "\n")
    except CaptureError as err:
        raise CliError(f"{args.capture}: {err}") from None
    except OSError as err:
        raise CliError(f"{args.capture}: {err.strerror or err}") from None
    sys.stdout.flush()
    return 0


def _plain(line: dict) -> str:
    """One replay line for a person (--json gives the machine's form)."""
    if "device" in line:
        d = line["device"]
        return " ".join(x for x in (f"die: {d['model']}", d["colourway"] and f"({d['colourway']})",
                                    d["firmware"] and f"firmware {d['firmware']}",
                                    d["battery"] is not None and f"battery {d['battery']}%") if x)
    if "rolled" in line:
        return f"rolled {line['rolled']} (confidence {line['confidence']:g})"
    if "set_down" in line:
        return f"set down on {line['set_down']} (no roll)"
    if "battery" in line:
        return f"battery {line['battery']}%" + (" (charging)" if line["charging"] else "")
    return next(iter(line))


# ------------------------------------------------------------------------------------------------------ main

def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, description="Table Bus frames and live devices from the command line.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    e = sub.add_parser("encode", help="JSON lines on stdin -> frames on stdout")
    e.add_argument("--demo", type=int, metavar="N", help="write N sample frames covering every message type")
    e.add_argument("--hex", action="store_true", help="one frame per line, in hex")
    e.set_defaults(func=cmd_encode)
    d = sub.add_parser("decode", help="bytes on stdin -> one JSON line per good frame")
    d.set_defaults(func=cmd_decode)
    s = sub.add_parser("scan", help="serial ports and BLE devices that look like boards")
    s.add_argument("--timeout", type=float, default=3.0, help="seconds to listen for BLE (default 3)")
    s.add_argument("--all", action="store_true", help="list every serial port and BLE device, not only likely boards")
    s.set_defaults(func=cmd_scan)
    mon = sub.add_parser("monitor", help="print a device's observations as JSON lines")
    mon.add_argument("url", help="a device URL: serial:///dev/ttyACM0, ble://ADDRESS?kind=tablebus, sim://tablebus")
    mon.add_argument("--count", type=int, metavar="N", help="stop after N observations")
    mon.add_argument("--capture", metavar="FILE", help="also write what the die sent to FILE (for `replay`)")
    mon.set_defaults(func=cmd_monitor)
    r = sub.add_parser("replay", help="the observations a captured die gives, one per line")
    r.add_argument("capture", help="a capture written by `monitor --capture` (JSON lines)")
    r.add_argument("--json", action="store_true", help="one JSON object per line")
    r.add_argument("--shell", default="d6", help="a GoDice's shell (the die cannot tell; default d6)")
    r.add_argument("--die", default=None, help="a Pixels die's type when it does not say (d4 d6 d8 d10 d00 d12 d20)")
    r.set_defaults(func=cmd_replay)
    return p


def main(argv: list[str] | None = None) -> int:
    from firmware_bridge.errors import DeviceError

    try:
        args = build_parser().parse_args(argv)
        return args.func(args)
    except KeyboardInterrupt:
        return 0                                   # Ctrl-C: a clean stop, like candump
    except BrokenPipeError:
        try:
            sys.stdout = open("/dev/null", "w")    # noqa: SIM115 — the reader went away (| head): stop quietly
        except OSError:
            pass
        return 0
    except CliError as err:
        _say(sys.stderr, f"{PROG}: {err}")
        return 2
    except DeviceError as err:
        _say(sys.stderr, f"{PROG}: {err}")
        return 2
    except SystemExit as err:                      # --help exits 0 through argparse
        return err.code if isinstance(err.code, int) else 2
    except RecursionError:
        _say(sys.stderr, f"{PROG}: input nested too deeply")
        return 2
    except Exception as err:  # noqa: BLE001 — the promise: one line, exit 2, never a traceback
        _say(sys.stderr, f"{PROG}: internal error ({type(err).__name__}: {err})")
        return 2


if __name__ == "__main__":
    sys.exit(main())
