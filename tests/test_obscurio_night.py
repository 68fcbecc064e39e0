"""The traitor's step narrated: the script adapts to the traps and never to who the Traitor is; the narrator speaks
each line and waits its pause on the session's clock; where espeak-ng exists the lines are really spoken."""
from __future__ import annotations

import shutil
import wave
from dataclasses import replace

import pytest

from companion.games.obscurio import Setup, action_from_text, new_game
from companion.games.obscurio.night import script
from companion.i18n import translations
from companion.session.narrator import Narrator
from companion.session.speech import CommandSpeaker, MutedWhen, SilentSpeaker, system_speaker
from companion.session.timers import FakeClock

FIVE = (("Gala", "grimoire"), ("Bea", "blue"), ("Gus", "green"), ("Rita", "red"), ("Yago", "yellow"))


def turn(traps: str, players=FIVE, **setup):
    state = new_game(Setup(players=players, bag="physical", **setup))
    return state.apply(action_from_text(f"draw {traps}")).apply(action_from_text("riddle"))


def texts(state):
    return [line.text for line in script(state)]


def test_the_night_closes_eyes_lets_the_traitor_pick_two_and_opens_eyes():
    lines = texts(turn("dark_night"))
    assert lines[:2] == ["Wizards, close your eyes.", "Traitor, open your eyes."]
    assert any("up to 2 cards" in t for t in lines) and not any("Exit card." in t for t in lines)
    assert lines[-2:] == ["Traitor, close your eyes.", "Everyone, open your eyes."]
    assert script(turn("dark_night"))[0].chime and script(turn("dark_night"))[-1].chime


def test_dark_magic_and_espionage_change_the_words():
    assert any("up to 4 cards" in t for t in texts(turn("dark_magic")))
    espionage = texts(turn("espionage"))
    at = espionage.index("Espionage: Grimoire, show the Traitor the Exit card.")
    assert 0 < at < [i for i, t in enumerate(espionage) if "up to 2 cards" in t][0]


def test_no_night_without_a_traitor_and_no_closed_eyes_once_exposed():
    assert script(turn("dark_night", players=FIVE[:3])) == ()
    exposed = replace(turn("dark_night"), exposed=True, traitor="red")
    lines = texts(exposed)
    assert not any("close your eyes" in t or "open your eyes" in t for t in lines)
    assert any("up to 2 cards" in t for t in lines)


def test_the_words_never_depend_on_who_the_traitor_is():
    a = turn("espionage", loyalty="app", seed=1)
    b = replace(a, traitor="blue" if a.traitor != "blue" else "green")
    assert a.traitor != b.traitor and texts(a) == texts(b)


class Recorder:
    available = True

    def __init__(self):
        self.said = []

    def say(self, text, lang="en"):
        self.said.append((text, lang))

    def stop(self):
        pass


def test_the_narrator_speaks_each_line_and_waits_its_pause():
    clock, speaker = FakeClock(), Recorder()
    lines = script(turn("dark_magic"))
    de = translations("de", "rules")
    shown = []
    narrator = Narrator(clock, speaker, lang=lambda: "de", text=lambda line: de.gettext(line.template).format(
        **line.params))
    narrator.subscribe(shown.append)
    narrator.start(lines)
    assert speaker.said == [("Zauberer, schließt die Augen.", "de")]
    clock.advance(lines[0].seconds - 0.01)
    narrator.poll()
    assert len(speaker.said) == 1
    clock.advance(0.01)
    narrator.poll()
    assert speaker.said[-1] == ("Verräter, öffne die Augen.", "de")
    narrator.skip()  # the table is ready sooner
    assert shown[-1] is lines[2]
    for _ in range(int(sum(line.seconds for line in lines)) + 1):  # a screen polling every second
        clock.advance(1)
        narrator.poll()
    assert shown[-1] is None and not narrator.running
    assert [t for t, _ in speaker.said][-1] == "Alle: Augen auf."
    assert len(speaker.said) == len(lines)


def test_without_speech_the_narration_still_runs_on_screen():
    clock = FakeClock()
    narrator = Narrator(clock, SilentSpeaker())
    narrator.start(script(turn("dark_night")))
    assert narrator.line.text == "Wizards, close your eyes."
    assert system_speaker(muted=True).available is False


def test_switching_the_sound_off_in_the_night_silences_the_next_line_and_the_screen_carries_on():
    clock, recorder = FakeClock(), Recorder()
    recorder.available = True
    muted = [False]
    speaker = MutedWhen(recorder, lambda: muted[0])
    lines = script(turn("dark_magic"))
    narrator = Narrator(clock, speaker)
    narrator.start(lines)
    assert len(recorder.said) == 1 and speaker.available
    muted[0] = True  # someone taps the sound switch
    narrator.skip()
    assert narrator.line is lines[1] and len(recorder.said) == 1 and not speaker.available
    muted[0] = False
    narrator.skip()
    assert recorder.said[-1][0] == lines[2].text and len(recorder.said) == 2


@pytest.mark.skipif(shutil.which("espeak-ng") is None,
                    reason="espeak-ng is not installed here, so no line can really be spoken (.ci/run installs it)")
def test_espeak_ng_really_speaks_the_lines_in_each_language(tmp_path):
    speaker = CommandSpeaker(shutil.which("espeak-ng"), wav_dir=tmp_path)
    for lang, text in (("en", "Wizards, close your eyes."), ("de", "Zauberer, schließt die Augen."),
                       ("es", "Magos, cerrad los ojos.")):
        speaker.say(text, lang)
        speaker.wait()
    files = sorted(tmp_path.glob("line-*.wav"))
    assert len(files) == 3
    for f in files:
        with wave.open(str(f)) as w:
            assert w.getnframes() / w.getframerate() > 0.5  # about a second of speech each
