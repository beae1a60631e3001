"""Which captures are legal (NB2, NB3, NB5), and the score (NB4).

Pure functions of a ``NeighborsState``.  The lines each piece type sees from
each square are worked out once, at import.
"""

from __future__ import annotations

from dataclasses import dataclass

from .state import PIECE_NAMES, PIECE_VALUES, ROWS, NeighborsState, Square, on_board, square_name

ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


@dataclass(frozen=True)
class Capture:
    """One move: the piece on ``source`` takes the piece on ``target``."""

    source: Square
    target: Square

    def __str__(self) -> str:
        return f"{square_name(self.source)}x{square_name(self.target)}"


def _lines(steps, slide: bool) -> dict[Square, tuple[tuple[Square, ...], ...]]:
    """For every square, the squares each step reaches: whole rays when the piece slides."""
    table = {}
    for source in ((f, r) for r in range(ROWS) for f in range(7)):
        lines = []
        for df, dr in steps:
            line, square = [], (source[0] + df, source[1] + dr)
            while on_board(square):
                line.append(square)
                if not slide:
                    break
                square = (square[0] + df, square[1] + dr)
            if line:
                lines.append(tuple(line))
        table[source] = tuple(lines)
    return table


# NB2: queens, rooks and bishops slide and stop at the first piece; knights and ferzes jump.
LINES = {
    "Q": _lines(ORTHOGONAL + DIAGONAL, True),
    "R": _lines(ORTHOGONAL, True),
    "B": _lines(DIAGONAL, True),
    "N": _lines(KNIGHT, False),
    "F": _lines(DIAGONAL, False),
}


def targets(state: NeighborsState, source: Square) -> list[Square]:
    """Squares the piece on ``source`` can capture on (NB2): the first piece on each line."""
    board = state.board
    found: list[Square] = []
    for line in LINES[state.at(source)][source]:
        for square in line:
            if board[square[1] * 7 + square[0]] != ".":
                found.append(square)
                break
    return found


def may_move_from(state: NeighborsState, source: Square) -> bool:
    """NB5: with the option, the mover stands on the file or row of the last landing."""
    if not state.neighbors_rule or not state.moves:
        return True
    landing = state.moves[-1].target
    return source[0] == landing[0] or source[1] == landing[1]


def legal_pairs(state: NeighborsState) -> tuple[tuple[Square, Square], ...]:
    """(source, target) of every legal capture, sorted as their notation sorts."""
    if state.legal_cache is None:
        pairs = []
        for row in range(ROWS):
            for file in range(7):
                source = (file, row)
                if state.at(source) == "." or not may_move_from(state, source):
                    continue
                pairs.extend((source, target) for target in targets(state, source))
        # (file, row) pairs sort as their names do: one letter a..g, one digit 1..6.
        pairs.sort()
        object.__setattr__(state, "legal_cache", tuple(pairs))  # frozen: the one cache slot
    return state.legal_cache


def legal_captures(state: NeighborsState) -> list[Capture]:
    """Every legal capture, in the order of their notation (a1xa2 before a1xb1...)."""
    return [Capture(source, target) for source, target in legal_pairs(state)]


def has_capture(state: NeighborsState) -> bool:
    """Is there any legal capture?  Stops at the first one found."""
    if state.legal_cache is not None:
        return bool(state.legal_cache)
    return any(
        state.at(source) != "." and may_move_from(state, source) and targets(state, source)
        for source in ((f, r) for r in range(ROWS) for f in range(7))
    )


def is_legal(state: NeighborsState, capture: Capture) -> bool:
    source = capture.source
    return (on_board(source) and state.at(source) != "." and may_move_from(state, source)
            and capture.target in targets(state, source))


def score_of(state: NeighborsState) -> dict[str, int]:
    """NB4: majorities per type with two players, piece values with more.

    "Two players" and "three or more" count the players the game started with:
    the scoring is fixed at the start, so a game of three keeps the piece
    values when a removed seat (G5) leaves two.  A removed player's captures
    still score for the record, but only the remaining players can win
    (Game.winners).  A game of two ends when one leaves, so majorities are
    only ever counted between two players who both took part.
    """
    captured = {p: state.captured.get(p, "") for p in state.players}
    if len(state.players) == 2:
        a, b = state.players
        scores = {a: 0, b: 0}
        for piece in PIECE_NAMES:
            ca, cb = captured[a].count(piece), captured[b].count(piece)
            if ca > cb:
                scores[a] += 1
            elif cb > ca:
                scores[b] += 1
        return scores
    return {p: sum(PIECE_VALUES[x] for x in captured[p]) for p in state.players}
