"""A state's sentences survive the store: a state dumped to JSON and loaded back (as every
mail does) gives a report whose German and French are those of the fresh state: the last
step's lines and the end's reason come back as Texts, not as English strings."""

from __future__ import annotations

import json
import random

import pytest

from games.registry import get
from gm.core.i18n import translate

GAMES = {"phalanx": {"side": "4"}, "proximity": {}, "neighbors": {}}


def said(value) -> list:
    """Every sentence and string of a report's parts (the view's nested too), in order."""
    if isinstance(value, dict):
        return [item for key in sorted(value) for item in said(value[key])]
    if isinstance(value, (list, tuple)):
        return [item for part in value for item in said(part)]
    return [value] if isinstance(value, str) else []


def report_parts(game, state) -> list:
    viewer = game.players(state)[0]
    return said([game.render_board(state, viewer), game.describe(state, viewer),
                 game.view(state, viewer)])


def assert_same_after_the_store(game, state) -> None:
    loaded = game.load(json.loads(json.dumps(game.dump(state))))
    fresh, stored = report_parts(game, state), report_parts(game, loaded)
    assert [str(x) for x in stored] == [str(x) for x in fresh]  # English as it was
    for language in ("de", "fr"):
        assert [translate(x, language) for x in stored] == [translate(x, language) for x in fresh]


def states(kind: str, seed: int):
    """The states of a seeded random game, step by step."""
    game = get(kind)
    rng = random.Random(seed)
    state = game.setup(["ada", "bob"], GAMES[kind], seed)
    now = 1000.0
    yield game, state
    for _ in range(60):
        if game.is_over(state):
            return
        player = game.to_move(state)[0]
        order = game.random_order(state, player, rng)
        now += 60
        state = game.submit(state, player, game.parse_order(state, player, order), now).state
        yield game, state


@pytest.mark.parametrize("kind", sorted(GAMES))
@pytest.mark.parametrize("seed", range(4))
def test_every_step_of_a_random_game(kind, seed):
    for game, state in states(kind, seed):
        assert_same_after_the_store(game, state)


@pytest.mark.parametrize("kind", sorted(GAMES))
@pytest.mark.parametrize("steps", [0, 3, 9])
def test_a_game_left_or_drawn(kind, steps):
    game, state = list(states(kind, 1))[:steps + 1][-1]
    if game.is_over(state):
        pytest.skip("over before then")
    player = game.players(state)[0]
    assert_same_after_the_store(game, game.leave(state, player, 5000.0).state)
    assert_same_after_the_store(game, game.mark_drawn(state))


def test_proximity_time_bank_lines_and_a_loss_on_time():
    game = get("proximity")
    state = game.setup(["ada", "bob"], {"time_bank": "2h"}, 3)
    rng, now = random.Random(3), 1000.0
    for _ in range(4):
        player = game.to_move(state)[0]
        now += 60
        order = game.parse_order(state, player, game.random_order(state, player, rng))
        state = game.submit(state, player, order, now).state
        assert any("time bank" in line for line in state.last)
        assert_same_after_the_store(game, state)
    state = game.close_turn(state, now + 3 * 3600).state
    assert game.is_over(state)
    assert_same_after_the_store(game, state)


@pytest.mark.parametrize("kind", ["phalanx", "proximity"])
def test_the_lines_kept_are_said_in_german_after_the_store(kind):
    """Not only the same as before: each line of the last step is German, not English."""
    for seed in range(8):
        for game, state in states(kind, seed):
            loaded = game.load(json.loads(json.dumps(game.dump(state))))
            for line in loaded.last:
                assert translate(line, "de") != str(line), line
