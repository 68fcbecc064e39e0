"""The traitor's step narrated: the script adapts to the traps and never to who the Traitor is; the narrator speaks
each line and waits its pause on the session's clock, stops at the Traitor's choice until the Grimoire taps (a
countdown only when the group set one), can be paused, and picks up where it stood after a restart; where espeak-ng
exists the lines are really spoken."""
from __future__ import annotations

import shutil
import wave
from dataclasses import replace

import pytest

from companion.games.obscurio import Setup, action_from_text, new_game
from companion.games.obscurio.night import choice_line, count_needed, script
from companion.i18n import translations
from companion.session.narrator import Narrator
from companion.session.speech import CommandSpeaker, MutedWhen, SilentSpeaker, system_speaker
from companion.session.timers import FakeClock, TimerService

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
    choice = choice_line(lines)
    for _ in range(600):  # a screen polling every second: ten minutes pass at the Traitor's choice
        clock.advance(1)
        narrator.poll()
    assert narrator.line is lines[choice] and narrator.waiting and not narrator.timed_out
    narrator.go_on()  # the Grimoire's tap: the card holder is closed
    for _ in range(30):
        clock.advance(1)
        narrator.poll()
    assert shown[-1] is None and not narrator.running
    assert [t for t, _ in speaker.said][-1] == "Alle: Augen auf."
    assert len(speaker.said) == len(lines)


def test_the_traitors_choice_waits_for_the_grimoire_unless_a_countdown_was_set():
    lines = script(turn("dark_night"))
    choice = choice_line(lines)
    assert lines[choice].wait and lines[choice].seconds is None and "up to 2 cards" in lines[choice].text
    assert [i for i, line in enumerate(lines) if line.wait] == [choice]          # the only line that waits
    timed = script(turn("dark_night", countdown=45))
    assert timed[choice].wait and timed[choice].seconds == 45
    clock = FakeClock()
    narrator = Narrator(clock, SilentSpeaker())
    narrator.start(timed, at=choice)
    clock.advance(44)
    narrator.poll()
    assert narrator.remaining() == pytest.approx(1) and not narrator.timed_out
    clock.advance(1)
    narrator.poll()
    assert narrator.timed_out and narrator.line is timed[choice]   # time is up, and it still waits for the tap
    narrator.go_on()
    assert narrator.line is timed[choice + 1]


def test_the_narration_pauses_and_resumes_saying_the_line_again():
    clock, speaker = FakeClock(), Recorder()
    lines = script(turn("dark_night"))
    narrator = Narrator(clock, speaker)
    narrator.start(lines)
    clock.advance(1)
    assert narrator.pause() and narrator.paused
    clock.advance(100)
    narrator.poll()
    assert narrator.line is lines[0] and narrator.remaining() == pytest.approx(lines[0].seconds - 1)
    assert narrator.resume() and not narrator.paused
    assert [t for t, _ in speaker.said] == [lines[0].text, lines[0].text]
    clock.advance(lines[0].seconds - 1)
    narrator.poll()
    assert narrator.line is lines[1]
    narrator.start(lines, at=choice_line(lines))
    assert not narrator.pause()   # a line that waits has no sand to stop: it already waits for the tap


def test_a_night_picks_up_where_it_stood_after_a_restart():
    clock = FakeClock()
    timers = TimerService(clock)
    stored = []
    timers.subscribe(stored.append)           # what the table's log keeps
    lines = script(turn("espionage"))
    narrator = Narrator(clock, SilentSpeaker(), timers=timers)
    narrator.start(lines, key="turn 1")
    narrator.skip(), narrator.skip()
    clock.advance(2)
    # killed here, on the third line with some of its pause gone; back 1 s later
    later = FakeClock(wall=clock.wall() + 1)
    again = Narrator(later, Recorder(), timers=TimerService.restore(stored, later))
    assert again.restore(lines, key="turn 1") and again.line is lines[2]
    assert again.remaining() == pytest.approx(lines[2].seconds - 3)
    assert again.speaker.said == [(lines[2].text, "en")]    # said again for the table
    assert not Narrator(later, SilentSpeaker(), timers=TimerService.restore(stored, later)).restore(lines, "turn 2")
    # at the choice, paused by nobody: it still waits after a restart, however long the app was away
    narrator.start(lines, key="turn 1", at=choice_line(lines))
    much_later = FakeClock(wall=clock.wall() + 3600)
    again = Narrator(much_later, SilentSpeaker(), timers=TimerService.restore(stored, much_later))
    assert again.restore(lines, key="turn 1") and again.waiting and again.line is lines[choice_line(lines)]
    # a night that was over is not started again
    narrator.stop()
    assert not Narrator(later, SilentSpeaker(), timers=TimerService.restore(stored, later)).restore(lines, "turn 1")


def test_the_count_is_asked_only_when_a_traps_limit_needs_it():
    assert count_needed(turn("dark_magic")) and not count_needed(turn("dark_night"))
    assert not count_needed(turn("espionage"))


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
