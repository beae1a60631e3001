"""Neighbors as players see it: the ASCII board, the report view, HELP.

Pure functions of a state.  Neighbors hides nothing, so the viewer changes
nothing.
"""

from __future__ import annotations

from games.text import Text, mark

from .accessible import PIECE_WORDS
from .state import FILES, PIECE_NAMES, ROWS, NeighborsState

HELP = mark("""\
NEIGHBORS: every piece belongs to everyone, and every move is a capture.

Orders: one capture per mail, from-square x to-square, any case:
    b4xd4      b4-d4      Rb4xd4      Rxd4 (when only one rook can)
Queens, rooks and bishops capture along lines as in chess and are
stopped by the first piece in the way; knights jump; a ferz (F) captures
one square diagonally.  Passing is not allowed.

Rulings this game follows:

""")


def help_text() -> str:
    from games import rulings  # the rulings' text, only when HELP is asked for

    return Text("{help}{rulings}", help=Text(HELP), rulings=rulings.help_block("NB"))


def render_board(state: NeighborsState) -> str:
    files = "    " + " ".join(FILES)
    lines = [files]
    for row in reversed(range(ROWS)):
        cells = " ".join(state.at((f, row)) for f in range(7))
        lines.append(f" {row + 1}  {cells}  {row + 1}")
    lines.append(files)
    return "\n".join(lines)


def view(state: NeighborsState, over: bool) -> dict:
    """The report's data; ``over``: the game has ended, so NB5 restricts nothing more."""
    captured = {
        p: {PIECE_NAMES[k]: state.captured.get(p, "").count(k) for k in PIECE_NAMES}
        for p in state.players
    }
    last = state.moves[-1] if state.moves else None
    restriction = None
    if state.neighbors_rule and last and not over:
        t = last.target
        restriction = Text("file {file} or row {row}", file=FILES[t[0]], row=t[1] + 1)
    return {
        "captured": captured,
        "piece_names": [Text(PIECE_WORDS[kind]) for kind in PIECE_NAMES],
        "pieces_left": sum(1 for x in state.board if x != "."),
        "last_move": last.notation() if last else None,
        "last_player": last.player if last else None,
        "neighbors_rule": state.neighbors_rule,
        "restriction": restriction,
        "two_player": len(state.players) == 2,
        "left": list(state.left),
    }
