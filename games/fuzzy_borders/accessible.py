"""Fuzzy Borders for a screen reader: the board as sentences and as a table.

Each player's claims by cell, then the cells each leads (with their worth), the empty
cells, the last turn's claims, the reader's own sealed claim (the GM sees every one,
another player none) and the cells the reader may claim when they are few.
"""

from __future__ import annotations

from string import ascii_uppercase

from games.text import Plural, Text

from .board import grid
from .state import FBState

FEW = 12  # cells listed up to this many where a count would do


def describe(state: FBState, viewer: str | None) -> list[Text]:
    """The position in sentences, as ``viewer`` may see it (None: the GM)."""
    board, hexes = state.board(), grid(state.side)
    rows = 2 * state.side - 1
    lines: list[Text] = [Text(
        "Fuzzy Borders, turn {turn}: a hexagonal board of side {side}, rows 1 to {rows} from "
        "the top, diagonals A to {last}; a cell is named by its diagonal and row, like {centre}.",
        turn=state.turn, side=state.side, rows=rows, last=ascii_uppercase[rows - 1],
        centre=hexes.name((0, 0)))]
    for player in state.players:
        lines += holdings(state, player)
    empty = [hexes.name(cell) for cell in board.empty_cells()]
    if len(empty) <= FEW:
        lines.append(Plural("{n} empty cell: {cells}.", "{n} empty cells: {cells}.",
                            n=len(empty), cells=", ".join(empty)))
    else:
        lines.append(Plural("{n} empty cell.", "{n} empty cells.", n=len(empty)))
    return lines + last_turn(state) + sealed(state, viewer) + claimable(state, viewer)


def holdings(state: FBState, player: str) -> list[Text]:
    """One player's claims (oldest first) and the cells they lead, each with its worth."""
    board, hexes = state.board(), grid(state.side)
    claims = [name for _, name in state.claims.get(player, ())]
    lines: list[Text] = []
    if claims:
        lines.append(Plural("{player} has claimed {n} cell: {cells}.",
                            "{player} has claimed {n} cells: {cells}.",
                            n=len(claims), player=player, cells=", ".join(claims)))
    else:
        lines.append(Text("{player} has claimed no cell yet.", player=player))
    led = [f"{hexes.name(cell)} {cs.value}" for cell, cs in board.cells.items() if cs.leader == player]
    if led:
        lines.append(Plural("{player} leads {n} cell, worth: {cells}.",
                            "{player} leads {n} cells, each with its worth: {cells}.",
                            n=len(led), player=player, cells=", ".join(led)))
    return lines


def last_turn(state: FBState) -> list[Text]:
    """What changed: each player's claim in the last turn closed, and where it went."""
    last = state.last
    if last is None:
        return []
    if last["outcome"] == "reopened":
        lines = [Text("Turn {turn} clashed and was re-opened; the claims were:", turn=last["turn"])]
    else:
        lines = [Text("Claims of turn {turn}:", turn=last["turn"])]
    for player in state.players:
        ordered, placed = last["orders"][player], last["placed"][player]
        if ordered is None:
            lines.append(Text("{player} sent no claim.", player=player))
        elif last["outcome"] == "reopened":
            lines.append(Text("{player} claimed {cell}, a clash.", player=player, cell=ordered))
        elif placed is None:
            lines.append(Text("{player} claimed {cell}, not placed.", player=player, cell=ordered))
        elif placed != ordered:
            lines.append(Text("{player} claimed {cell}, placed on {placed}.", player=player,
                              cell=ordered, placed=placed))
        else:
            lines.append(Text("{player} claimed {cell}, placed.", player=player, cell=ordered))
    return lines


def sealed(state: FBState, viewer: str | None) -> list[Text]:
    """The sealed claims ``viewer`` may see: their own; every one for the GM."""
    if viewer is None:
        return [Text("Sealed claim of {player} (GM only): {cell}.", player=player, cell=cell)
                for player, cell in state.sealed.items()]
    if viewer in state.sealed:
        return [Text("Your sealed claim for turn {turn}: {cell} (you may replace it).",
                     turn=state.turn, cell=state.sealed[viewer])]
    return []


def claimable(state: FBState, viewer: str | None) -> list[Text]:
    """The cells ``viewer`` may claim now, listed when few."""
    if state.over or viewer not in state.players or viewer in state.left:
        return []
    hexes = grid(state.side)
    cells = [hexes.name(cell) for cell in state.board().claimable_by(viewer)]
    if len(cells) <= FEW:
        return [Plural("You may claim {n} cell: {cells}.", "You may claim {n} cells: {cells}.",
                       n=len(cells), cells=", ".join(cells))]
    return [Plural("You may claim {n} cell.", "You may claim {n} cells.", n=len(cells))]


def cell_words(state: FBState, cell: tuple[int, int]) -> str:
    """What stands on a cell, in words ("" when empty)."""
    cs = state.board()[cell]
    if cs.claimer is not None:
        return Text("claimed by {player}", player=cs.claimer)
    if cs.owned:
        return Text("owned by {player}", player=cs.leader)
    if cs.leader is not None:
        return Text("led by {player}, worth {value}", player=cs.leader, value=cs.value)
    return ""


def board_table(state: FBState) -> tuple[list[str], list[list[str]]]:
    """Header ("Row", the diagonals A..) and one row per board row from the top; a cell the
    board does not have on that diagonal is "-"."""
    hexes = grid(state.side)
    rows = 2 * state.side - 1
    header: list[str] = [Text("Row"), *ascii_uppercase[:rows]]
    table = []
    for row in range(1, rows + 1):
        on_row = {hexes.name(cell)[0]: cell for cell in hexes.row_cells(row)}
        table.append([str(row), *(cell_words(state, on_row[letter]) if letter in on_row else "-"
                                  for letter in ascii_uppercase[:rows])])
    return header, table
