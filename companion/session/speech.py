"""Speaking to the table: the narrator's lines read aloud where the system has a text-to-speech engine (espeak-ng on
Linux, `say` on macOS), and otherwise nothing — the screen shows the line large, with a chime (table rule 7).

Speaking never blocks the app: the engine runs as its own process, and a new line stops the one still being read.
"""
from __future__ import annotations

import logging
import shutil
import subprocess
from pathlib import Path

log = logging.getLogger(__name__)

# espeak-ng voices for the app's languages
VOICES = {"en": "en", "de": "de", "es": "es"}


class SilentSpeaker:
    """No speech engine here: the screen alone carries the narration."""
    available = False

    def say(self, text: str, lang: str = "en") -> None:
        return None

    def stop(self) -> None:
        return None


class CommandSpeaker:
    """A speech engine run as a command: espeak-ng (Linux), say (macOS)."""
    available = True

    def __init__(self, program: str, *, wav_dir: Path | None = None):
        self.program = program
        self.wav_dir = wav_dir          # tests: write each line to a WAV file instead of the sound card
        self._process: subprocess.Popen | None = None
        self.spoken = 0

    def command(self, text: str, lang: str) -> list[str]:
        name = Path(self.program).name
        if name.startswith("espeak"):
            cmd = [self.program, "-v", VOICES.get(lang, "en"), "-s", "150"]
            if self.wav_dir is not None:
                cmd += ["-w", str(self.wav_dir / f"line-{self.spoken:03d}.wav")]
            return cmd + ["--", text]
        return [self.program, text]  # macOS `say` picks the system voice

    def say(self, text: str, lang: str = "en") -> None:
        self.stop()
        try:
            self._process = subprocess.Popen(self.command(text, lang), stdout=subprocess.DEVNULL,
                                             stderr=subprocess.DEVNULL)
            self.spoken += 1
        except OSError as err:  # the engine vanished or cannot run: the screen still shows the line
            log.warning("could not speak with %s: %s", self.program, err)
            self.available = False

    def wait(self, timeout: float = 30) -> None:
        if self._process is not None:
            self._process.wait(timeout)

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
        self._process = None


class MutedWhen:
    """A speaker that falls silent while `muted()` says so: the group may switch the sound off in the middle of the
    night, and the next line must not be read aloud (the screen still shows it)."""

    def __init__(self, speaker, muted):
        self.speaker = speaker
        self.muted = muted

    @property
    def available(self) -> bool:
        return self.speaker.available and not self.muted()

    def say(self, text: str, lang: str = "en") -> None:
        if self.muted():
            self.speaker.stop()
        else:
            self.speaker.say(text, lang)

    def stop(self) -> None:
        self.speaker.stop()


def system_speaker(muted: bool = False):
    """The best speaker this system has (SilentSpeaker when muted or when there is none)."""
    if muted:
        return SilentSpeaker()
    for program in ("espeak-ng", "espeak", "say"):
        path = shutil.which(program)
        if path:
            return CommandSpeaker(path)
    return SilentSpeaker()
