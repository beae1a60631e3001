"""What players see of Fuzzy Borders: the ASCII board, the report facts, HELP.

Pure functions of a state.  The board holds no sealed information (sealed
claims are not on it), so every viewer sees the same board.
"""

from __future__ import annotations

import textwrap

from games.base import format_duration
from games.text import Text, mark
from games.hexgrid import distance

from .board import CellState, grid
from .state import FBState

MAX_WIDTH = 72
EMPTY = "."


# One mark per player, in the order of the player list.  No letter and no
# digit, so that a mark is never read as a coordinate (letters name the
# diagonals, numbers the rows) nor as a value; '.' (empty), '#' (claimed in
# the worth map) and the brackets of a claimed cell are left out too.
MARKS = "@*+$%&=?~^/!"


def symbols(players: list[str]) -> dict[str, str]:
    """One mark per player (MARKS, in player order)."""
    return {player: MARKS[i] for i, player in enumerate(players)}


def example_cell(state: FBState, player: str | None = None) -> str:
    """A cell of this board for examples: the one ``player`` may claim nearest the centre."""
    board = state.board()
    cells = board.claimable_by(player) if player in state.players else board.empty_cells()
    centre = (0, 0)
    if not cells:
        return state.name(centre)
    return state.name(min(cells, key=lambda c: (distance(c, centre), c[1], c[0])))


def _wide_cell(state: CellState, mark: dict[str, str]) -> str:
    """A three-character cell: [@] claimed, @3 led with value 3 (@5 owned), . empty."""
    if state.claimer is not None:
        return f"[{mark[state.claimer]}]"
    if state.leader is not None:
        return f"{mark[state.leader]}{state.value}"
    return EMPTY


def render_board(state: FBState) -> str:
    """The board drawn in ASCII, then its key, the players' marks and how cells are named."""
    board = state.board()
    hexes = grid(state.side)
    marks = symbols(state.players)
    legend = "   ".join(f"{marks[p]} {p}" for p in state.players)
    # Wrapped as the English prefix (16 columns) lays it out; the words follow the reader.
    wrapped = "\n".join(textwrap.wrap("Players' marks: " + legend, MAX_WIDTH, subsequent_indent="  ",
                                      break_long_words=False))[len("Players' marks: "):]
    last = hexes.name(hexes.row_cells(1)[-1])[0]
    naming = Text("{legend}\nLetters A-{last} name the diagonals (above row 1 and left of rows 2-{side}),\n"
                  "numbers 1-{rows} the rows; a cell is named by both, e.g. {example}.",
                  legend=Text("Players' marks: {marks}", marks=wrapped), last=last, side=state.side,
                  rows=2 * state.side - 1, example=example_cell(state))
    wide = hexes.render(lambda c: _wide_cell(board[c], marks), width=3)
    first = marks[state.players[0]]
    if max(len(line) for line in wide.split("\n")) <= MAX_WIDTH:
        key = Text("[{mark}] claimed (10 points), {mark}3 led by {mark} worth 3 ({mark}5 = owned), . empty",
                   mark=first)
        return Text("{board}\n\n{key}\n{naming}", board=wide, key=key, naming=naming)

    # Too wide for three characters a cell: one map of who holds each cell
    # and one of what it is worth, one character a cell.
    def holder(cell):
        s = board[cell]
        if s.claimer is not None:
            return marks[s.claimer]
        return marks[s.leader] if s.leader is not None else EMPTY

    def value(cell):
        s = board[cell]
        if s.claimer is not None:
            return "#"
        return str(s.value) if s.leader is not None else EMPTY

    return Text("{who}\n{holders}\n\n{worth}\n{values}\n\n{naming}",
                who=Text("Who: {mark} = claimed or led by {mark} (the worth map tells which), . = empty",
                         mark=first),
                holders=hexes.render(holder, width=1),
                worth=Text("Worth: # = claimed (10), 1-5 = led (5 = owned), . = empty"),
                values=hexes.render(value, width=1), naming=naming)


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
    you = _you(state, viewer) if viewer in state.players else None
    return {
        "side": state.side,
        "radius": state.radius,
        "max_turns": state.max_turns,
        # FB8: the empty turns in a row so far and how many end the game (None: never)
        "empty_turns": state.empty_turns,
        "empty_run": state.empty_run(),
        "turn": state.turn,
        "over": state.over,
        "left": list(state.left),
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
        "example": example_cell(state, viewer),
        # Who has a claim in (not which cell): the rules seal only the cell.
        "claims_in": [p for p in state.players if p in state.sealed],
        "waiting_for": [p for p in to_move if p not in state.sealed],
        "you": you,
        # The GM (viewer None) sees the sealed claims; players never do.
        "sealed": dict(state.sealed) if viewer is None else {},
    }


