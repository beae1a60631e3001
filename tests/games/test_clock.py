"""games.clock: the correspondence clock every sequential game keeps (RULINGS G10)."""

from __future__ import annotations

import pytest

from games import registry
from games.base import StateError
from games.clock import (
    Clock,
    ClockSpec,
    bank_words,
    charge,
    credit_move,
    load_clock,
    dump_clock,
    take_back_increment,
)

H, DAY = 3600.0, 86400.0


def test_g10_bank_increment_maximum_and_the_takeback_seam():
    clock = Clock(ClockSpec(3 * DAY, DAY, 84 * H), {"ada": 3 * DAY, "bob": 3 * DAY}, started=0.0)
    charged, out = charge(clock, "ada", 10 * H)
    assert not out and charged.banks["ada"] == 3 * DAY - 10 * H
    moved = credit_move(charged, "ada", 10 * H)
    assert moved.banks["ada"] == 84 * H and moved.earned == 22 * H  # 62 h + 24 h, held to 84 h
    assert moved.started == 10 * H and moved.due("bob") == 10 * H + 3 * DAY
    undone = take_back_increment(moved, "ada")
    assert undone.banks["ada"] == 3 * DAY - 10 * H and undone.earned == 0.0
    _, out = charge(moved, "bob", 10 * H + 3 * DAY)
    assert out


def test_bank_words():
    assert bank_words(2 * DAY + 4 * H + 59) == "2 days 4 hours"
    assert bank_words(DAY) == "1 day"
    assert bank_words(5 * H + 600) == "5 hours 10 minutes"
    assert bank_words(180) == "3 minutes" and bank_words(10) == "less than a minute"
    assert bank_words(0) == "no time"


def test_a_clock_reads_back_and_a_bad_one_is_refused():
    clock = Clock(ClockSpec(DAY, H, None), {"ada": DAY, "bob": 2.0}, 5.0, 7.0, 1.0)
    assert load_clock(dump_clock(clock), ["ada", "bob"]) == clock
    with pytest.raises(StateError):
        load_clock({**dump_clock(clock), "banks": {"ada": 1.0}}, ["ada", "bob"])
    with pytest.raises(StateError):
        load_clock({**dump_clock(clock), "started": "soon"}, ["ada", "bob"])


@pytest.mark.parametrize("kind", ["neighbors", "phalanx", "proximity"])
def test_an_order_after_the_bank_ran_out_loses_and_replays(kind):
    rules = registry.get(kind)
    state = rules.start(rules.setup(["ada", "bob"], {"clock": "1h+10m"}, 3), 0.0)
    if kind == "proximity":
        state = rules.start_clock(state, 0.0)
    (first,) = rules.to_move(state)
    text = rules.random_order(state, first, __import__("random").Random(1))
    moved = rules.submit(state, first, rules.parse_order(state, first, text), 600.0)
    assert rules.clock_of(moved.state).banks[first] == H  # 50 min left + 10 min
    assert rules.timer(moved.state) == 600.0 + H
    lost = rules.close_turn(moved.state, 600.0 + H)
    assert rules.is_over(lost.state) and rules.winners(lost.state) == [first]
    assert rules.load(rules.dump(lost.state)) is not None


def test_four_player_neighbors_goes_on_without_the_player_who_lost_on_time():
    rules = registry.get("neighbors")
    state = rules.start(rules.setup(["a", "b", "c", "d"], {"clock": "1d"}, 5), 0.0)
    lost = rules.close_turn(state, DAY)
    assert rules.removed(lost.state) == ["a"] and rules.to_move(lost.state) == ["b"]
    assert rules.timer(lost.state) == 2 * DAY  # b's bank runs from the loss
    assert "loses on time" in lost.events[0].text
