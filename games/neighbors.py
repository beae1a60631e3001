"""Neighbors (Rob Nierse): shared chess pieces, every move a capture.

RULINGS NB1-NB5 and G1-G5.  Sequential; 2 to 6 players.

A removed player (G5) is skipped in the turn order from then on: Neighbors
has no missing order but a pass, and passing is not allowed (NB2), so the
seat simply takes no more turns.  The game goes on while two or more
players remain and ends when one remains: with fewer than two there is
nobody to take turns with (NB3).  A removed player is never a winner.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from games import rulings
from games.base import (
    AmbiguousOrderError,
    Event,
    Game,
    IllegalOrderError,
    Option,
    OptionError,
    OrderSyntaxError,
    Result,
    StateError,
    dump_left,
    load_left,
    parse_bool,
    seeded_rng,
    single_order_line,
)

FILES = "abcdefg"
ROWS = 6
PIECE_NAMES = {"Q": "queen", "R": "rook", "B": "bishop", "N": "knight", "F": "ferz"}
# NB1: the 42 pieces of the deal.
PIECE_SET = "Q" * 8 + "R" * 8 + "B" * 8 + "N" * 8 + "F" * 10
# NB4: values when three or more play.
PIECE_VALUES = {"F": 1, "N": 2, "B": 3, "R": 5, "Q": 8}

ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))

Square = tuple[int, int]  # (file 0..6, row 0..5)

_SQUARE = r"([a-g])\s*([1-6])"
_FULL = re.compile(rf"^([qrbnf])?\s*{_SQUARE}\s*[x:\-]?\s*{_SQUARE}$", re.I)
_SHORT = re.compile(rf"^([qrbnf])?\s*[x:]\s*{_SQUARE}$", re.I)


def square_name(square: Square) -> str:
    return f"{FILES[square[0]]}{square[1] + 1}"


SQUARE_NAMES = {(f, r): square_name((f, r)) for f in range(7) for r in range(ROWS)}


def parse_square(letter: str, digit: str) -> Square:
    return (FILES.index(letter.lower()), int(digit) - 1)


@dataclass(frozen=True)
class Capture:
    """One move: the piece on ``source`` takes the piece on ``target``."""

    source: Square
    target: Square

    def __str__(self) -> str:
        return f"{square_name(self.source)}x{square_name(self.target)}"


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


def on_board(square: Square) -> bool:
    return 0 <= square[0] < 7 and 0 <= square[1] < ROWS


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


def _legal_pairs(state: NeighborsState) -> tuple[tuple[Square, Square], ...]:
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
    return [Capture(source, target) for source, target in _legal_pairs(state)]


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


def parse_layout(text: str) -> tuple[str, ...]:
    """Option layout: 42 characters, row 6 first, files a..g; QRBNF or '.'."""
    letters = re.sub(r"[\s/|]", "", text).upper()
    if len(letters) != 42 or set(letters) - set("QRBNF."):
        raise OptionError(
            "option layout: give 42 characters, row 6 first, files a..g, "
            "using Q R B N F and . for an empty square"
        )
    rows_top_first = [letters[i * 7:(i + 1) * 7] for i in range(ROWS)]
    return tuple("".join(reversed(rows_top_first)))


HELP = """\
NEIGHBORS: every piece belongs to everyone, and every move is a capture.

Orders: one capture per mail, from-square x to-square, any case:
    b4xd4      b4-d4      Rb4xd4      Rxd4 (when only one rook can)
Queens, rooks and bishops capture along lines as in chess and are
stopped by the first piece in the way; knights jump; a ferz (F) captures
one square diagonally.  Passing is not allowed.

Rulings this game follows:

