"""The night on the real app, by touch: it waits for the Grimoire at the Traitor's choice, a countdown only when
the group set one, it can be paused and goes on saying the line again, a quiet masking sound plays under it and
follows the sound switch. And a kill -9 (of the whole process group) during the night reopens it where it stood:
on the same line with the pause it had left, at the Traitor's choice still waiting, and after the night in step 4
without playing it again."""
from __future__ import annotations

import pytest

from companion.games.obscurio import Setup, new_game
from tests.ui.obscurio_driver import NAMES
from tests.ui.obscurio_run import run_driver
from tests.ui.test_obscurio_resume import run_and_kill

pytestmark = pytest.mark.ui
FIVE = tuple(zip(NAMES, ("grimoire", "blue", "green", "red", "yellow")))


def quiet_seed() -> int:
    """A seed whose first draw holds no Dark Magic nor Espionage: nobody is asked for the Traitor's count."""
    return next(s for s in range(1, 500)
                if not {"dark_magic", "espionage"} & set(new_game(Setup(FIVE, seed=s)).legal_actions()[0].traps))


def test_a_killed_night_goes_on_where_it_stood(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    seed = str(quiet_seed())
    first = run_and_kill("night_hang", data, tmp_path / "1.json", "--seed", seed)
    assert first["screen"] == "obscurio-night" and first["index"] == 2 and first["remaining"] == 2

    second = run_and_kill("night_resume", data, tmp_path / "2.json", "--seed", seed, "--wall",
                          str(first["wall"] + 0.5))
    back = second["reopened"]
    assert back["screen"] == "obscurio-night" and back["line"] == first["line"] and back["index"] == 2
    assert back["remaining"] == pytest.approx(1.5)           # its pause went on while the app was dead
    assert second["said_again"] == [first["line"]]           # and the line is said again for the table
    assert second["choice"]["waiting"] and second["choice"]["phase"] == "traitor"

    third = run_and_kill("night_choice", data, tmp_path / "3.json", "--seed", seed, "--wall",
                         str(second["wall"] + 600))
    assert third["reopened"]["waiting"] and third["reopened"]["line"] == second["choice"]["line"]
    assert third["after"] == {"screen": "obscurio-table", "phase": "doors"}

    fourth = run_driver("night_over", "--data-dir", str(data), "--seed", seed, "--wall", str(third["wall"] + 30),
                        out=tmp_path / "4.json")
    assert fourth["screen"] == "obscurio-table" and fourth["phase"] == "doors"
    assert not fourth["narrating"] and fourth["said"] == []  # the night is not played again
    assert fourth["waiting_glass"]                           # and step 4's glass waits for the first card


def test_countdown_pause_and_the_masking_sound(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    r = run_driver("night_options", "--data-dir", str(data), "--seed", str(quiet_seed()), out=tmp_path / "r.json")
    assert r["countdown_text"] == "30 s"
    assert r["heard_in_the_night"] == ["mask"]
    assert r["close_too_early"] == "Wait for the Traitor's choice"
    assert r["paused"] == {"line_kept": True, "button": "Go on", "count": "Line 1 of 8  ·  PAUSED"}
    assert r["resumed"]["said_again"] == ["Wizards, close your eyes."] and r["resumed"]["button"] == "Pause"
    assert r["heard_muted"] == [] and r["heard_again"] == ["mask"]      # the sound switch takes the mask with it
    assert r["countdown_1s"] == {"text": "0:01", "phase": "traitor"}
    assert r["after_countdown"] == {"phase": "doors", "decoys": None}  # time up: the card holder is closed
    assert r["heard_after_the_night"] == []
    assert ["start", "mask"] in r["loops"] and r["loops"][-1] == ["stop", "mask"]
