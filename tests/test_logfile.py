"""The JSON Lines log: round trips, and every kind of damage named by its line."""
import json

import pytest

from companion.games.errors import InvalidInput
from companion.games.obscurians.actions import EndTurn
from companion.session import Table, TableStore
from companion.session.logfile import read_log, write_log
from session_helpers import game, replay


def log_text(seed=11, n=None, extra=()):
    setup, actions = game(seed)
    entries = [("action", a.to_json()) for a in actions[:n]] + list(extra)
    return setup, actions, write_log("obscurians", setup.to_json(), entries)


def test_export_then_read_gives_the_live_state(tmp_path):
    setup, actions = game(12)
    with TableStore(tmp_path) as store:
        table = Table.create(store, "obscurians", setup)
        for a in actions[:30]:
            table.apply(a)
        table.undo()
        table.undo()
        table.redo()
        text = table.export()
    lines = text.splitlines()
    assert json.loads(lines[0]) == {"format": 1, "game": "obscurians", "setup": setup.to_json()}
    assert [json.loads(line) for line in lines[-3:]] == [{"undo": True}, {"undo": True}, {"redo": True}]
    parsed = read_log(text)
    assert parsed.state.to_json() == table.state.to_json()
    assert parsed.timeline.actions == table.actions and parsed.timeline.can_redo == table.can_redo
    assert write_log(parsed.game, parsed.setup_json, parsed.entries) == text


def test_a_whole_game_reads_back_to_its_outcome():
    setup, actions, text = log_text(13)
    parsed = read_log(text)
    assert parsed.state.to_json() == replay(setup, actions).to_json()
    assert parsed.state.outcome() is not None


def with_line(text, n, line):
    """`text` with line n (1-based) replaced by `line`, or `line` inserted when n is one past the end."""
    lines = text.splitlines()
    lines[n - 1:n] = [line]
    return "\n".join(lines) + "\n"


def expect(text, message):
    with pytest.raises(InvalidInput) as info:
        read_log(text)
    assert str(info.value) == message or str(info.value).startswith(message), str(info.value)
    return str(info.value)


def test_named_line_errors():
    _, actions, text = log_text(14, n=8)
    expect(with_line(text, 3, '{"action": {"type": "reveal", "card"'), "line 3: not valid JSON")
    expect(with_line(text, 1, '{"format": 1, "game": "chess", "setup": {}}'), "line 1: unknown game 'chess'")
    expect(with_line(text, 1, '{"format": 2, "game": "obscurians", "setup": {}}'), "line 1: unsupported format 2")
    expect(with_line(text, 1, '[1, 2]'), "line 1: expected a header")
    expect(with_line(text, 1, '{"format": 1, "game": "obscurians", "setup": {"players": []}}'), "line 1: players:")
    expect(with_line(text, 4, '{"undo": false}'), 'line 4: "undo" must be true')
    expect(with_line(text, 4, '{"move": "e4"}'), 'line 4: expected {"action": {...}}')
    expect(with_line(text, 5, '{"action": {"type": "teleport"}}'), "line 5: type: 'teleport' is not an Obscurians")
    expect(with_line(text, 5, '{"action": {"type": "steal", "victim": "purple", "good": "lamp"}}'),
           "line 5: steal.victim")
    expect(with_line(text, 5, '{"action": "steal"}'), "line 5: an action must be a JSON object")
    expect("", "line 1: the file is empty")


def test_undo_and_redo_must_have_something_to_act_on():
    setup, actions, _ = log_text(15, n=0)
    text = write_log("obscurians", setup.to_json(), [("action", actions[0].to_json()), ("undo", None)])
    expect(text + '{"undo": true}\n', "line 4: Nothing to undo")
    expect(text + '{"redo": true}\n{"redo": true}\n', "line 5: Nothing to redo")
    # a new action after an undo clears the redo stack
    expect(text + json.dumps({"action": actions[0].to_json()}) + '\n{"redo": true}\n', "line 5: Nothing to redo")


def test_an_illegal_action_names_the_line_the_move_and_the_rule():
    _, actions, text = log_text(16, n=10)
    end = json.dumps({"action": EndTurn().to_json()})
    message = expect(with_line(text, 2, end), "line 2: End — ")
    assert len(message) > len("line 2: End — ")  # the engine's own explanation follows
    # a move replayed out of place: the same reveal twice
    message = expect(with_line(text, 3, json.dumps({"action": actions[0].to_json()})), "line 3: Reveal ")


def test_the_rulebook_example_stealing_from_a_trade_ban():
    # Seed 8: after 9 actions Ben (blue) has banned trade with 4 Secures and the active player must Steal.
    setup, actions = game(8)
    text = write_log("obscurians", setup.to_json(), [("action", a.to_json()) for a in actions[:9]])
    steal = json.dumps({"action": {"type": "steal", "victim": "blue", "good": "blue"}})
    expect(text + steal + "\n", "line 11: Steal blue blue — Ben's goods are secured until their next turn")


def test_blank_lines_are_skipped_but_counted():
    _, _, text = log_text(17, n=4)
    lines = text.splitlines()
    spaced = "\n".join([lines[0], "", *lines[1:], "", "not json"]) + "\n"
    expect(spaced, f"line {len(lines) + 3}: not valid JSON")