"""


class Neighbors(Game):
    kind = "neighbors"
    title = "Neighbors"
    min_players = 2
    max_players = 6
    simultaneous = False
    state_version = 1
    options = {
        "layout": Option(None, "42 characters, row 6 first, files a..g, QRBNF or '.'"),
        "neighbors_rule": Option("false", "NB5: capture only from the last landing's file or row"),
    }

    def convert_options(self, raw):
        layout = raw.get("layout")
        return {
            "layout": parse_layout(layout) if layout else None,
            "neighbors_rule": parse_bool("neighbors_rule", raw.get("neighbors_rule") or "false"),
        }

    def setup(self, players, options, seed):
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
        )

    # --- orders ---------------------------------------------------------------
    def read_order(self, state, player, text):
        line = single_order_line(
            text, "no capture given; write it like b4xd4",
            "one capture per mail, please; this mail has {count} order lines: {lines}",
        )
        return self.parse_capture(state, line)

    def parse_capture(self, state: NeighborsState, text: str) -> Capture:
        compact = text.strip()
        full = _FULL.match(compact)
        if full:
            letter, f1, r1, f2, r2 = full.groups()
            capture = Capture(parse_square(f1, r1), parse_square(f2, r2))
            piece = state.at(capture.source)
            if letter and piece != letter.upper():
                found = PIECE_NAMES.get(piece, "nothing")
                raise IllegalOrderError(
                    f"{text}: there is a {found} on {square_name(capture.source)}, "
                    f"not a {PIECE_NAMES[letter.upper()]}"
                    if piece != "."
                    else f"{text}: {square_name(capture.source)} is empty",
                    legal=[str(c) for c in legal_captures(state)],
                )
            return capture
        short = _SHORT.match(compact)
        if short:
            letter, f2, r2 = short.groups()
            target = parse_square(f2, r2)
            matches = [
                c
                for c in legal_captures(state)
                if c.target == target and (not letter or state.at(c.source) == letter.upper())
            ]
            if len(matches) == 1:
                return matches[0]
            if not matches:
                raise IllegalOrderError(
                    f"{text}: no piece{' of that kind' if letter else ''} can capture on "
                    f"{square_name(target)}",
                    legal=[str(c) for c in legal_captures(state)],
                )
            raise AmbiguousOrderError(
                f"{text} is ambiguous: " + ", ".join(map(str, matches)),
                candidates=[str(c) for c in matches],
            )
        raise OrderSyntaxError(
            f"{text!r} is not a capture; write from-square x to-square, like b4xd4"
        )

    def check(self, state: NeighborsState, capture: Capture) -> None:
        """Raise IllegalOrderError, with the reason and the legal captures, unless legal."""
        if is_legal(state, capture):
            return
        names = [str(c) for c in legal_captures(state)]
        piece = state.at(capture.source)
        src, dst = square_name(capture.source), square_name(capture.target)
        if piece == ".":
            reason = f"there is no piece on {src}"
        elif capture.source == capture.target:
            reason = "a piece cannot capture itself"
        elif state.at(capture.target) == ".":
            reason = f"{dst} is empty, and every move must be a capture"
        elif not may_move_from(state, capture.source):
            landing = square_name(state.moves[-1].target)
            reason = (
                f"the neighbors rule allows only pieces on the file or row of {landing}"
            )
        else:
            reason = f"the {PIECE_NAMES[piece]} on {src} cannot capture on {dst}"
        raise IllegalOrderError(f"{capture}: {reason}", legal=names)

    def step(self, state, player, order, now):
        self.check(state, order)
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
                f"{player}: {move.notation()} takes a {PIECE_NAMES[taken]}",
                kind="capture",
                data={"player": player, "move": move.notation(), "taken": taken},
            )
        ]
        if self.is_over(new):
            events.append(
                Event(f"{new.player_to_move} has no legal capture: the game is over", kind="end")
            )
        return Result(new, events)

    def legal_orders(self, state, player):
        if self.is_over(state) or player != state.player_to_move:
            return []
        return [f"{SQUARE_NAMES[source]}x{SQUARE_NAMES[target]}" for source, target in _legal_pairs(state)]

    # --- questions ----------------------------------------------------------
    def players(self, state):
        return list(state.players)

    def turn(self, state):
        return state.turn

    def to_move(self, state):
        return [] if self.is_over(state) else [state.player_to_move]

    def is_over(self, state):
        # NB3; and with fewer than two players left there is nobody to take turns with.
        return len(state.remaining) < 2 or not has_capture(state)

    def leave(self, state, player, now):
        """G5: the seat is skipped in the turn order; one player left ends the game."""
        self.check_leave(state, player)
        was_to_move = state.player_to_move == player
        new = replace(state, left=state.left + (player,))
        remaining = new.remaining
        if len(remaining) < 2:
            winners = self.winners(new)
            text = (f"Only {remaining[0]} remains, so the game is over (NB3: nobody is "
                    f"left to take turns with). {', '.join(winners)} wins."
                    if remaining else "Nobody remains, so the game is over.")
            return Result(new, [self.left_event(player),
                                Event(text, kind="end", data={"winners": winners})])
        events = [self.left_event(player, "Their seat is skipped in the turn order from now on.")]
        if was_to_move:  # the board is unchanged, so captures are still left (NB3)
            events.append(Event(f"{new.player_to_move} is to move.", kind="info",
                                data={"player": new.player_to_move}))
        return Result(new, events)

    def scores(self, state):
        return score_of(state)

    # --- presentation -----------------------------------------------------
    def render_board(self, state, viewer=None):
        files = "    " + " ".join(FILES)
        lines = [files]
        for row in reversed(range(ROWS)):
            cells = " ".join(state.at((f, row)) for f in range(7))
            lines.append(f" {row + 1}  {cells}  {row + 1}")
        lines.append(files)
        return "\n".join(lines)

    def view(self, state, viewer=None):
        captured = {
            p: {PIECE_NAMES[k]: state.captured.get(p, "").count(k) for k in PIECE_NAMES}
            for p in state.players
        }
        last = state.moves[-1] if state.moves else None
        restriction = None
        if state.neighbors_rule and last and not self.is_over(state):
            t = last.target
            restriction = f"file {FILES[t[0]]} or row {t[1] + 1}"
        return {
            "captured": captured,
            "piece_names": list(PIECE_NAMES.values()),
            "pieces_left": sum(1 for x in state.board if x != "."),
            "last_move": last.notation() if last else None,
            "last_player": last.player if last else None,
            "neighbors_rule": state.neighbors_rule,
            "restriction": restriction,
            "two_player": len(state.players) == 2,
            "left": list(state.left),
        }

    def help_text(self):
        return HELP + rulings.help_block("NB")

    # --- JSON -----------------------------------------------------------------
    def dump(self, state):
        return dump_left({
            "version": self.state_version,
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
        }, state.left)

    def load(self, data):
        self.check_version(data)
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
        )


GAME = Neighbors()
