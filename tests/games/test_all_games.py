"""One random-play test for every game (after OpenSpiel's generic test).

Each registered game is played to the end through the public rule interface,
and once more through the service (gm order / gm process), checking what must
hold for any game: states survive JSON, boards fit 72 columns, the game ends,
winners have the best score, and a replay from seed and orders reproduces it.
"""

from __future__ import annotations

import json
import random

import pytest

from games import registry
from gm.present.reports import ReportInput, render_report
from gm.store.packing import unpack_mail
from support import play_game, players_for

KINDS = registry.available()
MAX_STEPS = 4000


def play_step(rules, state, rng, now):
    """Every player who owes an order sends a random one; close a simultaneous turn."""
    submitted = []
    for player in rules.to_move(state):
        text = rules.random_order(state, player, rng)
        if text is None:
            continue
        order = rules.parse_order(state, player, text)
        state = rules.submit(state, player, order, now).state
        submitted.append((player, text, now))
        if not rules.simultaneous:
            break
    closed = False
    if rules.simultaneous and not rules.is_over(state):
        state = rules.close_turn(state, now).state
        closed = True
    return state, submitted, closed


@pytest.mark.parametrize("kind", KINDS)
def test_random_play_to_the_end(kind):
    rules = registry.get(kind)
    for seed in range(6):
        rng = random.Random(seed)
        names = players_for(rules, rng)
        state = rules.setup(names, {}, seed)
        log = []
        now = 1_800_000_000.0
        for _ in range(MAX_STEPS):
            if rules.is_over(state):
                break
            turn = rules.turn(state)
            state, submitted, closed = play_step(rules, state, rng, now)
            log.append((submitted, closed, now))
            assert rules.turn(state) >= turn
            data = rules.dump(state)
            assert json.loads(json.dumps(data)) == data
            assert rules.dump(rules.load(data)) == data
            now += 60
        assert rules.is_over(state), f"{kind} seed {seed} did not end in {MAX_STEPS} steps"
        scores = rules.scores(state)
        assert set(scores) == set(names)
        winners = rules.winners(state)
        assert winners and all(scores[w] == max(scores.values()) for w in winners)
        for viewer in [None, *names]:
            board = rules.render_board(state, viewer)
            assert all(len(line) <= 72 for line in board.splitlines())
            report = render_report(ReportInput("g1", rules, state, viewer, []))
            assert all(len(line) <= 72 for line in report.splitlines())
        # G1: the same seed and the same orders give the same game.
        replay = rules.setup(names, {}, seed)
        for submitted, closed, at in log:
            for player, text, when in submitted:
                replay = rules.submit(replay, player, rules.parse_order(replay, player, text), when).state
            if closed:
                replay = rules.close_turn(replay, at).state
        assert rules.dump(replay) == rules.dump(state)


@pytest.mark.parametrize("kind", KINDS)
def test_a_game_through_the_service(kind, engine):
    names = play_game(engine, kind, "g1", seed=11, max_steps=MAX_STEPS)
    assert engine.store.game("g1")["status"] == "finished"
    import email
    import email.policy

    for row in engine.store.all("SELECT raw FROM outbox"):
        msg = email.message_from_bytes(unpack_mail(row["raw"]), policy=email.policy.default)
        text = msg.get_body(("plain",)).get_content()  # the text part (reports may have HTML too)
        assert all(len(line) <= 72 for line in text.splitlines()), msg["Subject"]
    finals = engine.store.all("SELECT * FROM outbox WHERE lower(subject) LIKE '%final report%'")
    assert sorted(r["recipient"] for r in finals) == sorted(f"{n}@example.org" for n in names)
