"""The Proximity position: tiles, pieces, trails, clocks, and their JSON form.

Squares: the 3x3 board is a1..c3 (files a-c left to right, rows 1-3 bottom
to top).  The two null tiles sit outside the middle of the bottom and top
sides, so they are named b0 (first listed player) and b4 (second listed
player) and touch a1/b1/c1 and a3/b3/c3 respectively (RULINGS PX2).

JSON: a tile is written as suit letter + value, e.g. "S1" (Suns ace), "M5",
"C3", "A2" (Arms 2).  Everything else is plain numbers, strings and lists so
that a GM can edit a state by hand; ``load`` checks it all again.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from games.text import mark, recover
from games.base import (
    StateError,
    dump_drawn,
    dump_left,
    json_list,
    json_number,
    json_object,
    load_drawn,
    load_left,
    whole_number,
)

from .lastmove import recover_line

SUITS = ("suns", "moons", "crowns", "arms")
SUIT_NAME = {"suns": "Suns", "moons": "Moons", "crowns": "Crowns", "arms": "Arms"}
SUIT_SINGULAR = {"suns": "Sun", "moons": "Moon", "crowns": "Crown", "arms": "Arm"}
SUIT_LETTER = {"suns": "S", "moons": "M", "crowns": "C", "arms": "A"}
LETTER_SUIT = {letter: suit for suit, letter in SUIT_LETTER.items()}
VALUE_NAME = {0: "null", 1: "A", 2: "2", 3: "3", 4: "4", 5: "5"}

BOARD_SQUARES = tuple(f"{f}{r}" for r in "123" for f in "abc")
NULL_SQUARES = ("b0", "b4")  # index = player index
ALL_SQUARES = BOARD_SQUARES + NULL_SQUARES


def coords(square: str) -> tuple[int, int]:
    return "abc".index(square[0]), int(square[1])


def adjacent(one: str, other: str) -> bool:
    """8-neighbourhood on the 3x3 plus the two null tiles (RULINGS PX2)."""
    (x1, y1), (x2, y2) = coords(one), coords(other)
    return one != other and abs(x1 - x2) <= 1 and abs(y1 - y2) <= 1


@dataclass(frozen=True)
class Tile:
    suit: str
    value: int  # null 0, ace 1, then 2..5

    @property
    def code(self) -> str:
        return SUIT_LETTER[self.suit] + str(self.value)

    @property
    def label(self) -> str:
        return f"{SUIT_SINGULAR[self.suit]} {VALUE_NAME[self.value]}"

    @classmethod
    def from_code(cls, code: object, where: str) -> "Tile":
        if (
            not isinstance(code, str)
            or len(code) != 2
            or code[0].upper() not in LETTER_SUIT
            or code[1] not in "12345"
        ):
            raise StateError(f"{where}: {code!r} is not a tile like 'S1' or 'M5'")
        return cls(LETTER_SUIT[code[0].upper()], int(code[1]))


@dataclass
class Piece:
    """One piece of a suit, from its birth on.

    ``id`` is its birth number within the suit (0 = the first pawn, then the
    coins in the order they came in), which is also its column in the trail
    table.  A promoted coin keeps its id, age and marks and becomes the pawn.
    """

    id: int
    kind: str  # "pawn" or "coin"
    square: str | None  # None once sacrificed or lifted off by a promotion
    age: int
    marks: list[int] = field(default_factory=list)  # trail rows walked, in order

    @property
    def in_play(self) -> bool:
        return self.square is not None


@dataclass(frozen=True)
class TrailRow:
    square: str
    struck: bool = False


@dataclass(frozen=True)
class Promotion:
    """The trail rows one promotion struck (PX7) and the turn it happened on (PX10)."""

    turn: int
    rows: tuple[int, ...]


@dataclass
class Side:
    name: str
    suit: str
    null: str
    pieces: list[Piece]
    rows: list[TrailRow]
    bank: float | None = None  # seconds left (RULINGS PX8), None when off
    promotions: list[Promotion] = field(default_factory=list)

    def pawn(self) -> Piece | None:
        return next((p for p in self.pieces if p.kind == "pawn" and p.square is not None), None)

    def coins(self) -> list[Piece]:
        """Coins in play, oldest first (ties cannot happen; birth order breaks them)."""
        return sorted(
            (p for p in self.pieces if p.kind == "coin" and p.square is not None),
            key=lambda p: (-p.age, p.id),
        )

    def chain(self) -> list[Piece]:
        """Pawn, oldest coin, ..., youngest coin (RULINGS PX4)."""
        pawn = self.pawn()
        return ([pawn] if pawn else []) + self.coins()

    def active_rows(self) -> list[int]:
        """Indexes of the trail rows not struck through: the trail coins follow."""
        return [i for i, row in enumerate(self.rows) if not row.struck]


# How a game ended, as the state keeps it (English JSON; recover() gives back its translation).
END_REASONS = {
    "sacrifice": mark("{player} sacrificed the pawn with no coin to promote"),
    "time": mark("{player}'s time bank ran out"),
    "draw": mark("drawn by agreement"),
    "left": mark("{player} left the game"),
}


@dataclass
class State:
    seed: int
    coins: int  # coins per player (RULINGS PX1)
    board: dict[str, Tile]
    throne: Tile
    sides: list[Side]
    mover: int = 0
    moves: int = 0
    time_bank: float | None = None  # seconds per player, None = off (PX8)
    clock_start: float | None = None  # when the mover's clock started
    clock_increment: float = 0.0  # added to a bank after each move (G10)
    clock_max: float | None = None  # no bank grows above this (G10), None = no ceiling
    clock_stopped: float = 0.0  # seconds since clock_start that do not count (G10)
    clock_earned: float = 0.0  # what the last move's increment added (G9 takes it back)
    winner: int | None = None
    end_reason: str | None = None
    last: list[str] = field(default_factory=list)  # what the last move did
    left: tuple[str, ...] = ()  # the player removed from the game (G5), if any
    drawn: bool = False  # over by agreement (G6): no winner

    def clone(self) -> "State":
        """A deep copy (tiles are immutable and shared); much faster than deepcopy."""
        sides = [
            Side(
                side.name,
                side.suit,
                side.null,
                # Pieces out of play never change again, so copies may share them.
                [
                    p if p.square is None else Piece(p.id, p.kind, p.square, p.age, list(p.marks))
                    for p in side.pieces
                ],
                list(side.rows),  # rows are frozen, so they can be shared
                side.bank,
                list(side.promotions),  # and so are promotions
            )
            for side in self.sides
        ]
        return replace(self, board=dict(self.board), sides=sides, last=list(self.last))

    @property
    def suits(self) -> tuple[str, str]:
        return self.sides[0].suit, self.sides[1].suit

    def tile(self, square: str) -> Tile:
        if square in NULL_SQUARES:
            return Tile(self.sides[NULL_SQUARES.index(square)].suit, 0)
        return self.board[square]

    def occupant(self, square: str) -> tuple[int, Piece] | None:
        for index, side in enumerate(self.sides):
            for piece in side.pieces:
                if piece.square == square:
                    return index, piece
        return None

    def side_of(self, player: str) -> int | None:
        for index, side in enumerate(self.sides):
            if side.name == player:
                return index
        return None


# --- JSON -------------------------------------------------------------------


def _dump_side(side: Side) -> dict:
    data = {
        "name": side.name,
        "suit": side.suit,
        "bank": side.bank,
        "trail": [[row.square, row.struck] for row in side.rows],
        "pieces": [
            {
                "id": p.id,
                "kind": p.kind,
                "square": p.square,
                "age": p.age,
                "marks": list(p.marks),
            }
            for p in side.pieces
        ],
    }
    if side.promotions:  # older states have none: the key is written only when needed
        data["promotions"] = [{"turn": p.turn, "rows": list(p.rows)} for p in side.promotions]
    return data


def dump_state(state: State, version: int) -> dict:
    return dump_drawn(dump_left({
        "version": version,
        "seed": state.seed,
        "coins": state.coins,
        "board": {sq: state.board[sq].code for sq in BOARD_SQUARES},
        "throne": state.throne.code,
        "players": [_dump_side(side) for side in state.sides],
        "mover": state.mover,
        "moves": state.moves,
        "time_bank": state.time_bank,
        "clock_start": state.clock_start,
        "winner": state.winner,
        "end_reason": state.end_reason,
        "last": list(state.last),
        **_dump_clock_extras(state),
    }, state.left), state.drawn)


CLOCK_EXTRAS = {"clock_increment": 0.0, "clock_max": None, "clock_stopped": 0.0, "clock_earned": 0.0}


def _dump_clock_extras(state: State) -> dict:
    """The G10 parts of the clock beyond PX8's bank, written only when set."""
    values = {key: getattr(state, key) for key in CLOCK_EXTRAS}
    return {key: value for key, value in values.items() if value != CLOCK_EXTRAS[key]}


