"""Neighbors for a screen reader: the board as sentences and as a table.

Every piece belongs to everyone, so the pieces are grouped by kind; then what each player
has captured, the last move, the neighbors rule's restriction and the captures the player
to move may make when they are few.  Pure functions of a state; nothing is hidden.
"""

from __future__ import annotations

from games.text import Plural, Text, mark

from .captures import legal_pairs
from .state import FILES, PIECE_NAMES, ROWS, NeighborsState, square_name

FEW = 12  # legal captures listed up to this many

# A piece in a table cell, in words.
PIECE_WORDS = {"Q": mark("queen"), "R": mark("rook"), "B": mark("bishop"), "N": mark("knight"),
               "F": mark("ferz")}
# The last move, by the kind of piece it took.
TAKING = {
    "Q": mark("Last move: {player} played {move}, taking a queen."),
    "R": mark("Last move: {player} played {move}, taking a rook."),
    "B": mark("Last move: {player} played {move}, taking a bishop."),
    "N": mark("Last move: {player} played {move}, taking a knight."),
    "F": mark("Last move: {player} played {move}, taking a ferz."),
}


def kind_line(kind: str, cells: list[str]) -> Text:
    """The squares of every piece of one kind: "3 queens: a1, c4, g6."."""
    n, joined = len(cells), ", ".join(cells)
    if kind == "Q":
        return Plural("{n} queen: {cells}.", "{n} queens: {cells}.", n=n, cells=joined)
    if kind == "R":
        return Plural("{n} rook: {cells}.", "{n} rooks: {cells}.", n=n, cells=joined)
    if kind == "B":
        return Plural("{n} bishop: {cells}.", "{n} bishops: {cells}.", n=n, cells=joined)
    if kind == "N":
        return Plural("{n} knight: {cells}.", "{n} knights: {cells}.", n=n, cells=joined)
    return Plural("{n} ferz: {cells}.", "{n} ferzes: {cells}.", n=n, cells=joined)


def squares_of(state: NeighborsState) -> dict[str, list[str]]:
    """Each piece kind (and "." for empty) -> its squares, row 1 first, a to g."""
    found: dict[str, list[str]] = {}
    for row in range(ROWS):
        for file in range(7):
            found.setdefault(state.at((file, row)), []).append(square_name((file, row)))
    return found


def describe(state: NeighborsState, over: bool) -> list[Text]:
    """The position in sentences; ``over``: the game has ended (no captures are listed)."""
    where = squares_of(state)
    pieces = sum(len(cells) for kind, cells in where.items() if kind != ".")
    lines: list[Text] = [Plural(
        "Neighbors, move {turn}: {n} piece on the board of files a to g and rows 1 to 6; "
        "every piece belongs to everyone.",
        "Neighbors, move {turn}: {n} pieces on the board of files a to g and rows 1 to 6; "
        "every piece belongs to everyone.", n=pieces, turn=state.turn)]
    lines += [kind_line(kind, where[kind]) for kind in PIECE_NAMES if kind in where]
    if "." in where:
        lines.append(Plural("{n} empty square: {cells}.", "{n} empty squares: {cells}.",
                            n=len(where["."]), cells=", ".join(where["."])))
    for player in state.players:
        taken = state.captured.get(player, "")
        lines.append(Text("{player} has captured: queens {Q}, rooks {R}, bishops {B}, "
                          "knights {N}, ferzes {F}.", player=player,
                          **{kind: taken.count(kind) for kind in PIECE_NAMES}))
    return lines + changes(state, over)


def changes(state: NeighborsState, over: bool) -> list[Text]:
    """What changed (the last move), the neighbors rule's restriction, and who may capture what."""
    lines: list[Text] = []
    if state.moves:
        last = state.moves[-1]
        lines.append(Text(TAKING[last.taken], player=last.player, move=last.notation()))
    if over:
        return lines + [Text("The game is over.")]
    if state.neighbors_rule and state.moves:
        target = state.moves[-1].target
        lines.append(Text("Neighbors rule: the next capture must start on file {file} or row {row}.",
                          file=FILES[target[0]], row=target[1] + 1))
    legal = [f"{square_name(a)}x{square_name(b)}" for a, b in legal_pairs(state)]
    player = state.player_to_move
    if len(legal) <= FEW:
        lines.append(Plural("{player} is to move and has {n} legal capture: {moves}.",
                            "{player} is to move and has {n} legal captures: {moves}.",
                            n=len(legal), player=player, moves=", ".join(legal)))
    else:
        lines.append(Plural("{player} is to move and has {n} legal capture.",
                            "{player} is to move and has {n} legal captures.",
                            n=len(legal), player=player))
    return lines


def board_table(state: NeighborsState) -> tuple[list[str], list[list[str]]]:
    """Header ("Row", a..g) and one row per board row, row 6 first, each piece in words."""
    header: list[str] = [Text("Row"), *FILES]
    rows = []
    for row in reversed(range(ROWS)):
        cells = [state.at((file, row)) for file in range(7)]
        rows.append([str(row + 1), *(Text(PIECE_WORDS[c]) if c != "." else "" for c in cells)])
    return header, rows
