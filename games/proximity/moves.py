"""Proximity's rules on a State: what may move, and what a move does.

Every function that changes a state changes the one it is given; the Game
class (``rules``) hands them a copy (the service keeps the old state if
anything fails).
Problem functions return the reason an order is illegal, in words for a
player, or None when it is legal.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.base import Event
from games.text import Text

from .state import (
    END_REASONS,
    BOARD_SQUARES,
    NULL_SQUARES,
    Piece,
    Promotion,
    Side,
    State,
    TrailRow,
    adjacent,
)
from .lastmove import LAST_LINES, promotion_line
from .words import THE_PIECE, ordinal, suit_words, tile_words


@dataclass(frozen=True)
class PawnMove:
    to: str

    def __str__(self) -> str:
        return f"P {self.to}"


@dataclass(frozen=True)
class CoinMove:
    frm: str  # the square the coin stands on; its destination is its trail tile

    def __str__(self) -> str:
        return f"C {self.frm}"


@dataclass(frozen=True)
class Sacrifice:
    square: str

    def __str__(self) -> str:
        return f"X {self.square}"


Order = PawnMove | CoinMove | Sacrifice


def occupied_squares(state: State) -> set[str]:
    return {p.square for side in state.sides for p in side.pieces if p.square is not None}


def open_sum(state: State, occupied: set[str] | None = None) -> int:
    """Values of every tile with no piece on it, throne included (PX4).

    Sequential play means the current position is the start of the turn.
    """
    if occupied is None:
        occupied = occupied_squares(state)
    free = sum(state.board[sq].value for sq in BOARD_SQUARES if sq not in occupied)
    return free + state.throne.value


def age_below(chain: list[Piece], index: int) -> int:
    """Age of the next piece down the chain from chain[index], or 0 (PX4)."""
    return chain[index + 1].age if index + 1 < len(chain) else 0


def describe(state: State, square: str) -> Text:
    found = state.occupant(square)
    if found is None:
        return Text("nothing")
    index, piece = found
    return Text(THE_PIECE[piece.kind], suit=suit_words(state.sides[index].suit))


def proximity_problem(side: Side, piece: Piece, limit: int) -> str | None:
    chain = side.chain()
    below = age_below(chain, chain.index(piece))
    if piece.age - below <= limit:
        return None
    values = {"age": piece.age, "below": below, "gap": piece.age - below, "limit": limit}
    if below and piece.kind == "pawn":
        return Text("your pawn (age {age}) is too old to move: the oldest coin is age {below}, "
                    "{age}-{below}={gap} is more than the open sum {limit}", **values)
    if below:
        return Text("your coin (age {age}) is too old to move: the next younger coin is age {below}, "
                    "{age}-{below}={gap} is more than the open sum {limit}", **values)
    if piece.kind == "pawn":
        return Text("your pawn (age {age}) is too old to move: it has no younger coin, so it counts "
                    "from 0, and {age} is more than the open sum {limit}", age=piece.age, limit=limit)
    return Text("your coin (age {age}) is too old to move: it has no younger coin, so it counts "
                "from 0, and {age} is more than the open sum {limit}", age=piece.age, limit=limit)


def coin_target(side: Side, coin: Piece) -> str | None:
    """The tile the pawn entered on its (age+1)-th move, if it has (PX5)."""
    active = side.active_rows()
    return side.rows[active[coin.age]].square if coin.age < len(active) else None


def pawn_problem(state: State, index: int, to: str) -> str | None:
    side = state.sides[index]
    pawn = side.pawn()
    if to == "throne":
        return Text("a pawn may never move onto the throne tile")
    if to in NULL_SQUARES:
        return Text("{square} is a null tile, and a pawn may never move onto a null tile", square=to)
    if to == pawn.square:
        return Text("your pawn already stands on {square}; a move takes it to an open tile next to "
                    "{square}", square=to)
    problem = proximity_problem(side, pawn, open_sum(state))
    if problem:
        return problem
    if not adjacent(pawn.square, to):
        return Text("{square} is not next to your pawn on {pawn}", square=to, pawn=pawn.square)
    if state.occupant(to):
        return Text("{square} is occupied by {piece}", square=to, piece=describe(state, to))
    return None


def coin_problem(state: State, index: int, frm: str, to: str | None = None) -> str | None:
    side = state.sides[index]
    coin = next((p for p in side.coins() if p.square == frm), None)
    if coin is None:
        return Text("there is no coin of yours on {square}", square=frm)
    target = coin_target(side, coin)
    if target is None:
        return Text("the coin on {square} (age {age}) has no trail tile yet: it needs the tile your "
                    "pawn enters on its {ordinal} move", square=frm, age=coin.age,
                    ordinal=ordinal(coin.age + 1))
    if to is not None and to != target:
        return Text("{square} is not the coin's trail tile: the coin on {coin} may only go to {target}",
                    square=to, coin=frm, target=target)
    problem = proximity_problem(side, coin, open_sum(state))
    if problem:
        return problem
    if state.occupant(target):
        return Text("the coin's trail tile {square} is occupied by {piece}", square=target,
                    piece=describe(state, target))
    return None


def legal_moves(state: State, index: int) -> list[Order]:
    """Pawn moves then coin moves, each by square.

    The same tests as pawn_problem/coin_problem, done once for all candidates
    because random play calls this on every step (the tests check both agree).
    """
    side = state.sides[index]
    occupied = occupied_squares(state)
    limit = open_sum(state, occupied)
    chain = side.chain()
    moves: list[Order] = []
    pawn = chain[0]
    if pawn.age - age_below(chain, 0) <= limit:
        moves += sorted(
            (PawnMove(sq) for sq in BOARD_SQUARES
             if sq not in occupied and adjacent(pawn.square, sq)),
            key=str,
        )
    active = side.active_rows()
    coins = []
    for at in range(1, len(chain)):
        coin = chain[at]
        if coin.age < len(active) and coin.age - age_below(chain, at) <= limit:
            if side.rows[active[coin.age]].square not in occupied:
                coins.append(CoinMove(coin.square))
    return moves + sorted(coins, key=str)


def sacrifice_problem(state: State, index: int, square: str) -> str | None:
    side = state.sides[index]
    found = state.occupant(square)
    if found is None or found[0] != index:
        return Text("there is no piece of yours on {square}", square=square)
    if legal_moves(state, index):
        return Text("you may sacrifice only when you have no legal move")
    piece = found[1]
    if piece.kind == "pawn":
        return None
    chain = side.chain()
    at = chain.index(piece)
    above, below = chain[at - 1], age_below(chain, at)
    limit = open_sum(state)
    if above.age - below <= limit:
        return None
    return Text("sacrificing the coin on {square} would break the chain: the piece above it (age "
                "{above}) would be {gap} older than the piece below it (age {below}), more than the "
                "open sum {limit}", square=square, above=above.age, gap=above.age - below, below=below,
                limit=limit)


def legal_orders(state: State, index: int) -> list[Order]:
    moves = legal_moves(state, index)
    if moves:
        return moves
    return [
        Sacrifice(p.square)
        for p in state.sides[index].chain()
        if sacrifice_problem(state, index, p.square) is None
    ]


def order_problem(state: State, index: int, order: Order) -> str | None:
    if isinstance(order, PawnMove):
        return pawn_problem(state, index, order.to)
    if isinstance(order, CoinMove):
        return coin_problem(state, index, order.frm)
    return sacrifice_problem(state, index, order.square)


# --- doing it -----------------------------------------------------------------


def step(side: Side, piece: Piece, row: int) -> None:
    piece.square = side.rows[row].square
    piece.age += 1
    piece.marks.append(row)


def apply(state: State, index: int, order: Order) -> list[Event]:
    """Carry out a legal order for side ``index``; return what happened."""
    side = state.sides[index]
    name = side.name
    if isinstance(order, Sacrifice):
        return sacrifice(state, index, order.square)
    if isinstance(order, PawnMove):
        pawn = side.pawn()
        side.rows.append(TrailRow(order.to))
        step(side, pawn, len(side.rows) - 1)
        moved, dest = pawn, order.to
        text = Text(LAST_LINES["pawn"], player=name,
                    order=str(order), square=dest, tile=tile_words(state.tile(dest)), age=pawn.age)
    else:
        coin = next(c for c in side.coins() if c.square == order.frm)
        step(side, coin, side.active_rows()[coin.age])
        moved, dest = coin, coin.square
        text = Text(LAST_LINES["coin"], player=name,
                    order=str(order), source=order.frm, square=dest, tile=tile_words(state.tile(dest)),
                    age=coin.age)
    events = [Event(text, kind="move", data={"player": name, "order": str(order), "to": dest,
                                             "age": moved.age})]
    if state.tile(dest).value == 1:
        events += ace_check(state, state.tile(dest).suit)
    return events


def ace_sums(state: State, suit: str) -> list[int]:
    """Each player's sum for an ace of ``suit`` (PX6): other suit plus, ace suit minus."""
    sums = []
    for side in state.sides:
        total = 0
        for piece in side.pieces:
            if piece.in_play:
                tile = state.tile(piece.square)
                total += -tile.value if tile.suit == suit else tile.value
        sums.append(total)
    return sums


