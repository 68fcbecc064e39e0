"""Table: the engine and the log kept in step, across reopen, undo/redo and refusals."""
import pytest

from companion.games.errors import IllegalAction, InvalidInput
from companion.games.obscurians.actions import EndTurn
from companion.session import StoreError, Table, TableStore
from session_helpers import game, replay


@pytest.fixture
def store(tmp_path):
    with TableStore(tmp_path) as s:
        yield s


def play(table, actions):
    for action in actions:
        table.apply(action)


def test_actions_survive_a_reopen(tmp_path):
    setup, actions = game(1)
    with TableStore(tmp_path) as store:
        table = Table.create(store, "obscurians", setup, title="Friday")
        play(table, actions[:25])
        assert table.log_length == 25
    with TableStore(tmp_path) as store:
        again = Table.open(store, table.id)
        assert again.actions == tuple(actions[:25])
        assert again.state.to_json() == replay(setup, actions[:25]).to_json()
        assert (again.title, again.setup, again.game) == ("Friday", setup, "obscurians")


def test_undo_redo_are_log_entries_that_survive_reopen(tmp_path):
    setup, actions = game(2)
    with TableStore(tmp_path) as store:
        table = Table.create(store, "obscurians", setup)
        play(table, actions[:6])
        table.undo()
        table.undo()
        tid = table.id
    with TableStore(tmp_path) as store:
        table = Table.open(store, tid)
        assert table.actions == tuple(actions[:4]) and table.can_undo and table.can_redo
        assert table.next_redo == actions[4]  # Redo can name the move it plays, after a restart too
        assert table.state.to_json() == replay(setup, actions[:4]).to_json()
        table.redo()
    with TableStore(tmp_path) as store:
        table = Table.open(store, tid)
        assert table.actions == tuple(actions[:5]) and table.can_redo
        assert [e.kind for e in store.events(tid)] == ["action"] * 6 + ["undo", "undo", "redo"]
        table.apply(actions[5])  # a new action after undo clears the redo stack ...
        assert not table.can_redo and table.next_redo is None
    with TableStore(tmp_path) as store:
        table = Table.open(store, tid)  # ... and it stays cleared after a restart
        assert not table.can_redo and table.actions == tuple(actions[:6])
        with pytest.raises(IllegalAction, match="Nothing to redo"):
            table.redo()
        assert table.log_length == 10


def test_undo_everything_then_nothing_to_undo(store):
    setup, actions = game(3)
    table = Table.create(store, "obscurians", setup)
    with pytest.raises(IllegalAction, match="Nothing to undo"):
        table.undo()
    play(table, actions[:3])
    for _ in range(3):
        table.undo()
    assert table.state.to_json() == replay(setup, []).to_json()
    assert not table.can_undo and table.can_redo
    assert store.events(table.id)[-1].kind == "undo" and table.log_length == 6


def test_illegal_action_propagates_and_writes_nothing(store):
    setup, actions = game(4)
    table = Table.create(store, "obscurians", setup)
    play(table, actions[:2])
    before = (store.events(table.id), store.get(table.id).updated, table.state.to_json())
    seen = []
    table.subscribe(lambda t, kind: seen.append(kind))
    illegal = actions[0]  # the round's event card was already revealed
    with pytest.raises(IllegalAction):
        table.apply(illegal)
    assert (store.events(table.id), store.get(table.id).updated, table.state.to_json()) == before
    assert seen == [] and table.log_length == 2


def test_listeners_run_after_the_commit(store):
    setup, actions = game(5)
    table = Table.create(store, "obscurians", setup)
    seen = []

    def listener(t, kind):
        # The entry must already be on disk when the UI hears about it.
        seen.append((kind, len(store.events(t.id)), t.actions))

    unsubscribe = table.subscribe(listener)
    table.subscribe(lambda t, kind: 1 / 0)  # a broken view does not turn a committed action into an error
    table.apply(actions[0])
    table.undo()
    table.redo()
    unsubscribe()
    table.apply(actions[1])
    assert seen == [("action", 1, (actions[0],)), ("undo", 2, ()), ("redo", 3, (actions[0],))]


def test_finished_tables_go_to_history(tmp_path):
    setup, actions = game(6)
    with TableStore(tmp_path) as store:
        table = Table.create(store, "obscurians", setup)
        play(table, actions[:-1])
        assert [r.id for r in store.unfinished()] == [table.id] and not table.finished
        table.apply(actions[-1])
        assert table.finished and table.state.outcome() is not None
        assert store.unfinished() == [] and [r.id for r in store.finished()] == [table.id]
        table.undo()  # taking back the last move reopens the game
        assert [r.id for r in store.unfinished()] == [table.id]
        table.redo()
        assert store.unfinished() == []


def test_bad_setup_is_refused_before_anything_is_stored(store):
    setup, _ = game(7)
    bad = setup.to_json() | {"deck": "tarot"}
    with pytest.raises(InvalidInput, match="deck"):
        Table.create(store, "obscurians", bad)
    with pytest.raises(InvalidInput, match="unknown game 'chess'"):
        Table.create(store, "chess", setup)
    assert store.tables() == []


def test_two_windows_on_one_table_cannot_interleave(tmp_path):
    setup, actions = game(8)
    with TableStore(tmp_path) as a, TableStore(tmp_path) as b:
        first = Table.create(a, "obscurians", setup)
        second = Table.open(b, first.id)
        first.apply(actions[0])
        with pytest.raises(StoreError, match="changed elsewhere"):
            second.apply(actions[0])
        assert second.actions == () and len(a.events(first.id)) == 1


def test_a_tampered_stored_log_is_named_on_open(tmp_path):
    setup, actions = game(9)
    with TableStore(tmp_path) as store:
        table = Table.create(store, "obscurians", setup)
        store.append(table.id, 1, "action", EndTurn().to_json(), finished=False)  # bypassing the engine
        with pytest.raises(InvalidInput, match=f"table {table.id}, entry 1: End — "):
            Table.open(store, table.id)


def test_moves_pair_each_effective_move_with_the_states_around_it_after_undo_and_a_reopen(tmp_path):
    """The move logs on screen name a move from the state before and after it (Table.moves): undone moves are not
    among them, and a reopened table gives the same moves as the one played."""
    setup, actions = game(3)
    with TableStore(tmp_path) as store:
        table = Table.create(store, "obscurians", setup)
        play(table, actions[:7])
        table.undo()
        played = [(b.to_json(), a, c.to_json()) for b, a, c in table.moves]
        tid = table.id
    assert [a for _, a, _ in played] == list(actions[:6])
    assert played[0][0] == replay(setup, []).to_json()
    for n, (before, action, after) in enumerate(played):
        assert before == replay(setup, actions[:n]).to_json() and after == replay(setup, actions[:n + 1]).to_json()
    with TableStore(tmp_path) as store:
        again = Table.open(store, tid)
        assert [(b.to_json(), a, c.to_json()) for b, a, c in again.moves] == played
