"""Timers by due time: a tick reads only the games that have something due (on both back ends)."""

from __future__ import annotations

import pytest

from gm.service.play import lifecycle, timers
from gm.service.table import games
from gm.service.engine import Engine
from gm.store import Store
from support import order_mail

ON_BOTH_BACKENDS = True  # every test that uses the config: on SQLite and on PostgreSQL

H = 3600.0
PLAYERS = [("ada", "ada@example.org"), ("bob", "bob@example.org")]


@pytest.fixture
def loads(monkeypatch):
    """The ids of the games the service loads, in order."""
    seen: list[str] = []
    real = games.load

    def load(store, game_id):
        seen.append(game_id)
        return real(store, game_id)

    monkeypatch.setattr(games, "load", load)
    return seen


@pytest.fixture
def many(engine):
    """Twenty games without deadlines and one with a 24 h deadline."""
    for n in range(20):
        engine.create_game("neighbors", f"quiet{n}", PLAYERS, seed=n)
    engine.create_game("neighbors", "due1", PLAYERS, seed=99, options={"deadline": "24h", "reminder": "0"})
    return engine


def test_a_tick_with_nothing_due_loads_no_game(many, loads, clock):
    clock.advance(H)
    assert many.tick() == []
    assert loads == []


def test_a_tick_touches_only_the_game_that_is_due(many, loads, clock):
    clock.advance(25 * H)
    done = many.tick()
    assert set(loads) == {"due1"} and done and all(line.startswith("due1:") for line in done)
    loads.clear()
    assert many.tick() == [] and loads == []  # the late notice went out once; grace is 24 h away
    clock.advance(24 * H)
    many.tick()
    assert set(loads) == {"due1"}


def test_the_timer_follows_every_change_of_what_is_ahead(engine, clock):
    engine.create_game("neighbors", "nb1", PLAYERS, seed=1, options={"deadline": "48h", "reminder": "24h"})
    start = clock()
    assert engine.store.timers.timer_of("nb1") == start + 24 * H  # the reminder comes first
    clock.advance(25 * H)
    engine.tick()
    assert engine.store.timers.timer_of("nb1") == start + 48 * H  # then the deadline
    lifecycle.pause(engine, "nb1")
    assert engine.store.timers.timer_of("nb1") is None  # a paused game needs no clock
    clock.advance(10 * H)
    lifecycle.resume(engine, "nb1")
    assert engine.store.timers.timer_of("nb1") == start + 58 * H  # the pause does not count
    view = engine.load("nb1")
    (mover,) = view.rules.to_move(view.state)
    engine.gm_order("nb1", mover, view.rules.legal_orders(view.state, mover)[0])
    assert engine.store.timers.timer_of("nb1") == clock() + 24 * H  # a new turn: its reminder
    lifecycle.end(engine, "nb1", "test over")
    assert engine.store.timers.timer_of("nb1") is None


def test_a_rules_timer_is_scheduled_when_a_bid_starts_it(engine, clock):
    secrets = engine.create_game("pivot-pawns", "pp1", PLAYERS, seed=5)
    assert engine.store.timers.timer_of("pp1") is None  # no deadline, no bid yet: nothing ahead
    engine.ingest(order_mail("ada@example.org", "BID 3: red/blue green/red red/black", game_id="pp1",
                             password=secrets["ada"]))
    assert engine.store.timers.timer_of("pp1") == clock() + 24 * H  # PP4's bid timer
    clock.advance(24 * H + 1)
    engine.tick()
    assert engine.load("pp1").turn == 2


def test_timers_survive_a_restart(engine, config, clock):
    engine.create_game("neighbors", "nb1", PLAYERS, seed=1, options={"deadline": "24h", "reminder": "0"})
    engine.store.close()
    clock.advance(25 * H)
    again = Engine(Store(config.database), config, clock=clock)  # a daemon started later
    assert timers.tick(again) and again.store.timers.deadline_row("nb1")["late"] == 1
    again.store.close()
