"""Obscurians spoken aloud (issue 14 §4): an event card, the sandstorm (and from round 5 that it can come next) and
whose turn it is are said where the system speaks and the sound is on; with the sound off, nothing is said.

The app's own wiring is exercised: the plug-in asks `companion.session.speech.system_speaker()` (as Obscurio's
narrator does) and mutes it with the sound switch; the driver hands it a real espeak-ng speaker that writes each
line into a WAV file instead of the sound card, and notes what it was asked to say (the speech boundary). The sound
is switched by touch in the menu; the tables are played and resumed by touch.

This file is also the driver: `python tests/ui/test_obscurians_speech.py --data-dir D --out result.json`.
"""
from __future__ import annotations

import random
import shutil
import sys
import wave
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def spoken(own_driver):
    return own_driver


@pytest.mark.ui
def test_the_first_event_card_and_whose_turn_it_is_are_said(spoken):
    from companion.games.obscurians.vocabulary import EVENT, EVENT_EFFECT

    first = spoken["start"]
    card = first["card"]
    assert first["said"] == [[f"{EVENT[card]}. {EVENT_EFFECT[card]} Anna's turn", "en"]]
    assert spoken["engine"] in ("espeak-ng", "none")


@pytest.mark.ui
def test_the_turn_passing_is_said_while_the_sound_is_on(spoken):
    assert spoken["turn"]["said"] == [["Ben's turn", "en"]]


@pytest.mark.ui
def test_with_the_sound_off_nothing_is_said(spoken):
    off = spoken["muted"]
    assert off["sound_on"] is False and off["turn_passed_to"] == "Chris"
    assert off["said"] == []


@pytest.mark.ui
def test_the_sandstorm_warning_in_german_and_the_sandstorm_are_said(spoken):
    from companion.i18n import translations

    de = translations("de").gettext
    storm = spoken["sandstorm"]
    warning = de("From now on the next event card can be the sandstorm, which ends the game at once.")
    assert warning.startswith("Ab jetzt")
    assert storm["warning"] == [[de("Round {n}").format(n=5) + ". " + warning, "de"]]
    assert storm["sandstorm"] == [["Sandstorm. The sandstorm sweeps over the bazaar: the game is over. Reveal your "
                                   "mission cards.", "en"]]


@pytest.mark.ui
def test_what_is_said_is_really_spoken(spoken):
    if spoken["engine"] == "none":  # no speech engine on this machine: nothing can be heard, nothing is claimed
        assert spoken["wavs"] == []
        return
    # espeak-ng wrote every line into its own WAV file: a second or more of speech each.
    assert len(spoken["wavs"]) == 4 and all(seconds > 0.5 for seconds in spoken["wavs"]), spoken["wavs"]


# -- the driver ------------------------------------------------------------------------------------------------------

class Said:
    """Notes what the app asks its speaker to say; speaks it with espeak-ng into a WAV file where espeak-ng exists."""

    def __init__(self, wav_dir: Path):
        from companion.session.speech import CommandSpeaker

        program = shutil.which("espeak-ng")
        self.real = CommandSpeaker(program, wav_dir=wav_dir) if program else None
        self.available = True
        self.said: list[tuple[str, str]] = []

    def say(self, text: str, lang: str = "en") -> None:
        self.said.append((text, lang))
        if self.real is not None:
            self.real.say(text, lang)
            self.real.wait()  # each line whole in its file (the app's speaker would cut it at the next line)

    def stop(self) -> None:
        if self.real is not None:
            self.real.stop()


def round_four_ends(seed: int = 3):
    """A physical-deck table played by the engine's random player up to the last End turn of round 4."""
    from companion.games.obscurians.actions import EndTurn
    from companion.games.obscurians.randplay import random_action
    from companion.games.obscurians.setup import Setup
    from companion.games.obscurians.state import new_game

    setup = Setup(players=(("Anna", "red"), ("Ben", "orange"), ("Chris", "yellow"), ("Dana", "green")), start=0,
                  deck="physical", seed=seed)
    state, rng, actions = new_game(setup), random.Random(seed), []
    while True:
        action = EndTurn() if "end" in state.legal_types() else random_action(state, rng)
        after = state.apply(action)
        if isinstance(action, EndTurn) and after.phase == "reveal" and after.round == 5:
            return setup, actions
        if action.TYPE == "reveal" and action.card == "sandstorm":
            continue  # (never before round 5; the sandstorm is tapped by the test)
        state = after
        actions.append(action)


