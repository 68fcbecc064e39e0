"""The app's sounds: a chime for the moments of a game (companion/ui/sounds/*.wav, made by make_sounds.py), and a
quiet background loop where a game wants one (Obscurio's night: soft noise that masks the Traitor's movements).

`Sounds.play(name)` is all a screen asks for a chime; `loop(name)` / `stop_loop(name)` for a background sound.
Muting is the players' choice (the sound switch on every screen): it silences a loop at once, and switching the
sound on again brings a loop that is still wanted back. A machine without audio (a CI runner, Xvfb) simply stays
silent: loading or playing a sound never raises. Tests put a `RecordingSounds` in `app.sounds` and check which
sound was asked for, not what came out of a speaker.
"""
from __future__ import annotations

import logging
from pathlib import Path

log = logging.getLogger(__name__)
FOLDER = Path(__file__).resolve().parent / "sounds"
NAMES = ("event", "warning", "sandstorm", "winner", "flip", "stop", "night", "end", "watcher", "mask")
LOOP_VOLUME = 0.35   # a background loop is heard under the talk, never over it


class Sounds:
    def __init__(self, folder: Path = FOLDER):
        self.folder = folder
        self._muted = False
        self._loaded: dict[str, object] = {}
        self.looping: set[str] = set()   # background sounds wanted now (heard unless muted)

    @property
    def muted(self) -> bool:
        return self._muted

    @muted.setter
    def muted(self, value: bool) -> None:
        self._muted = bool(value)
        for name in sorted(self.looping):
            if self._muted:
                self._stop(name)
            else:
                self._start_loop(name)

    def play(self, name: str) -> None:
        _check(name)
        if self.muted:
            return
        try:
            sound = self._load(name)
            if sound is not None:
                sound.stop()
                sound.play()
        except Exception:  # no audio device, no codec: a chime is never worth a crash
            log.info("sound %s not played", name, exc_info=True)

    def loop(self, name: str) -> None:
        """Play `name` over and over, quietly, until stop_loop (silent while muted, back when unmuted)."""
        _check(name)
        if name in self.looping:
            return
        self.looping.add(name)
        if not self.muted:
            self._start_loop(name)

    def stop_loop(self, name: str) -> None:
        if name in self.looping:
            self.looping.discard(name)
            self._stop(name)

    def _start_loop(self, name: str) -> None:
        try:
            sound = self._load(name)
            if sound is not None:
                sound.loop = True
                sound.volume = LOOP_VOLUME
                sound.play()
        except Exception:
            log.info("sound %s not looped", name, exc_info=True)

    def _stop(self, name: str) -> None:
        try:
            sound = self._loaded.get(name)
            if sound is not None:
                sound.stop()
        except Exception:
            log.info("sound %s not stopped", name, exc_info=True)

    def _load(self, name: str):
        if name not in self._loaded:
            from kivy.core.audio import SoundLoader  # lazily: the audio provider costs start-up time

            self._loaded[name] = SoundLoader.load(str(self.folder / f"{name}.wav"))
        return self._loaded[name]


class RecordingSounds(Sounds):
    """A stand-in that remembers what was asked for (name, and whether the sound was on) and plays nothing; `heard`
    tells which background loops would be sounding now."""

    def __init__(self):
        super().__init__()
        self.requested: list[tuple[str, bool]] = []
        self.loops: list[tuple[str, str]] = []     # ("start" | "stop", name), in order, muted or not

    def play(self, name: str) -> None:
        _check(name)
        self.requested.append((name, not self.muted))

    def _start_loop(self, name: str) -> None:
        self.loops.append(("start", name))

    def _stop(self, name: str) -> None:
        self.loops.append(("stop", name))

    @property
    def heard(self) -> set[str]:
        return set() if self.muted else set(self.looping)


def _check(name: str) -> None:
    if name not in NAMES:
        raise ValueError(f"no sound called {name!r}")