def _seconds(value: object, where: str) -> float | None:
    number = json_number(value, where, optional=True)
    return None if number is None else float(number)


def load_state(data: dict) -> State:
    """Build a State from JSON and check that it is a position the rules allow."""
    try:
        return _load(data)
    except StateError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise StateError(f"malformed proximity state: {exc!r}") from None


def _load(data: dict) -> State:
    board_raw = json_object(data["board"], "board")
    if sorted(board_raw) != sorted(BOARD_SQUARES):
        raise StateError("board: needs exactly the squares a1..c3")
    board = {sq: Tile.from_code(board_raw[sq], f"board {sq}") for sq in BOARD_SQUARES}
    throne = Tile.from_code(data["throne"], "throne")
    players = json_list(data["players"], "players")
    if len(players) != 2:
        raise StateError("players: Proximity has exactly two players")
    sides = [_load_side(index, raw) for index, raw in enumerate(players)]
    if sides[0].suit == sides[1].suit:
        raise StateError("the two players need different suits")
    if sides[0].name == sides[1].name:
        raise StateError("the two players need different names")
    winner = data.get("winner")
    if winner is not None:
        winner = whole_number(winner, "winner", 0, 1)
    state = State(
        seed=whole_number(data["seed"], "seed", low=-(2**63)),
        coins=whole_number(data["coins"], "coins", 0, 99),
        board=board,
        throne=throne,
        sides=sides,
        mover=whole_number(data["mover"], "mover", 0, 1),
        moves=whole_number(data["moves"], "moves", 0),
        time_bank=_seconds(data.get("time_bank"), "time_bank"),
        clock_start=_seconds(data.get("clock_start"), "clock_start"),
        clock_increment=_seconds(data.get("clock_increment", 0.0), "clock_increment") or 0.0,
        clock_max=_seconds(data.get("clock_max"), "clock_max"),
        clock_stopped=_seconds(data.get("clock_stopped", 0.0), "clock_stopped") or 0.0,
        clock_earned=_seconds(data.get("clock_earned", 0.0), "clock_earned") or 0.0,
        winner=winner,
        end_reason=recover(data.get("end_reason"), END_REASONS.values()),
        last=[recover_line(t if isinstance(t, str) else str(t)) for t in json_list(data.get("last", []), "last")],
        left=load_left(data, [side.name for side in sides]),
        drawn=load_drawn(data),
    )
    if state.drawn and state.winner is not None:
        raise StateError("drawn: a game drawn by agreement has no winner (G6)")
    if state.left and (len(state.left) != 1 or state.winner is None
                       or state.sides[state.winner].name == state.left[0]):
        raise StateError("left: the player who left has lost, and the other has won (G5)")
    check_position(state)
    return state


