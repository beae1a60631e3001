"""The Phalanx board for a screen reader: words instead of a drawing, and a table.

Everything in Phalanx is open, so every viewer hears the same position: the men of each
colour by cell (with the player who holds the colour), the walls, how many cells are
empty, what the last step did, and the moves of the player to move when they are few.
"""

from __future__ import annotations

from games.text import Plural, Text, mark

from .state import CHOOSE, PLAY, RED, WALL, YELLOW, PhalanxState
from .turn import TurnPlay

FEW_MOVES = 12  # more legal moves than this are not listed: the list would drown the board
CELL_WORDS = {RED: mark("red man"), YELLOW: mark("yellow man"), WALL: mark("wall")}


def cells_of(state: PhalanxState, kind: str) -> str:
    """The cells holding ``kind``, in board order (row by row, west to east), as notation."""
    grid = state.grid
    return ", ".join(grid.name(cell) for cell in grid.cells if state.cells.get(cell) == kind)


def owner_line(state: PhalanxState, colour: str) -> Text:
    """One colour's men: who plays it, how many, and where."""
    player = state.player_of(colour) or Text("not chosen yet")
    count = sum(1 for kind in state.cells.values() if kind == colour)
    cells = cells_of(state, colour)
    if colour == RED:
        if not count:
            return Text("Red, {player}: no men.", player=player)
        return Plural("Red, {player}: {n} man, on {cells}.", "Red, {player}: {n} men, on {cells}.",
                      n=count, player=player, cells=cells)
    if not count:
        return Text("Yellow, {player}: no men.", player=player)
    return Plural("Yellow, {player}: {n} man, on {cells}.", "Yellow, {player}: {n} men, on {cells}.",
                  n=count, player=player, cells=cells)


def position_lines(state: PhalanxState) -> list[Text]:
    """Every man and wall by cell, grouped by owner, and the empty cells counted."""
    lines = [owner_line(state, RED), owner_line(state, YELLOW)]
    walls = sum(1 for kind in state.cells.values() if kind == WALL)
    if walls:
        lines.append(Plural("Walls: {n} cell, {cells}.", "Walls: {n} cells, {cells}.",
                            n=walls, cells=cells_of(state, WALL)))
    else:
        lines.append(Text("No walls."))
    empty = len(state.grid.cells) - len(state.cells)
    lines.append(Plural("{n} cell of {total} is empty.", "{n} cells of {total} are empty.",
                        n=empty, total=len(state.grid.cells)))
    return lines


def change_lines(state: PhalanxState) -> list[Text]:
    """What the last step did (the lines the state keeps of it)."""
    return [Text("Last: {what}", what=line) for line in state.last]


def move_lines(state: PhalanxState, viewer: str | None, to_move: list[str]) -> list[Text]:
    """The orders open to ``viewer`` when it is their turn and they are few."""
    if viewer is None or viewer not in to_move:
        return []
    if state.phase == CHOOSE:
        return [Text("Your choice: {orders}.", orders="COLOUR RED, COLOUR YELLOW")]
    if state.phase != PLAY:  # a placement may go on any empty cell: too many to list
        return []
    moves = TurnPlay(state.cells, state.grid, state.to_play).legal_moves()
    if not moves:
        return [Text("You have no move: GROW, or PASS.")]
    if len(moves) > FEW_MOVES:
        return [Plural("You have {n} legal move.", "You have {n} legal moves.", n=len(moves))]
    return [Text("Your moves: {orders}.", orders=", ".join(str(move) for move in moves))]


def describe(state: PhalanxState, viewer: str | None, to_move: list[str]) -> list[Text]:
    """The whole board in lines of words: position, changes, the few legal moves."""
    return position_lines(state) + change_lines(state) + move_lines(state, viewer, to_move)


def board_table(state: PhalanxState) -> tuple[list[str], list[list[str]]]:
    """Rows of the board against the diagonals' letters; a cell says what stands on it, a cell
    off the board (a hexagon's rows are not all as long) or an empty one says nothing."""
    grid = state.grid
    letters = [grid.name((q, 0))[0] for q in range(-grid.radius, grid.radius + 1)]
    header: list[str] = [Text("Row"), *letters]
    rows = []
    for row in range(1, 2 * grid.side):
        words = {grid.name(cell)[0]: state.cells.get(cell) for cell in grid.row_cells(row)}
        rows.append([str(row)] + [Text(CELL_WORDS[kind]) if (kind := words.get(letter)) else ""
                                  for letter in letters])
    return header, rows
