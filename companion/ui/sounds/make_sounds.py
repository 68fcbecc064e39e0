"""Write the app's few sounds (small mono WAVs) next to this file: `python companion/ui/sounds/make_sounds.py`.

Made here from sine tones with a soft attack and a bell-like decay, and one quiet loop of soft noise (the night's
masking sound), so that the app ships no sound it did not make. The files are committed; run this again only to
change them (the noise comes from a fixed seed: the same file every time).
"""
from __future__ import annotations

import math
import random
import struct
import wave
from pathlib import Path

RATE = 11025  # plenty for chimes on a tablet speaker, and small files

# name: [(start s, frequency Hz, length s, loudness 0-1)]
SOUNDS = {
    # an event card is revealed: two bright notes, up a fifth
    "event": [(0.0, 659.3, 0.7, 0.5), (0.16, 987.8, 0.9, 0.45)],
    # round 5 and later: the sandstorm may come — two low, short notes
    "warning": [(0.0, 392.0, 0.35, 0.5), (0.3, 370.0, 0.5, 0.5)],
    # the sandstorm ends the game: a falling line over a low hum
    "sandstorm": [(0.0, 110.0, 1.6, 0.35), (0.0, 587.3, 0.6, 0.4), (0.25, 493.9, 0.6, 0.4), (0.5, 392.0, 0.6, 0.4),
                  (0.75, 293.7, 0.9, 0.4)],
    # the winner: a rising major arpeggio
    "winner": [(0.0, 523.3, 0.9, 0.4), (0.14, 659.3, 0.9, 0.4), (0.28, 784.0, 0.9, 0.4), (0.42, 1046.5, 1.1, 0.45)],
    # Obscurio: the hourglass is turned onto the next space — one soft wooden knock, low then its octave
    "flip": [(0.0, 220.0, 0.25, 0.55), (0.05, 440.0, 0.3, 0.3)],
    # Obscurio: "Stop!" — the last sand ran out: three firm, equal strikes
    "stop": [(0.0, 880.0, 0.3, 0.55), (0.22, 880.0, 0.3, 0.55), (0.44, 880.0, 0.6, 0.55)],
    # Obscurio: the traitor's night begins — a slow, soft fall of a minor third
    "night": [(0.0, 329.6, 1.2, 0.4), (0.45, 277.2, 1.5, 0.4)],
    # Obscurio: the game is over — a closing cadence, dominant to tonic
    "end": [(0.0, 392.0, 0.7, 0.4), (0.0, 587.3, 0.7, 0.35), (0.45, 261.6, 1.4, 0.45), (0.45, 523.3, 1.4, 0.4)],
    # Obscurio: the Watcher wakes (the marker reached the last space) — three low, slow steps down, held
    "watcher": [(0.0, 196.0, 1.0, 0.45), (0.35, 174.6, 1.0, 0.45), (0.7, 146.8, 1.8, 0.5), (0.7, 293.7, 1.8, 0.2)],
}
MASK_SECONDS = 6.0   # the night's masking sound: a loop of soft, rain-like noise, played quietly over and over


def render_mask(seconds: float = MASK_SECONDS, seed: int = 7) -> bytes:
    """Soft brown-ish noise with a slow swell, its end faded into its start so that it loops without a click: under
    it, the rustle of a Traitor pointing at cards goes unheard (the book: any sound would betray them)."""
    rng = random.Random(seed)
    fade = int(0.5 * RATE)
    n = int(seconds * RATE)
    raw, level = [], 0.0
    for _ in range(n + fade):
        level = 0.985 * level + 0.15 * rng.uniform(-1, 1)     # a leaky random walk: the high hiss rolled off
        raw.append(level)
    for i in range(fade):                                       # crossfade the tail over the head
        a = i / fade
        raw[i] = raw[i] * a + raw[n + i] * (1 - a)
    samples = [s * (0.75 + 0.25 * math.sin(2 * math.pi * i / n)) for i, s in enumerate(raw[:n])]
    peak = max(1e-9, max(abs(s) for s in samples))
    scale = 0.5 * 32767 / peak
    return b"".join(struct.pack("<h", int(s * scale)) for s in samples)


def render(notes) -> bytes:
    length = max(start + dur for start, _, dur, _ in notes)
    n = int(length * RATE) + 1
    samples = [0.0] * n
    for start, freq, dur, loud in notes:
        first = int(start * RATE)
        for i in range(int(dur * RATE)):
            t = i / RATE
            envelope = min(1.0, t / 0.01) * math.exp(-4.0 * t / dur)
            tone = math.sin(2 * math.pi * freq * t) + 0.3 * math.sin(2 * math.pi * 2 * freq * t)
            samples[first + i] += loud * envelope * tone
    peak = max(1e-9, max(abs(s) for s in samples))
    scale = 0.8 * 32767 / max(1.0, peak)
    return b"".join(struct.pack("<h", int(s * scale)) for s in samples)


def main() -> int:
    here = Path(__file__).resolve().parent
    frames = {name: render(notes) for name, notes in SOUNDS.items()}
    frames["mask"] = render_mask()
    for name, data in frames.items():
        with wave.open(str(here / f"{name}.wav"), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(RATE)
            w.writeframes(data)
        print(here / f"{name}.wav")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
