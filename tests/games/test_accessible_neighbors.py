"""Neighbors for a screen reader: describe() read back gives the position, every piece on its
square; board_table has a header and a row per board row; the legal captures when few."""

import random

import pytest

from games.neighbors import GAME
from games.neighbors.state import FILES, ROWS, parse_square
from games.text import Text

KINDS = {"queen": "Q", "rook": "R", "bishop": "B", "knight": "N", "ferz": "F"}
WORDS = {**KINDS, "queens": "Q", "rooks": "R", "bishops": "B", "knights": "N", "ferzes": "F",
         "empty square": ".", "empty squares": "."}


def random_positions(count=30):
    """Positions of seeded random games: after every few moves, and at the end."""
    for seed in range(count):
        rng = random.Random(seed)
        names = [f"p{i}" for i in range(rng.choice([2, 3, 4]))]
        state = GAME.setup(names, {"neighbors_rule": rng.choice(["true", "false"])}, seed=seed)
        yield state
        while not GAME.is_over(state):
            (mover,) = GAME.to_move(state)
            text = GAME.random_order(state, mover, rng)
            state = GAME.submit(state, mover, GAME.parse_order(state, mover, text), 0.0).state
            if rng.random() < 0.2 or GAME.is_over(state):
                yield state


def read_back(lines):
    """The board (42 letters, row 1 first) and the captured counts an English description gives."""
    board = [None] * 42
    captured = {}
    for line in lines:
        head, _, rest = line.partition(": ")
        count, _, what = head.partition(" ")
        if count.isdigit() and what in WORDS:
            kind = WORDS[what]
            cells = rest.rstrip(".").split(", ")
            assert len(cells) == int(count)
            for name in cells:
                file, row = parse_square(name[0], name[1])
                assert board[row * 7 + file] is None, f"{name} said twice"
                board[row * 7 + file] = kind
        elif head.endswith(" has captured"):
            counts = dict(part.split() for part in rest.rstrip(".").split(", "))
            captured[head.removesuffix(" has captured")] = counts
    return board, captured


@pytest.mark.parametrize("viewer", [None, "p0", "p1"])
def test_every_piece_of_every_position_is_read_back_from_the_description(viewer):
    for state in random_positions():
        lines = GAME.describe(state, viewer)
        assert all(isinstance(line, Text) for line in lines)
        board, captured = read_back(lines)
        assert board == list(state.board)
        for player in state.players:
            taken = state.captured[player]
            assert captured[player] == {"queens": str(taken.count("Q")), "rooks": str(taken.count("R")),
                                        "bishops": str(taken.count("B")), "knights": str(taken.count("N")),
                                        "ferzes": str(taken.count("F"))}
        if state.moves:
            assert any(line.startswith(f"Last move: {state.moves[-1].player} played "
                                       f"{state.moves[-1].notation()}") for line in lines)
        legal = GAME.legal_orders(state, GAME.to_move(state)[0]) if not GAME.is_over(state) else []
        if GAME.is_over(state):
            assert lines[-1] == "The game is over."
        elif len(legal) <= 12:
            assert lines[-1].endswith(": " + ", ".join(legal) + ".") or not legal


def test_the_table_has_a_header_and_a_row_per_board_row_with_every_piece():
    for state in list(random_positions(5)):
        header, rows = GAME.board_table(state)
        assert header == ["Row", *FILES]
        assert len(rows) == ROWS and [row[0] for row in rows] == ["6", "5", "4", "3", "2", "1"]
        for row in rows:
            assert len(row) == len(header)
            for file, cell in enumerate(row[1:]):
                piece = state.at((file, int(row[0]) - 1))
                assert cell == ("" if piece == "." else {v: k for k, v in KINDS.items()}[piece])
