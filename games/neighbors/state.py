"""The Neighbors position: the board, the captures so far, and its JSON form.

Squares are (file 0..6, row 0..5) and are named a1..g6 (files a-g left to
right, rows 1-6 bottom to top).  JSON keeps the board as one string of 42
letters QRBNF or "." (row 1 first), so that a GM can edit a state by hand;
``load_state`` checks it all again.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.base import StateError, dump_drawn, dump_left, load_drawn, load_left
from games.clock import Clock, dump_clock, load_clock

FILES = "abcdefg"
ROWS = 6
PIECE_NAMES = {"Q": "queen", "R": "rook", "B": "bishop", "N": "knight", "F": "ferz"}
# NB1: the 42 pieces of the deal.
PIECE_SET = "Q" * 8 + "R" * 8 + "B" * 8 + "N" * 8 + "F" * 10
# NB4: values when three or more play.
PIECE_VALUES = {"F": 1, "N": 2, "B": 3, "R": 5, "Q": 8}

Square = tuple[int, int]  # (file 0..6, row 0..5)


def square_name(square: Square) -> str:
    return f"{FILES[square[0]]}{square[1] + 1}"


SQUARE_NAMES = {(f, r): square_name((f, r)) for f in range(7) for r in range(ROWS)}


def parse_square(letter: str, digit: str) -> Square:
    return (FILES.index(letter.lower()), int(digit) - 1)


def on_board(square: Square) -> bool:
    return 0 <= square[0] < 7 and 0 <= square[1] < ROWS


@dataclass(frozen=True)
class Move:
    """A capture as it happened, for the history."""

    player: str
    piece: str
    source: Square
    target: Square
    taken: str

    def notation(self) -> str:
        return f"{self.piece}{square_name(self.source)}x{square_name(self.target)}"


@dataclass(frozen=True)
class NeighborsState:
    players: tuple[str, ...]
    seed: int
    neighbors_rule: bool
    board: tuple[str, ...]  # 42 entries indexed row*7+file, "." for empty
    moves: tuple[Move, ...] = ()
    captured: dict = field(default_factory=dict)  # player -> string of piece letters
    left: tuple[str, ...] = ()  # players removed from the game (G5), in the order they left
    drawn: bool = False  # over by agreement (G6)
    clock: Clock | None = None  # the correspondence clock (G10), None = off
    # The legal captures, worked out once: a state never changes, and the service asks
    # "is it over? what may be played?" many times about the same one.  Not part of
    # the value (compare=False) and never copied by dataclasses.replace (init=False).
    legal_cache: tuple | None = field(default=None, init=False, repr=False, compare=False)

    def at(self, square: Square) -> str:
        return self.board[square[1] * 7 + square[0]]

    @property
    def turn(self) -> int:
        return len(self.moves) + 1

    @property
    def remaining(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p not in self.left)

    @property
    def player_to_move(self) -> str:
        if not self.left:
            return self.players[len(self.moves) % len(self.players)]
        # NB3 with removed seats (G5): the next player in list order after the
        # last mover, skipping everyone who has left.
        count = len(self.players)
        start = self.players.index(self.moves[-1].player) + 1 if self.moves else 0
        for step in range(count):
            player = self.players[(start + step) % count]
            if player not in self.left:
                return player
        return self.players[start % count]  # nobody remains; the game is over


def dump_state(state: NeighborsState, version: int) -> dict:
    data = _dump_position(state, version)
    if state.clock is not None:
        data["clock"] = dump_clock(state.clock)
    return data


def _dump_position(state: NeighborsState, version: int) -> dict:
    return dump_drawn(dump_left({
        "version": version,
        "players": list(state.players),
        "seed": state.seed,
        "neighbors_rule": state.neighbors_rule,
        "board": "".join(state.board),
        "moves": [
            {"player": m.player, "piece": m.piece, "from": square_name(m.source),
             "to": square_name(m.target), "taken": m.taken}
            for m in state.moves
        ],
        "captured": {p: state.captured.get(p, "") for p in state.players},
    }, state.left), state.drawn)


def load_state(data: dict) -> NeighborsState:
    """The state a JSON object describes (its version already checked), or StateError."""
    try:
        players = tuple(str(p) for p in data["players"])
        board = tuple(str(data["board"]))
        if len(board) != 42 or set(board) - set("QRBNF."):
            raise StateError("board must be 42 characters of QRBNF.")
        moves = tuple(
            Move(m["player"], m["piece"], parse_square(*m["from"]), parse_square(*m["to"]), m["taken"])
            for m in data["moves"]
        )
        captured = {p: str(data["captured"].get(p, "")) for p in players}
        left = load_left(data, players)
        drawn = load_drawn(data)
        clock = load_clock(data.get("clock"), players)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, StateError):
            raise
        raise StateError(f"malformed neighbors state: {exc}") from None
    if not 2 <= len(players) <= 6:
        raise StateError("neighbors needs 2 to 6 players")
    for p, letters in captured.items():
        if set(letters) - set(PIECE_NAMES):
            raise StateError(f"captured pieces of {p} must be letters QRBNF")
    if sum(len(x) for x in captured.values()) != len(moves):
        raise StateError("captured pieces must number exactly one per move made")
    return NeighborsState(
        players=players,
        seed=int(data["seed"]),
        neighbors_rule=bool(data["neighbors_rule"]),
        board=board,
        moves=moves,
        captured=captured,
        left=left,
        drawn=drawn,
        clock=clock,
    )
