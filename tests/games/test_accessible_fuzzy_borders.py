"""Fuzzy Borders for a screen reader: describe() read back gives every claim, leader and worth;
a sealed claim is said to its sender and the GM only; board_table has a row per board row."""

import random

from string import ascii_uppercase

from games.fuzzy_borders.board import grid
from games.registry import get
from games.text import Text

G = GAME = get("fuzzy-borders")
T0 = 1_700_000_000.0


def random_positions(count=25):
    """Positions of seeded random games: with sealed claims in, and after each turn closed."""
    for seed in range(count):
        rng = random.Random(seed)
        players = ["ada", "bob", "cy", "dee"][:rng.choice([2, 3, 4])]
        state = G.setup(players, {"side": str(rng.choice([3, 4, 5, 6])),
                                  "radius": str(rng.choice([1, 2, 3]))}, seed)
        yield state
        while not G.is_over(state):
            for player in G.to_move(state):
                if rng.random() < 0.9:
                    state = G.submit(state, player, G.random_order(state, player, rng), T0).state
                    yield state
            state = G.close_turn(state, T0).state
            yield state


def read_back(lines):
    """{player: claims}, {cell: (leader, worth)} and the empty cells' count an English description gives."""
    claims, led, empty = {}, {}, None
    for line in lines:
        head, _, rest = line.partition(": ")
        cells = rest.rstrip(".").split(", ") if rest else []
        words = head.split()
        if " has claimed no cell yet." in line:
            claims[line.split()[0]] = []
        elif len(words) >= 4 and words[1:3] == ["has", "claimed"]:
            claims[words[0]] = cells
            assert len(cells) == int(words[3])
        elif len(words) >= 4 and words[1] == "leads":
            for item in cells:
                name, worth = item.split()
                led[name] = (words[0], int(worth))
            assert len(cells) == int(words[2])
        elif len(words) >= 3 and words[1:3] in (["empty", "cell"], ["empty", "cells"]) or \
                line.split()[1:3] in (["empty", "cell."], ["empty", "cells."]):
            empty = int(line.split()[0])
    return claims, led, empty


def test_every_claim_and_every_led_cell_is_read_back_from_the_description():
    for state in random_positions():
        for viewer in (None, *state.players):
            lines = G.describe(state, viewer)
            assert all(isinstance(line, Text) for line in lines)
            claims, led, empty = read_back(lines)
            assert claims == {p: [name for _, name in state.claims.get(p, [])] for p in state.players}
            board, hexes = state.board(), grid(state.side)
            assert led == {hexes.name(c): (s.leader, s.value) for c, s in board.cells.items()
                           if s.leader is not None}
            assert empty == len(board.empty_cells())
            assert sum(map(len, claims.values())) + len(led) + empty == len(hexes.cells)


def test_a_sealed_claim_is_said_to_its_sender_and_the_gm_and_no_one_else():
    seen = 0
    for state in random_positions(10):
        for player, cell in state.sealed.items():
            seen += 1
            assert f"Sealed claim of {player} (GM only): {cell}." in G.describe(state, None)
            mine = [line for line in G.describe(state, player) if "sealed" in line]
            assert mine == [f"Your sealed claim for turn {state.turn}: {cell} (you may replace it)."]
            for other in state.players:
                if other not in state.sealed:
                    assert not [line for line in G.describe(state, other) if "ealed" in line]
    assert seen > 50


def test_the_table_has_a_header_and_a_row_per_board_row():
    for state in list(random_positions(3))[::5]:
        header, rows = G.board_table(state)
        count = 2 * state.side - 1
        assert header == ["Row", *ascii_uppercase[:count]]
        assert [row[0] for row in rows] == [str(r) for r in range(1, count + 1)]
        hexes, board = grid(state.side), state.board()
        for row in rows:
            assert len(row) == len(header)
            names = {hexes.name(c)[0]: c for c in hexes.row_cells(int(row[0]))}
            for letter, text in zip(header[1:], row[1:]):
                if letter not in names:
                    assert text == "-"
                    continue
                cs = board[names[letter]]
                assert (cs.claimer or cs.leader or "") in text and (text == "") == cs.empty