def _load_side(index: int, raw: Any) -> Side:
    """One player's side: name, suit, trail, pieces, time bank and promotions."""
    raw = json_object(raw, f"player {index + 1}")
    name, suit = raw["name"], raw["suit"]
    if not isinstance(name, str) or not name:
        raise StateError(f"player {index + 1}: bad name {name!r}")
    if suit not in SUITS:
        raise StateError(f"player {name}: unknown suit {suit!r}")
    rows = []
    for row in json_list(raw["trail"], f"{name} trail"):
        row = json_list(row, f"{name} trail row")
        if len(row) != 2 or row[0] not in BOARD_SQUARES or not isinstance(row[1], bool):
            raise StateError(f"{name} trail: bad row {row!r}")
        rows.append(TrailRow(row[0], row[1]))
    pieces = [_load_piece(raw_piece, name, suit, rows) for raw_piece in json_list(raw["pieces"], f"{name} pieces")]
    bank = _seconds(raw.get("bank"), f"{name} bank")
    promotions = _load_promotions(raw, name, rows)
    return Side(name, suit, NULL_SQUARES[index], pieces, rows, bank, promotions)


def _load_piece(raw_piece: Any, name: str, suit: str, rows: list[TrailRow]) -> Piece:
    raw_piece = json_object(raw_piece, f"{name} piece")
    square = raw_piece["square"]
    if square is not None and square not in ALL_SQUARES:
        raise StateError(f"{name}: no square {square!r}")
    kind = raw_piece["kind"]
    if kind not in ("pawn", "coin"):
        raise StateError(f"{name}: piece kind {kind!r} is not pawn or coin")
    marks = raw_piece.get("marks")
    piece = Piece(
        id=whole_number(raw_piece["id"], f"{name} piece id", 0),
        kind=kind,
        square=square,
        age=whole_number(raw_piece["age"], f"{name} piece age", 0),
        marks=[] if marks is None else [
            whole_number(m, f"{name} marks", 0, len(rows) - 1)
            for m in json_list(marks, f"{name} marks")
        ],
    )
    if marks is None and square is not None:
        # A GM editing by hand may leave out the marks of pieces in
        # play: they are the first ``age`` rows of the live trail.
        piece.marks = Side(name, suit, "", [], rows).active_rows()[: piece.age]
    return piece


