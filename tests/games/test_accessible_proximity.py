"""Proximity for a screen reader: describe() read back gives every tile and every piece (kind,
owner, square, age); board_table has a header and one row per board row, null tiles included."""

import random


from games.proximity import GAME
from games.proximity.moves import coin_target
from games.text import Text

SUITS = {"Sun": "suns", "Moon": "moons", "Crown": "crowns", "Arm": "arms"}


def random_positions(count=15):
    """Positions of seeded random games, after every move."""
    for seed in range(count):
        rng = random.Random(seed)
        state = GAME.setup(["ada", "bea"], {"coins": str(rng.choice([3, 6, 8]))}, seed=seed)
        yield state
        while not GAME.is_over(state) and state.moves < 150:
            (mover,) = GAME.to_move(state)
            text = GAME.random_order(state, mover, rng)
            state = GAME.submit(state, mover, GAME.parse_order(state, mover, text), 0.0).state
            yield state


def tile_of(words):
    suit, value = words.split()
    return SUITS[suit], {"A": 1, "null": 0}.get(value) or int(value)


def read_back(lines):
    """{square: (suit, value)} and {(player, kind, square): (age, next)} of an English description."""
    tiles, pieces = {}, {}
    for line in lines:
        head, _, rest = line.partition(": ")
        if head.startswith("Row "):
            for item in rest.rstrip(".").split(", "):
                square, words = item.split(" ", 1)
                tiles[square] = tile_of(words)
        elif rest.startswith(("pawn on ", "coin on ")):
            parts = rest.rstrip(".").split(", ")
            kind, _, square = parts[0].split()
            after = parts[2].removeprefix("next to ") if len(parts) > 2 else None
            pieces[(head, kind, square)] = (int(parts[1].removeprefix("age ")), after)
    return tiles, pieces


def test_every_tile_and_piece_is_read_back_from_the_description():
    for state in random_positions():
        lines = GAME.describe(state, "ada")
        assert all(isinstance(line, Text) for line in lines)
        tiles, pieces = read_back(lines)
        assert tiles == {sq: (t.suit, t.value) for sq, t in state.board.items()}
        expected = {}
        for side in state.sides:
            for piece in side.pieces:
                if piece.in_play:
                    after = coin_target(side, piece) if piece.kind == "coin" else None
                    expected[(side.name, piece.kind, piece.square)] = (piece.age, after)
        assert pieces == expected
        if GAME.is_over(state):
            assert lines[-1] == "The game is over."
        else:
            legal = GAME.legal_orders(state, GAME.to_move(state)[0])
            assert len(legal) > 12 or lines[-1].endswith(": " + ", ".join(legal) + ".")


def test_the_table_has_a_header_and_a_row_per_board_row():
    for state in list(random_positions(3))[::7]:
        header, rows = GAME.board_table(state)
        assert header == ["Row", "a", "b", "c"]
        assert [row[0] for row in rows] == ["4", "3", "2", "1", "0"]
        for row in rows:
            assert len(row) == 4
            for file, text in zip("abc", row[1:]):
                square = file + row[0]
                if row[0] in "04" and file != "b":
                    assert text == "-"
                    continue
                found = state.occupant(square)
                assert (found is None) == ("of " not in text)
                if found:
                    assert text.endswith(f" of {state.sides[found[0]].name}, age {found[1].age}")