async def play_turn(d, rng) -> None:
    """The active player's turn, entered by touch (the engine's random player decides), up to End turn."""
    from companion.games.obscurians.actions import EndTurn
    from companion.games.obscurians.randplay import random_action

    table = d.app.table
    decided, who = d.shown(), table.state.active
    while table.state.phase == "turn" and table.state.active == who:
        wanted = EndTurn() if "end" in decided.legal_types() else random_action(decided, rng)
        decided = await d.enter(decided, wanted, Counter())


async def set_sound(d, on: bool) -> None:
    """The sound switch of the round screen's menu, by touch."""
    if d.app.sound_on == on:
        return
    await d.tap(next(b for b in d.by_class("ObsnCornerButton") if b.kind == "menu" and b.parent.angle == 0))
    await d.frames(2)
    await d.tap(d.by_id("sound"))
    await d.tap(d.by_id("close"))
    await d.frames(2)


async def scenario(app, args) -> dict:
    from companion.session import speech
    from companion.session.table import Table
    from tests.ui.obscurians_driver import Driver
    from tests.ui.test_home_way_back import go_home_by_touch
    from tests.ui.test_old_tables import row_button

    wav_dir = Path(args.data_dir) / "wav"
    wav_dir.mkdir()
    said = Said(wav_dir)
    speech.system_speaker = lambda muted=False: said  # the system's speaker, as the app asks for it
    d, rng = Driver(app, random.Random(5)), random.Random(5)
    out: dict = {"engine": "espeak-ng" if said.real is not None else "none"}

    def since(n: int) -> list:
        return [list(x) for x in said.said[n:]]  # (text, language) pairs, as JSON keeps them

    # A new table, the app's deck: Start reveals round 1's card.
    await d.new_table(4, deck="app")
    out["start"] = {"card": app.table.state.event, "said": since(0)}
    await d.close_moment()
    n = len(said.said)
    await play_turn(d, rng)  # Anna's turn: End turn passes the dice to Ben
    out["turn"] = {"said": since(n)}
    await set_sound(d, False)
    n = len(said.said)
    await play_turn(d, rng)  # Ben's turn, the sound off
    out["muted"] = {"said": since(n), "sound_on": app.sound_on,
                    "turn_passed_to": app.table.state.setup.players[app.table.state.active][0]}
    await set_sound(d, True)

    # A table at the last End turn of round 4 (physical deck), resumed from Home.
    setup, actions = round_four_ends()
    old = Table.create(app.store, "obscurians", setup, title="Round four")
    for action in actions:
        old.apply(action)
    await go_home_by_touch(d)
    await d.tap(await row_button(d, "unfinished", old.id))
    await d.wait_screen("round")
    await d.close_moment()
    from companion.ui.obscurians.choices import Reveal

    app.set_language("de")  # (what the menu's Deutsch does) the warning is said in the players' language
    await d.frames(2)
    n = len(said.said)
    await d.tap(d.by_id("end_turn"))
    await d.frames(2)
    storm = {"warning": since(n)}
    await d.close_moment()
    app.set_language("en")
    await d.frames(2)
    n = len(said.said)
    await d.tap(d.widget_for(("choice", Reveal("sandstorm"))))
    await d.frames(2)
    storm["sandstorm"] = since(n)
    out["sandstorm"] = storm
    await d.close_moment()
    wavs = []
    for f in sorted(wav_dir.glob("line-*.wav")):
        with wave.open(str(f)) as w:
            wavs.append(w.getnframes() / w.getframerate())
    out["wavs"] = wavs
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    from tests.ui.drive import script_main

    raise SystemExit(script_main(scenario))