def _load_promotions(raw: dict, name: str, rows: list[TrailRow]) -> list[Promotion]:
    """The promotions, each of struck rows that no other promotion holds."""
    promotions = []
    taken: set[int] = set()
    for item in json_list(raw.get("promotions", []), f"{name} promotions"):
        item = json_object(item, f"{name} promotion")
        struck = [whole_number(r, f"{name} promotion rows", 0, len(rows) - 1)
                  for r in json_list(item["rows"], f"{name} promotion rows")]
        if not struck or any(not rows[r].struck or r in taken for r in struck):
            raise StateError(f"{name} promotions: rows must be struck rows, each "
                             "in one promotion only")
        taken.update(struck)
        promotions.append(Promotion(whole_number(item["turn"], f"{name} promotion turn", 1),
                                    tuple(struck)))
    return promotions


def check_position(state: State) -> None:
    """Raise StateError unless the position is one the rules can reach."""
    tiles = sorted(t.code for t in [*state.board.values(), state.throne])
    if tiles != sorted(Tile(s, v).code for s in state.suits for v in range(1, 6)):
        raise StateError(
            "board and throne must hold the ace..5 of both suits, each once"
        )
    if state.end_reason is not None and not isinstance(state.end_reason, str):
        raise StateError("end_reason must be text")
    banks_off = [side.bank is None for side in state.sides]
    if banks_off != [state.time_bank is None] * 2:
        raise StateError("with time_bank set both players need a bank; without, neither")
    seen: dict[str, str] = {}
    for index, side in enumerate(state.sides):
        ids = [p.id for p in side.pieces]
        if len(set(ids)) != len(ids):
            raise StateError(f"{side.name}: two pieces share an id")
        pawns = [p for p in side.pieces if p.in_play and p.kind == "pawn"]
        if len(pawns) > 1:
            raise StateError(f"{side.name} has more than one pawn in play")
        if not pawns and state.winner != 1 - index:
            raise StateError(f"{side.name} has no pawn but has not lost")
        coins = side.coins()
        if len(coins) > state.coins:
            raise StateError(f"{side.name} has more coins in play than {state.coins}")
        active = side.active_rows()
        if pawns and pawns[0].age != len(active):
            raise StateError(
                f"{side.name}: the pawn's age {pawns[0].age} must equal the "
                f"{len(active)} live trail rows"
            )
        other_null = NULL_SQUARES[1 - index]
        for piece in side.pieces:
            if not piece.in_play:
                continue
            if piece.square in seen:
                raise StateError(f"two pieces stand on {piece.square}")
            seen[piece.square] = side.name
            if piece.square == other_null:
                raise StateError(f"{side.name} has a piece on the other null tile")
            if piece.age > len(active):
                raise StateError(f"{side.name}: a piece is older than its trail")
            want = side.null if piece.age == 0 else side.rows[active[piece.age - 1]].square
            if piece.square != want:
                raise StateError(
                    f"{side.name}: the {piece.kind} of age {piece.age} must stand on "
                    f"{want} (its trail), not {piece.square}"
                )
            if piece.marks != active[: piece.age]:
                raise StateError(f"{side.name}: the marks of piece {piece.id} do not fit its age")
        ages = [p.age for p in coins]
        if len(set(ages)) != len(ages):
            raise StateError(f"{side.name}: two coins have the same age")
