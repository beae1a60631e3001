"""The Phalanx board for a screen reader: read back from its English lines, it is the
position (every man and wall, owner and cell); the table has a header and a row per row."""

from __future__ import annotations

import random

import pytest

from games.phalanx import GAME
from games.text import Text


def random_position(seed: int, steps: int):
    """A game of ``steps`` random orders from a seeded generator, as random play makes them."""
    rng = random.Random(seed)
    state = GAME.setup(["ada", "bob"], {"side": str(3 + seed % 6)}, seed=seed)
    for _ in range(steps):
        if GAME.is_over(state):
            break
        player = GAME.to_move(state)[0]
        state = GAME.step(state, player, GAME.random_order(state, player, rng), 0.0).state
    return state


def read_back(lines: list[str]) -> tuple[dict[str, str], dict[str, str | None]]:
    """cell name -> red/yellow/wall, and colour -> its player, from the English lines."""
    cells: dict[str, str] = {}
    players: dict[str, str | None] = {}
    for line in lines:
        head, _, rest = line.partition(": ")
        if head in ("Red", "Yellow") or head.startswith(("Red, ", "Yellow, ")):
            colour, _, player = head.partition(", ")
            players[colour.lower()] = None if player == "not chosen yet" else player
            kind = colour.lower()
        elif head == "Walls":
            kind = "wall"
        else:
            continue
        if rest == "no men.":
            continue
        listed = rest.rstrip(".").split(", on ")[-1] if kind != "wall" else rest.rstrip(".").split(", ", 1)[1]
        for name in listed.split(", "):
            assert name not in cells, f"{name} said twice"
            cells[name] = kind
    return cells, players


@pytest.mark.parametrize("seed", range(24))
def test_the_description_holds_every_man_and_wall_by_owner_and_cell(seed):
    state = random_position(seed, steps=seed * 3)
    for viewer in (None, "ada", "bob"):
        lines = GAME.describe(state, viewer)
        assert all(isinstance(line, Text) for line in lines)
        cells, players = read_back(lines)
        assert cells == {state.grid.name(cell): kind for cell, kind in state.cells.items()}
        assert players == {"red": state.player_of("red"), "yellow": state.player_of("yellow")}
        empty = len(state.grid.cells) - len(state.cells)
        assert any(line.startswith(f"{empty} cell") and "empty" in line for line in lines)


@pytest.mark.parametrize("seed", range(0, 24, 5))
def test_the_table_has_a_header_and_a_row_per_board_row_with_every_piece(seed):
    state = random_position(seed, steps=seed * 3)
    header, rows = GAME.board_table(state)
    grid = state.grid
    assert len(rows) == 2 * grid.side - 1
    assert all(len(row) == len(header) for row in rows)
    kinds = {"red man": "red", "yellow man": "yellow", "wall": "wall"}
    found = {f"{header[column]}{row[0]}": kinds[word] for row in rows
             for column, word in enumerate(row) if column and word}
    assert found == {grid.name(cell): kind for cell, kind in state.cells.items()}


def test_the_player_to_move_hears_the_few_legal_moves_and_the_other_does_not():
    state = GAME.setup(["ada", "bob"], {"side": "5"}, seed=1)
    for text in ("PLACE RED E5 YELLOW C5 G5", "COLOUR YELLOW", "PLACE E4"):
        state = GAME.step(state, GAME.to_move(state)[0], text, 0.0).state
    mover = GAME.to_move(state)[0]
    other = next(p for p in GAME.players(state) if p != mover)
    assert not any(line.startswith("Your moves") for line in GAME.describe(state, other))
    assert any(line.startswith(("Your moves", "You have no move")) for line in GAME.describe(state, mover))
    assert "Last: ada (red) places E4" in GAME.describe(state, other)