def ace_check(state: State, suit: str) -> list[Event]:
    sums = ace_sums(state, suit)
    names = [side.name for side in state.sides]
    head = {"suit": suit_words(suit), "first": names[0], "one": f"{sums[0]:+d}", "second": names[1],
            "two": f"{sums[1]:+d}"}
    data = {"suit": suit, "sums": dict(zip(names, sums))}
    if sums[0] == sums[1]:
        return [Event(Text(LAST_LINES["ace tie"], **head), kind="ace", data=data)]
    best = 0 if sums[0] > sums[1] else 1
    side = state.sides[best]
    in_play = sum(1 for p in side.pieces if p.in_play and p.kind == "coin")
    if in_play >= state.coins:
        return [Event(Text(LAST_LINES["ace no coin"], player=side.name, **head), kind="ace", data=data)]
    if state.occupant(side.null):
        return [Event(Text(LAST_LINES["ace null taken"], player=side.name, square=side.null, **head),
                      kind="ace", data=data)]
    new_id = max(p.id for p in side.pieces) + 1
    side.pieces.append(Piece(new_id, "coin", side.null, 0, []))
    return [Event(Text(LAST_LINES["ace coin"], player=side.name, square=side.null, **head), kind="coin",
                  data={**data, "player": side.name})]


def sacrifice(state: State, index: int, square: str) -> list[Event]:
    side = state.sides[index]
    name = side.name
    piece = state.occupant(square)[1]
    oldest = side.coins()[0] if side.coins() else None
    piece.square = None
    if piece.kind == "coin":
        return [Event(Text(LAST_LINES["sacrifice coin"], player=name,
                           square=square, age=piece.age),
                      kind="sacrifice", data={"player": name, "square": square})]
    events = [Event(Text(LAST_LINES["sacrifice pawn"], player=name, square=square,
                         age=piece.age),
                    kind="sacrifice", data={"player": name, "square": square})]
    if oldest is None:
        state.winner = 1 - index
        state.end_reason = Text(END_REASONS["sacrifice"], player=name)
        events.append(Event(Text(LAST_LINES["no coin to promote"], player=name,
                                 winner=state.sides[1 - index].name), kind="end"))
        return events
    # PX7: the oldest coin becomes the pawn with its age; the trail it has not
    # walked yet is struck, and the new pawn extends the trail from there.
    oldest.kind = "pawn"
    active = side.active_rows()
    struck = active[oldest.age:]
    for row in struck:
        side.rows[row] = TrailRow(side.rows[row].square, struck=True)
    if struck:
        # PX10: the report shows these rows as one line, with the turn.
        side.promotions.append(Promotion(state.moves + 1, tuple(struck)))
    events.append(Event(
        promotion_line(oldest.square, oldest.age, len(struck)),
        kind="promotion", data={"player": name, "square": oldest.square, "struck": len(struck)},
    ))
    return events