def _you(state: FBState, viewer: str) -> dict:
    """What a player's own report says of them: last order and result, last placement, sealed claim."""
    last = state.last
    placed = state.claims.get(viewer, [])
    return {
        "name": viewer,
        "last_order": last["orders"][viewer] if last else None,
        "last_result": last["placed"][viewer] if last else None,
        "last_placed": placed[-1][1] if placed else None,
        "last_placed_turn": placed[-1][0] if placed else None,
        "sealed": state.sealed.get(viewer),
    }


# HELP, laid out within MAX_WIDTH columns as sent (a translation is laid out in its catalogue).
NOTATION = mark("""\
ORDERS

Each turn send one claim, naming a cell by its diagonal letter and row
number, e.g. on the standard board (side 10):

    CLAIM K10

Case and extra spaces do not matter ("claim k10" and "CLAIM K 10" work
too). The names depend on the board's side N: the diagonals run from A
to the (2N-1)-th letter and the rows from 1 to 2N-1, and the centre is
the N-th letter with row N: J10 on side 10, E5 on side 5, H8 on side 8.
Your report names a cell of your own board in its examples. Your claim
is sealed: only you get a confirmation, and you may replace it by
sending another claim until the turn is adjudicated. The turn is
adjudicated as soon as every player has a claim in (or when the GM
processes it); then all claims are shown in the turn report.

You may claim a cell that is not claimed and is either empty or led by
you. A claim of any other cell, or of a cell the board does not have, is
refused at once, with the reason and the nearest cells you may claim.

THE BOARD IN THE REPORT

Rows are numbered from the top; the letter of each NW-SE diagonal stands
next to its upper end: above row 1, or left of the first cell of rows 2
to N. So a letter always names the cells of its own diagonal. Each
player has a mark that is neither a letter nor a digit (@ * + $ ...; the
report lists them), so a mark is never read as a coordinate. On small
boards a cell shows [@] when @ claimed it, @3 when @ leads it and it is
worth 3 to @ (@5: @ owns it), and . when it is empty. Large boards are
drawn twice: who holds each cell (the claimer's or leader's mark, .
empty), then what it is worth (# claimed, 1-5 led, 5 = owned).""")

NOTES = mark("""\
HOW THIS GM APPLIES FB6 WHERE IT IS SILENT

Turn 1, k players clashing on one cell: the board turns only in steps of
60 degrees, so 4 players get the cell turned 0, 60, 180 and 240 degrees
and 5 players 0, 60, 120, 180 and 240 degrees (2, 3 and 6 players get
exactly 360/k). Seven or more players on one cell are treated like a
later turn. A player given a turned cell that someone else also gets
that turn is treated like a later-turn clash. In a re-opened turn any
clash is the second clash.

OPTIONS: side (default 10), radius (default 4), max_turns (default
none), reopen (how long a re-opened turn stays open, default 24h),
empty_turns (how many empty turns in a row end the game, FB8: default 3,
or none for never).

The report counts the empty turns in a row (turns on which no claim was
placed) once there is one: "Empty turns in a row: 2 of 3". A turn
re-opened after a clash (FB6) counts once, when it closes, and only if
it places nothing.""")


def help_text() -> Text:
    from games import rulings  # the rulings' text, only when HELP is asked for

    return Text("{notation}\n\n{title}\n\n{rulings}\n\n{notes}\n", notation=Text(NOTATION),
                title=Text("RULINGS (these decide where the rule text is silent or unclear)"),
                rulings=rulings.help_block("FB", MAX_WIDTH).rstrip("\n"), notes=Text(NOTES))
