"""Table Bus decoder speed on one core, pure Python: frames/second through the framing decoder alone, through
framing + message parsing, and on a damaged stream (garbage and truncated frames between good ones).

Run: .venv/bin/python bench/bench_tablebus.py   — prints figures; no assertions (the target is >= 100,000 frames/s).
"""
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware_bridge.__main__ import _demo_messages  # noqa: E402
from firmware_bridge.tablebus.frame import Decoder  # noqa: E402
from firmware_bridge.tablebus.messages import MessageDecoder, encode_message  # noqa: E402

FRAMES = 200_000
CHUNK = 4096           # bytes per feed(), like a serial read of a busy port


def stream(n: int, damaged: bool) -> bytes:
    rng = random.Random(3)
    parts = []
    for msg, seq in _demo_messages(n):
        frame = encode_message(msg, seq)
        if damaged and rng.random() < 0.1:
            parts.append(bytes([0xA5]) + rng.randbytes(rng.randrange(1, 12)))   # garbage with a false start
        if damaged and rng.random() < 0.05:
            parts.append(frame[:len(frame) // 2])                               # a truncated frame
        parts.append(frame)
    return b"".join(parts)


def run(data: bytes, parse: bool) -> tuple[float, int, Decoder | MessageDecoder]:
    best = float("inf")
    for _ in range(3):
        d = MessageDecoder() if parse else Decoder()
        count = 0
        start = time.perf_counter()
        for i in range(0, len(data), CHUNK):
            count += len(d.feed(data[i:i + CHUNK]))
        best = min(best, time.perf_counter() - start)
    return best, count, d


def main() -> None:
    clean = stream(FRAMES, damaged=False)
    damaged = stream(FRAMES, damaged=True)
    print(f"Table Bus decoder, pure Python {sys.version.split()[0]}, one core; {FRAMES} frames of every message "
          f"type (mean {len(clean) / FRAMES:.1f} bytes), fed {CHUNK} bytes at a time, best of 3")
    for label, data, parse in (("frames only (Decoder), clean stream", clean, False),
                               ("frames + messages (MessageDecoder), clean", clean, True),
                               ("frames only (Decoder), damaged stream", damaged, False)):
        seconds, count, d = run(data, parse)
        s = d.stats
        print(f"  {label:42s} {count / seconds:>12,.0f} frames/s   {len(data) / seconds / 1e6:6.1f} MB/s"
              + (f"   (dropped {s.bytes_skipped} bytes: {s.bad_crc} bad CRC, {s.bad_length} bad length)"
                 if s.bytes_skipped else ""))


if __name__ == "__main__":
    main()
