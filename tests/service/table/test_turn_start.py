"""Where the turn now open started (gm.service.table.deadlines.turn_start), on both back ends: an
order whose state opens a turn is that turn's start, known in its transaction without reading the
states back (its INSERT still waits for the commit, gm.store.deferred); a state within the same turn
leaves the start to be read, and what was known is what a read finds after the commit."""

from __future__ import annotations

from gm.service.table import deadlines

ON_BOTH_BACKENDS = True

T = 1_700_000_000.0


def add(store, turn: int, at: float) -> tuple[int, tuple[int, float], bool]:
    """A state the rules made, stored as games.save_state stores it: (its seq, the turn's start then,
    whether its INSERT was still waiting after that: the start was known without a read)."""
    previous = store.latest_state("g1")
    seq = store.add_state("g1", turn, {"at": at}, at)
    deadlines.state_added(store, "g1", previous, seq, turn, at)
    start = deadlines.turn_start(store, "g1")
    return seq, start, bool(store.deferred)


def test_a_state_opening_a_turn_is_its_start_without_a_read_and_one_within_a_turn_is_read(engine):
    store = engine.store
    with store.write():
        store.add_game("g1", "neighbors", 7, "{}", T)
        first, start, waiting = add(store, 1, T)
    assert (start, waiting) == ((first, T), True)  # the game's first state opens its first turn
    with store.write():
        second, start, waiting = add(store, 2, T + 5)
    assert (start, waiting) == ((second, T + 5), True)  # a new turn: its start known, nothing read
    assert deadlines.read_turn_start(store, "g1") == (second, T + 5)  # and so it is stored
    with store.write():
        _, start, waiting = add(store, 2, T + 9)  # the same turn goes on
    assert (start, waiting) == ((second, T + 5), False)  # read back: the INSERT went first
    assert deadlines.read_turn_start(store, "g1") == (second, T + 5)
    with store.write():
        fourth, start, _ = add(store, 3, T + 12)
        assert store.latest_state("g1")["seq"] == fourth  # a read of the states finds it waiting no more
    assert start == (fourth, T + 12)
    assert deadlines.read_turn_start(store, "g1") == (fourth, T + 12)
