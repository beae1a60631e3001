"""The Pivot Pawns tableau for a screen reader: read back from its English lines, it is the
position (every pawn by card, every card's icons where it lies); a sealed solution is heard
by its sender and the GM only; the table has a header and a row per tableau row."""

from __future__ import annotations

import random

import pytest

from games.pivot_pawns import GAME, deck
from games.pivot_pawns.state import coordinate
from games.text import Text

PLAYERS = ["ada", "bob", "cy"]
ICON = {name: icon for icon, name in enumerate(deck.ICON_NAMES)}


def random_game(seed: int, rounds: int, bids: int):
    """``rounds`` closed rounds of random orders, then ``bids`` random orders of the next."""
    rng = random.Random(seed)
    state = GAME.setup(PLAYERS, {"timer": "1h"}, seed)
    now = 1000.0
    for number in range(rounds + 1):
        for player in GAME.players(state)[: bids if number == rounds else None]:
            text = GAME.random_order(state, player, rng)
            if text:
                now += 60
                state = GAME.submit(state, player, GAME.parse_order(state, player, text), now).state
        if number == rounds or GAME.is_over(state):
            break
        state = GAME.close_turn(state, now).state
    return state


def icon_of(words: str) -> int:
    """"leaf (green)" -> the icon, its colour checked."""
    name, _, colour = words.rpartition(" (")
    icon = ICON[name]
    assert deck.COLOURS[deck.ICON_COLOUR[icon]] == colour.rstrip(")")
    return icon


def read_back(lines: list[str]) -> tuple[dict[str, str], dict[str, tuple[int, set[int]]]]:
    """pawn colour -> card coordinate, and coordinate -> (centre icon, other icons)."""
    pawns, cards = {}, {}
    for line in lines:
        first, _, rest = line.partition(" pawn on ")
        if rest and first.lower() in deck.COLOURS:
            pawns[first.lower()] = rest.rstrip(".")
            continue
        where, _, icons = line.partition(": ")
        if len(where) == 2 and where[0] in "ABCDE" and " in the centre; " in icons:
            centre, _, others = icons.rstrip(".").partition(" in the centre; ")
            cards[where] = (icon_of(centre), {icon_of(words.rstrip(")") + ")") for words in others.split("), ")})
    return pawns, cards


@pytest.mark.parametrize("seed", range(20))
def test_the_description_holds_every_pawn_and_card_with_its_icons(seed):
    state = random_game(seed, rounds=seed % 8, bids=seed % 4)
    for viewer in (None, *PLAYERS):
        lines = GAME.describe(state, viewer)
        assert all(isinstance(line, Text) for line in lines)
        pawns, cards = read_back(lines)
        where = {card: coordinate(position) for position, card in enumerate(state.tableau)}
        assert pawns == {deck.COLOURS[colour]: where[card] for colour, card in enumerate(state.pawns)}
        assert cards == {where[card]: (deck.CENTRE[card], set(deck.other_icons(card)))
                         for card in state.tableau}


@pytest.mark.parametrize("seed", range(20))
def test_a_sealed_solution_is_heard_only_by_its_sender_and_the_gm(seed):
    state = random_game(seed, rounds=seed % 5, bids=3)
    for player, bid in state.bids.items():
        mine = f"{player} bids {bid.pivots}: "
        sealed = f"{player} bids {bid.pivots}, solution sealed."
        for viewer in (None, *PLAYERS):
            lines = GAME.describe(state, viewer)
            sees = viewer in (None, player)
            assert any(line.startswith(mine) for line in lines) == sees
            assert (sealed in lines) == (not sees)


@pytest.mark.parametrize("seed", range(0, 20, 4))
def test_the_table_has_a_header_and_a_row_per_tableau_row(seed):
    state = random_game(seed, rounds=seed % 6, bids=1)
    header, rows = GAME.board_table(state, "ada")
    assert header[1:] == list("ABCDE") and len(rows) == deck.ROWS
    for number, row in enumerate(rows, start=1):
        assert row[0] == str(number) and len(row) == len(header)
        for column, words in enumerate(row[1:]):
            card = state.tableau[(number - 1) * deck.COLUMNS + column]
            assert f"{deck.ICON_NAMES[deck.CENTRE[card]]} (" in words
            assert (card in state.pawns) == (" pawn; " in words)
