"""Neighbors (Rob Nierse): shared chess pieces, every move a capture.

RULINGS NB1-NB5 and G1-G5.  Sequential; 2 to 6 players.

A removed player (G5) is skipped in the turn order from then on: Neighbors
has no missing order but a pass, and passing is not allowed (NB2), so the
seat simply takes no more turns.  The game goes on while two or more
players remain and ends when one remains: with fewer than two there is
nobody to take turns with (NB3).  A removed player is never a winner.
"""

from __future__ import annotations

from dataclasses import replace

from games.base import (
    Event,
    Game,
    IllegalOrderError,
    Option,
    Result,
    parse_bool,
    seeded_rng,
    single_order_line,
)

from games.text import Text, mark
from games.clock import HELP as CLOCK_HELP, ClockedGame, Clock, new_clock, parse_clock, start

from . import accessible, display, notation
from .captures import Capture, has_capture, is_legal, legal_captures, legal_pairs, may_move_from, score_of
from .state import (
    PIECE_SET,
    SQUARE_NAMES,
    Move,
    NeighborsState,
    dump_state,
    load_state,
    square_name,
)


# Why a piece cannot capture where it was ordered to, by its kind.
CANNOT = {
    "Q": mark("the queen on {source} cannot capture on {target}"),
    "R": mark("the rook on {source} cannot capture on {target}"),
    "B": mark("the bishop on {source} cannot capture on {target}"),
    "N": mark("the knight on {source} cannot capture on {target}"),
    "F": mark("the ferz on {source} cannot capture on {target}"),
}
# The news of a capture, by the kind of piece taken.
TAKES = {
    "Q": mark("{player}: {move} takes a queen"),
    "R": mark("{player}: {move} takes a rook"),
    "B": mark("{player}: {move} takes a bishop"),
    "N": mark("{player}: {move} takes a knight"),
    "F": mark("{player}: {move} takes a ferz"),
}


