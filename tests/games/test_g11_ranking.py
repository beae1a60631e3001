"""RULINGS G11: a finished game's final standings as tiers, best first (Rules.ranking): the winners
tied (a shared win; after a draw everyone still in), then the others still in by score, then those
who left, a later leaver above an earlier one; winners the GM declared replace the rules'."""

from __future__ import annotations

import random

import pytest

from games import registry
from support import EXAMPLE_LAYOUT

T0 = 1_800_000_000.0
H = 3600.0
NB = registry.get("neighbors")


def started(names, options=None, seed=5, rules=NB):
    return rules.start(rules.setup(list(names), dict(options or {}), seed), T0)


def first_orders_to_the_end(rules, state):
    while not rules.is_over(state):
        (mover,) = rules.to_move(state)
        order = rules.parse_order(state, mover, rules.legal_orders(state, mover)[0])
        state = rules.submit(state, mover, order, T0 + 1).state
    return state


def test_g11_a_shared_win_ties_the_winners():
    state = first_orders_to_the_end(NB, started(["ada", "bob"], {"layout": EXAMPLE_LAYOUT}))
    assert NB.winners(state) == ["ada", "bob"]
    assert NB.ranking(state) == [["ada", "bob"]]


def test_g11_a_draw_ties_everyone_still_in_and_a_leaver_is_below():
    state = NB.leave(started(["ada", "bob", "cy"]), "bob", T0 + 1).state
    drawn = NB.end_drawn(state, T0 + 2).state
    assert NB.is_drawn(drawn)
    assert NB.ranking(drawn) == [["ada", "cy"], ["bob"]]


def test_g11_a_concession_ranks_the_one_left_first():
    state = NB.leave(started(["ada", "bob"]), "bob", T0 + 1).state
    assert NB.is_over(state)
    assert NB.ranking(state) == [["ada"], ["bob"]]


@pytest.mark.parametrize("kind", ["neighbors", "phalanx"])
def test_g11_a_loss_on_time_ranks_the_late_player_below(kind):
    rules = registry.get(kind)
    state = started(["ada", "bob"], {"clock": "1h+10m"}, seed=3, rules=rules)
    (first,) = rules.to_move(state)
    text = rules.random_order(state, first, random.Random(1))
    moved = rules.submit(state, first, rules.parse_order(state, first, text), T0 + 600).state
    lost = rules.close_turn(moved, T0 + 600 + H).state
    late = next(n for n in ("ada", "bob") if n != first)
    assert rules.is_over(lost)
    assert rules.ranking(lost) == [[first], [late]]


def test_g11_a_later_leaver_ranks_above_an_earlier_one():
    state = started(["ada", "bob", "cy", "dee"])
    state = NB.leave(state, "dee", T0 + 1).state
    state = NB.leave(state, "bob", T0 + 2).state
    state = NB.leave(state, "cy", T0 + 3).state
    assert NB.is_over(state)
    assert NB.ranking(state) == [["ada"], ["cy"], ["bob"], ["dee"]]


def test_g11_winners_the_gm_declared_come_first_and_the_rest_by_score():
    state = started(["ada", "bob", "cy", "dee"])
    state = NB.leave(state, "ada", T0 + 1).state
    tiers = NB.ranking(state, winners=["dee", "bob"])
    assert tiers[0] == ["bob", "dee"] and tiers[-1] == ["ada"]
    assert sorted(n for tier in tiers[1:-1] for n in tier) == ["cy"]
    assert NB.ranking(state, winners=["ada"])[0] == ["ada"]  # a leaver the GM names still wins


@pytest.mark.parametrize("kind", registry.available())
def test_g11_every_kind_ranks_every_player_once_the_rest_by_score(kind):
    rules = registry.get(kind)
    names = ["ada", "bob", "cy"][:max(rules.min_players, min(3, rules.max_players))]
    rng = random.Random(11)
    state = started(names, seed=11, rules=rules)
    for _ in range(3000):
        if rules.is_over(state):
            break
        for mover in rules.to_move(state):
            text = rules.random_order(state, mover, rng)
            if text is not None:
                state = rules.submit(state, mover, rules.parse_order(state, mover, text), T0 + 1).state
        if rules.simultaneous and not rules.is_over(state) and rules.ready(state, T0 + 1):
            state = rules.close_turn(state, T0 + 1).state
    tiers = rules.ranking(state)
    assert sorted(n for tier in tiers for n in tier) == sorted(rules.players(state))
    if rules.is_over(state):
        assert tiers[0] == rules.winners(state) or rules.is_drawn(state)
    scores = rules.scores(state)
    rest = [[scores.get(n, 0) for n in tier] for tier in tiers[1:] if tier[0] in rules.remaining(state)]
    assert all(len(set(tier)) == 1 for tier in rest) and [t[0] for t in rest] == sorted(
        (t[0] for t in rest), reverse=True)
