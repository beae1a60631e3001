"""What players see of Fuzzy Borders: the ASCII board, the report facts, HELP.

Pure functions of a state.  The board holds no sealed information (sealed
claims are not on it), so every viewer sees the same board.
"""

from __future__ import annotations

import textwrap

from games import rulings
from games.base import format_duration

from .board import CellState, grid
from .state import FBState

MAX_WIDTH = 72
EMPTY = "."


def symbols(players: list[str]) -> dict[str, str]:
    """One capital letter per player: their initial, else another letter of their name, else A.."""
    taken: set[str] = set()
    result = {}
    for player in players:
        candidates = [ch.upper() for ch in player if ch.isascii() and ch.isalpha()]
        candidates += [chr(c) for c in range(ord("A"), ord("Z") + 1)]
        letter = next(ch for ch in candidates if ch not in taken)
        taken.add(letter)
        result[player] = letter
    return result


def _wide_cell(state: CellState, mark: dict[str, str]) -> str:
    """A three-character cell: [A] claimed, a3 led with value 3 (a5 owned), . empty."""
    if state.claimer is not None:
        return f"[{mark[state.claimer]}]"
    if state.leader is not None:
        return f"{mark[state.leader].lower()}{state.value}"
    return EMPTY


def render_board(state: FBState) -> str:
    board = state.board()
    hexes = grid(state.side)
    mark = symbols(state.players)
    legend = "  ".join(f"{mark[p]}={p}" for p in state.players)
    legend_lines = textwrap.wrap("Players: " + legend, MAX_WIDTH, subsequent_indent="  ")
    wide = hexes.render(lambda c: _wide_cell(board[c], mark), width=3)
    if max(len(line) for line in wide.split("\n")) <= MAX_WIDTH:
        key = "[A] claimed (10 points), a3 led by A worth 3 (a5 = owned), . empty"
        return "\n".join([wide, "", key, *legend_lines])

    # Too wide for three characters a cell: one map of who holds each cell
    # and one of what it is worth, one character a cell.
    def holder(cell):
        s = board[cell]
        if s.claimer is not None:
            return mark[s.claimer]
        return mark[s.leader].lower() if s.leader is not None else EMPTY

    def value(cell):
        s = board[cell]
        if s.claimer is not None:
            return "#"
        return str(s.value) if s.leader is not None else EMPTY

    return "\n".join([
        "Who: A = claimed by A, a = led by A, . = empty",
        f"(The letters above row 1 and left of rows 1-{state.side - 1} name the diagonals.)",
        hexes.render(holder, width=1),
        "",
        "Worth: # = claimed (10), 1-5 = led (5 = owned), . = empty",
        hexes.render(value, width=1),
        "",
        *legend_lines,
    ])


def view(state: FBState, viewer: str | None, scores: dict[str, int],
         to_move: list[str]) -> dict:
    board = state.board()
    mark = symbols(state.players)
    last = state.last
    last_claims = []
    if last is not None:
        for player in state.players:
            last_claims.append({
                "player": player,
                "ordered": last["orders"][player],
                "placed": last["placed"][player],
            })
    players = []
    for player in state.players:
        claims = state.claims.get(player, [])
        players.append({
            "name": player,
            "symbol": mark[player],
            "score": scores[player],
            **board.counts(player),
            "claims": [cell for _, cell in claims],
        })
    you = None
    if viewer in state.players:
        placed = state.claims.get(viewer, [])
        you = {
            "name": viewer,
            "last_order": last["orders"][viewer] if last else None,
            "last_result": last["placed"][viewer] if last else None,
            "last_placed": placed[-1][1] if placed else None,
            "last_placed_turn": placed[-1][0] if placed else None,
            "sealed": state.sealed.get(viewer),
        }
    return {
        "side": state.side,
        "radius": state.radius,
        "max_turns": state.max_turns,
        "turn": state.turn,
        "over": state.over,
        "empty_cells": len(board.empty_cells()),
        "players": players,
        "last_turn": None if last is None else {
            "turn": last["turn"],
            "reopened": last["outcome"] == "reopened",
            "claims": last_claims,
        },
        "reopened": state.reopened,
        "reopen_until": state.reopen_until,
        "reopen": format_duration(state.reopen),
        # Who has a claim in (not which cell): the rules seal only the cell.
        "claims_in": [p for p in state.players if p in state.sealed],
        "waiting_for": [p for p in to_move if p not in state.sealed],
        "you": you,
        # The GM (viewer None) sees the sealed claims; players never do.
        "sealed": dict(state.sealed) if viewer is None else {},
    }


NOTATION = """\
ORDERS

Each turn send one claim, naming a cell by its diagonal letter and row
number:

    CLAIM K10

Case and extra spaces do not matter ("claim k10" and "CLAIM K 10" work
too). Your claim is sealed: only you get a confirmation, and you may
replace it by sending another claim until the turn is adjudicated. The
turn is adjudicated as soon as every player has a claim in (or when the
GM processes it); then all claims are shown in the turn report.

You may claim a cell that is not claimed and is either empty or led by
you. A claim of any other cell is refused at once, with the reason.

THE BOARD IN THE REPORT

Rows are numbered from the top; the letters of the NW-SE diagonals stand
at their upper ends. Each player has a letter (the report lists them).
On small boards a cell shows [A] when A claimed it, a3 when A leads it
and it is worth 3 to A (a5: A owns it), and . when it is empty. Large
boards are drawn twice: who holds each cell (A claimed, a led, . empty),
then what it is worth (# claimed, 1-5 led, 5 = owned).
"""

NOTES = """\
HOW THIS GM APPLIES FB6 WHERE IT IS SILENT

Turn 1, k players clashing on one cell: the board turns only in steps of 60 degrees, so 4 players get the cell turned 0, 60, 180 and 240 degrees and 5 players 0, 60, 120, 180 and 240 degrees (2, 3 and 6 players get exactly 360/k). Seven or more players on one cell are treated like a later turn. A player given a turned cell that someone else also gets that turn is treated like a later-turn clash. In a re-opened turn any clash is the second clash.

OPTIONS: side (default 10), radius (default 4), max_turns (default none), reopen (how long a re-opened turn stays open, default 24h).
"""


def help_text() -> str:
    out: list[str] = []
    for block in (NOTATION, NOTES):
        for paragraph in block.strip("\n").split("\n\n"):
            if paragraph.startswith("    ") or "\n" in paragraph:
                out.append(paragraph)  # already laid out by hand
            else:
                out.append(textwrap.fill(paragraph, MAX_WIDTH, break_on_hyphens=False))
        if block is NOTATION:
            out.append("RULINGS (these decide where the rule text is silent or unclear)")
            out.append(rulings.help_block("FB", MAX_WIDTH).rstrip("\n"))
    return "\n\n".join(p for p in out if p).rstrip() + "\n"