class Neighbors(ClockedGame, Game[NeighborsState, Capture]):
    kind = "neighbors"
    title = "Neighbors"
    min_players = 2
    max_players = 6
    simultaneous = False
    state_version = 1
    options = {
        "layout": Option(None, "42 characters, row 6 first, files a..g, QRBNF or '.'"),
        "neighbors_rule": Option("false", "NB5: capture only from the last landing's file or row"),
        "clock": Option("off", CLOCK_HELP),
        "takebacks": Option("on", "G9: a player may ask to take back their last move (on or off)"),
    }

    def convert_options(self, raw: dict) -> dict:
        layout = raw.get("layout")
        return {
            "layout": notation.parse_layout(layout) if layout else None,
            "neighbors_rule": parse_bool("neighbors_rule", raw.get("neighbors_rule") or "false"),
            "clock": parse_clock("clock", raw.get("clock")),
            "takebacks": parse_bool("takebacks", raw.get("takebacks") or "on"),
        }

    def setup(self, players: list[str], options: dict, seed: int) -> NeighborsState:
        self.check_players(list(players))
        opts = self.check_options(options)
        board = opts["layout"]
        if board is None:
            deal = list(PIECE_SET)
            seeded_rng(seed, "deal").shuffle(deal)  # NB1, G1
            board = tuple(deal)
        return NeighborsState(
            players=tuple(players),
            seed=seed,
            neighbors_rule=opts["neighbors_rule"],
            board=board,
            captured={p: "" for p in players},
            clock=new_clock(opts["clock"], players),
        )

    def replace_clock(self, state: NeighborsState, clock: Clock | None) -> NeighborsState:
        return replace(state, clock=clock)

    # --- orders ---------------------------------------------------------------
    def read_order(self, state: NeighborsState, player: str, text: str) -> Capture:
        line = single_order_line(
            text, Text("no capture given; write it like b4xd4"),
            mark("one capture per mail, please; this mail has {count} order lines: {lines}"),
        )
        return self.parse_capture(state, line)

    def parse_capture(self, state: NeighborsState, text: str) -> Capture:
        return notation.parse_capture(state, text)

    def check(self, state: NeighborsState, capture: Capture) -> None:
        """Raise IllegalOrderError, with the reason and the legal captures, unless legal."""
        if is_legal(state, capture):
            return
        names = [str(c) for c in legal_captures(state)]
        piece = state.at(capture.source)
        src, dst = square_name(capture.source), square_name(capture.target)
        if piece == ".":
            reason = Text("there is no piece on {square}", square=src)
        elif capture.source == capture.target:
            reason = Text("a piece cannot capture itself")
        elif state.at(capture.target) == ".":
            reason = Text("{square} is empty, and every move must be a capture", square=dst)
        elif not may_move_from(state, capture.source):
            landing = square_name(state.moves[-1].target)
            reason = Text("the neighbors rule allows only pieces on the file or row of {square}",
                          square=landing)
        else:
            reason = Text(CANNOT[piece], source=src, target=dst)
        raise IllegalOrderError(Text("{order}: {reason}", order=str(capture), reason=reason), legal=names)

    def step(self, state: NeighborsState, player: str, order: Capture, now: float) -> Result[NeighborsState]:
        self.check(state, order)
        return self.clocked_step(state, player, now, lambda at: self.capture(at, player, order))

    def capture(self, state: NeighborsState, player: str, order: Capture) -> Result[NeighborsState]:
        """The capture itself (checked legal), with its events."""
        piece, taken = state.at(order.source), state.at(order.target)
        board = list(state.board)
        board[order.target[1] * 7 + order.target[0]] = piece
        board[order.source[1] * 7 + order.source[0]] = "."
        move = Move(player, piece, order.source, order.target, taken)
        captured = dict(state.captured)
        captured[player] = captured.get(player, "") + taken
        new = replace(state, board=tuple(board), moves=state.moves + (move,), captured=captured)
        events = [
            Event(
                Text(TAKES[taken], player=player, move=move.notation()),
                kind="capture",
                data={"player": player, "move": move.notation(), "taken": taken},
            )
        ]
        if self.is_over(new):
            events.append(
                Event(Text("{player} has no legal capture: the game is over", player=new.player_to_move),
                      kind="end")
            )
        return Result(new, events)

    def legal_orders(self, state: NeighborsState, player: str) -> list[str]:
        if self.is_over(state) or player != state.player_to_move:
            return []
        return [f"{SQUARE_NAMES[source]}x{SQUARE_NAMES[target]}" for source, target in legal_pairs(state)]

    # --- questions ----------------------------------------------------------
    def players(self, state: NeighborsState) -> list[str]:
        return list(state.players)

    def turn(self, state: NeighborsState) -> int:
        return state.turn

    def to_move(self, state: NeighborsState) -> list[str]:
        return [] if self.is_over(state) else [state.player_to_move]

    def is_over(self, state: NeighborsState) -> bool:
        # NB3; with fewer than two players left there is nobody to take turns with (G7); G6.
        return state.drawn or len(state.remaining) < 2 or not has_capture(state)

    def mark_drawn(self, state: NeighborsState) -> NeighborsState:
        """G6: over and drawn, the board as it stands."""
        return replace(state, drawn=True)

    def leave(self, state: NeighborsState, player: str, now: float) -> Result[NeighborsState]:
        """G5: the seat is skipped in the turn order; one player left ends the game."""
        self.check_leave(state, player)
        was_to_move = state.player_to_move == player
        new = replace(state, left=state.left + (player,))
        remaining = new.remaining
        if len(remaining) < 2:
            winners = self.winners(new)
            text = (Text("Only {player} remains, so the game is over (NB3: nobody is left to take "
                         "turns with). {winners} wins.", player=remaining[0], winners=", ".join(winners))
                    if remaining else Text("Nobody remains, so the game is over."))
            return Result(new, [self.left_event(player),
                                Event(text, kind="end", data={"winners": winners})])
        events = [self.left_event(player, Text("Their seat is skipped in the turn order from now on."))]
        if was_to_move and new.clock is not None:  # G10: the next player's bank runs from now
            new = replace(new, clock=start(new.clock, now))
        if was_to_move:  # the board is unchanged, so captures are still left (NB3)
            events.append(Event(Text("{player} is to move.", player=new.player_to_move), kind="info",
                                data={"player": new.player_to_move}))
        return Result(new, events)

    def scores(self, state: NeighborsState) -> dict[str, int]:
        return score_of(state)

    # --- presentation -----------------------------------------------------
    def render_board(self, state: NeighborsState, viewer: str | None = None) -> str:
        return display.render_board(state)

    def describe(self, state: NeighborsState, viewer: str | None = None) -> list[str]:
        return list(accessible.describe(state, over=self.is_over(state)))

    def board_table(self, state: NeighborsState, viewer: str | None = None) -> tuple[list[str], list[list[str]]]:
        return accessible.board_table(state)

    def view(self, state: NeighborsState, viewer: str | None = None) -> dict:
        return {**display.view(state, over=self.is_over(state)), "clock_lines": self.clock_view(state)}

    def help_text(self) -> str:
        return display.help_text()

    # --- JSON -----------------------------------------------------------------
    def dump(self, state: NeighborsState) -> dict:
        return dump_state(state, self.state_version)

    def load(self, data: dict) -> NeighborsState:
        self.check_version(data)
        return load_state(data)


GAME = Neighbors()
