"""Phalanx and Pivot Pawns say what players read as Texts, so a catalogue can translate it:
every event of random play, every refusal (kept whole in the exception's args), the board,
HELP; and in German each of them reads differently from the English."""

from __future__ import annotations

import random

import pytest

from games.base import OrderError
from games.registry import get
from games.text import Text
from gm.core.i18n import translate

BAD = ["XYZ", "GROW", "MOVE A1", "MOVE E5 E5 1", "PASS E5", "PLACE RED E5", "COLOUR BLUE",
       "BID", "BID 3", "BID 100: r/b", "BID 2: r/r", "BID 1: rb", "BID 1 PASS"]


def played(kind: str, seed: int):
    """The events and refusals of a seeded random game."""
    game = get(kind)
    rng = random.Random(seed)
    players = ["ada", "bob"] if kind == "phalanx" else ["ada", "bob", "cy"]
    state = game.setup(players, {"side": "4"} if kind == "phalanx" else {"timer": "1h"}, seed)
    events, refusals, now = [], [], 1000.0
    for _ in range(40):
        if game.is_over(state):
            break
        for player in game.to_move(state)[: 1 if kind == "phalanx" else None]:
            for text in BAD:
                try:
                    game.parse_order(state, player, text)
                except OrderError as exc:
                    refusals.append(exc.args[0])
            order = game.random_order(state, player, rng)
            if order:
                now += 60
                result = game.submit(state, player, game.parse_order(state, player, order), now)
                state, events = result.state, events + result.events
        if kind != "phalanx" and not game.is_over(state):
            result = game.close_turn(state, now)
            state, events = result.state, events + result.events
    return game, state, events, refusals


@pytest.mark.parametrize("kind", ["phalanx", "pivot-pawns"])
@pytest.mark.parametrize("seed", range(3))
def test_events_refusals_board_and_help_are_texts_said_in_german(kind, seed):
    game, state, events, refusals = played(kind, seed)
    said = [event.text for event in events] + refusals + [game.render_board(state), game.help_text()]
    assert events and refusals
    for text in said:
        assert isinstance(text, Text), text
        assert translate(text, "de") != str(text) or text.template.startswith("{"), text
