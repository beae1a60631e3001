"""Proximity for a screen reader: the board as sentences and as a table.

The tiles row by row, each player's pieces by square (pawn first, then the coins oldest
first, with their ages and where each coin goes next), the last move, and the orders of
the player to move when they are few.  Proximity hides nothing.
"""

from __future__ import annotations

from games.text import Plural, Text

from .moves import coin_target, legal_orders, open_sum
from .state import NULL_SQUARES, Side, State
from .words import suit_words, tile_words

FEW = 12  # orders listed up to this many


def describe(state: State, over: bool) -> list[Text]:
    """The position in sentences; ``over``: the game has ended (no orders are listed)."""
    lines: list[Text] = [Text(
        "Proximity, move {turn}: a board of 3 by 3 tiles, a1 to c3, files a to c from the left, "
        "rows 1 to 3 from the bottom; the null tile b0 lies below b1, b4 above b3.",
        turn=state.moves + (0 if over else 1))]
    for row in "321":
        lines.append(Text("Row {row}: a{row} {a}, b{row} {b}, c{row} {c}.", row=row,
                          **{f: tile_words(state.tile(f + row)) for f in "abc"}))
    lines.append(Text("Throne tile: {tile}, off the board and always open. Open sum: {total}.",
                      tile=tile_words(state.throne), total=open_sum(state)))
    for index, side in enumerate(state.sides):
        lines += pieces(state, side, NULL_SQUARES[index])
    return lines + changes(state, over)


def pieces(state: State, side: Side, null: str) -> list[Text]:
    """One player's suit and null tile, then each piece of theirs on the board."""
    lines: list[Text] = [Text("{player} plays {suit}, null tile {null}.", player=side.name,
                              suit=suit_words(side.suit), null=null)]
    for piece in side.chain():
        if piece.kind == "pawn":
            lines.append(Text("{player}: pawn on {square}, age {age}.", player=side.name,
                              square=piece.square, age=piece.age))
            continue
        target = coin_target(side, piece)
        if target is None:
            lines.append(Text("{player}: coin on {square}, age {age}, with no trail tile ahead.",
                              player=side.name, square=piece.square, age=piece.age))
        else:
            lines.append(Text("{player}: coin on {square}, age {age}, next to {next}.",
                              player=side.name, square=piece.square, age=piece.age, next=target))
    in_play = sum(1 for p in side.pieces if p.in_play and p.kind == "coin")
    lines.append(Plural("{player} has {n} coin out of play.", "{player} has {n} coins out of play.",
                        n=state.coins - in_play, player=side.name))
    return lines


def changes(state: State, over: bool) -> list[Text]:
    """The last move, then who is to move and their orders when few (or the end)."""
    lines = [Text("Last move: {text}", text=text) if count == 0 else Text("Then: {text}", text=text)
             for count, text in enumerate(state.last)]
    if over:
        return lines + [Text("The game is over.")]
    mover = state.sides[state.mover].name
    orders = [str(order) for order in legal_orders(state, state.mover)]
    if len(orders) <= FEW:
        lines.append(Plural("{player} is to move and has {n} legal order: {orders}.",
                            "{player} is to move and has {n} legal orders: {orders}.",
                            n=len(orders), player=mover, orders=", ".join(orders)))
    else:
        lines.append(Plural("{player} is to move and has {n} legal order.",
                            "{player} is to move and has {n} legal orders.", n=len(orders), player=mover))
    return lines


def square_words(state: State, square: str) -> str:
    """A square in words: its tile, and the piece on it."""
    found = state.occupant(square)
    tile = tile_words(state.tile(square))
    if found is None:
        return tile
    side, piece = state.sides[found[0]], found[1]
    if piece.kind == "pawn":
        return Text("{tile}, pawn of {player}, age {age}", tile=tile, player=side.name, age=piece.age)
    return Text("{tile}, coin of {player}, age {age}", tile=tile, player=side.name, age=piece.age)


def board_table(state: State) -> tuple[list[str], list[list[str]]]:
    """Header ("Row", a, b, c) and one row per board row from the top, the null tiles b4 above
    and b0 below in file b ("-" where the row has no square)."""
    header: list[str] = [Text("Row"), "a", "b", "c"]
    rows = [["4", "-", square_words(state, "b4"), "-"]]
    for row in "321":
        rows.append([row, *(square_words(state, f + row) for f in "abc")])
    rows.append(["0", "-", square_words(state, "b0"), "-"])
    return header, rows
