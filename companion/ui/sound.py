"""The app's sounds: a chime for the moments of a game (companion/ui/sounds/*.wav, made by make_sounds.py).

`Sounds.play(name)` is all a screen asks. Muting is the players' choice (the sound switch on every screen). A
machine without audio (a CI runner, Xvfb) simply stays silent: loading or playing a sound never raises. Tests put
a `RecordingSounds` in `app.sounds` and check which sound was asked for, not what came out of a speaker.
"""
from __future__ import annotations

import logging
from pathlib import Path

log = logging.getLogger(__name__)
FOLDER = Path(__file__).resolve().parent / "sounds"
NAMES = ("event", "warning", "sandstorm", "winner", "flip", "stop", "night", "end")


class Sounds:
    def __init__(self, folder: Path = FOLDER):
        self.folder = folder
        self.muted = False
        self._loaded: dict[str, object] = {}

    def play(self, name: str) -> None:
        if name not in NAMES:
            raise ValueError(f"no sound called {name!r}")
        if self.muted:
            return
        try:
            sound = self._load(name)
            if sound is not None:
                sound.stop()
                sound.play()
        except Exception:  # no audio device, no codec: a chime is never worth a crash
            log.info("sound %s not played", name, exc_info=True)

    def _load(self, name: str):
        if name not in self._loaded:
            from kivy.core.audio import SoundLoader  # lazily: the audio provider costs start-up time

            self._loaded[name] = SoundLoader.load(str(self.folder / f"{name}.wav"))
        return self._loaded[name]


class RecordingSounds(Sounds):
    """A stand-in that remembers what was asked for (name, and whether the sound was on) and plays nothing."""

    def __init__(self):
        super().__init__()
        self.requested: list[tuple[str, bool]] = []

    def play(self, name: str) -> None:
        if name not in NAMES:
            raise ValueError(f"no sound called {name!r}")
        self.requested.append((name, not self.muted))
