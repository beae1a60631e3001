"""Reads remembered within one write transaction (gm.store.reads), on each back end.

A remembered read must never hide what the transaction wrote, nor outlive it."""

from __future__ import annotations

import pytest

from gm.store import Store

T = 1_700_000_000.0


@pytest.fixture
def store(store):
    """The empty store of tests/store/conftest.py, with this module's rows."""
    with store.write():
        store.add_game("g1", "neighbors", 7, "{}", T)
        store.add_player("g1", 0, "Ada", "Ada@Example.org", "hash-a")
        store.add_player("g1", 1, "bob", "bob@example.org", "hash-b")
        store.add_state("g1", 1, {"n": 0}, T)
    return store


def test_a_write_in_the_transaction_is_read_back(store):
    with store.write():
        assert store.game("g1")["status"] == "active"
        store.set_game_status("g1", "paused", T + 1)  # through update()
        assert store.game("g1")["status"] == "paused"
        store.db.execute("UPDATE games SET seed = :seed WHERE id = :id", {"seed": 9, "id": "g1"})  # straight SQL too
        assert store.game("g1")["seed"] == 9
        assert store.latest_state("g1")["seq"] == 0
        assert store.add_state("g1", 2, {"n": 1}, T + 2) == 1
        assert store.latest_state("g1")["seq"] == 1
        assert [p["name"] for p in store.players_at("g1", "ada@example.ORG")] == ["Ada"]
        store.deactivate_player("g1", "Ada")
        assert [p["active"] for p in store.players_at("g1", "ada@example.org")] == [0]


def test_nothing_is_remembered_outside_or_across_transactions(store):
    with store.write():
        assert store.game("g1")["seed"] == 7
    other = Store(store.path)  # another writer, between this store's transactions
    with other.write():
        other.db.execute("UPDATE games SET seed = :seed WHERE id = :id", {"seed": 8, "id": "g1"})
    other.close()
    assert store.game("g1")["seed"] == 8
    with store.write():
        assert store.game("g1")["seed"] == 8
    with store.write():
        store.game("g1")
        assert store.reads  # remembered inside
    assert store.reads is None


def test_a_copy_each_time(store):
    with store.write():
        store.players("g1").clear()
        assert len(store.players("g1")) == 2
        store.settings_of("g1")["deadline"] = "1d"
        assert "deadline" not in store.settings_of("g1")


def test_timers_and_deadlines_as_written(store):
    row = {"game_id": "g1", "start_seq": 0, "turn": 1, "due": T + 60, "reminded": 0, "late": 0,
           "grace_done": 0, "paused_at": None, "set_by": "option"}
    with store.write():
        assert store.timer_of("g1") is None
        store.set_timer("g1", None)  # already none: nothing to write
        store.set_timer("g1", T + 60)
        assert store.timer_of("g1") == T + 60
        store.replace_deadline(row)
        assert store.deadline_row("g1")["due"] == T + 60
        store.replace_deadline({**row, "due": T + 120})
        assert store.deadline_row("g1")["due"] == T + 120
        with pytest.raises(ValueError):
            store.replace_deadline({"game_id": "g1", "start_seq": 0, "turn": 1})
    assert store.timer_of("g1") == T + 60
    assert store.deadline_row("g1")["due"] == T + 120
    with store.write():
        store.set_timer("g1", None)
    assert store.timer_of("g1") is None
