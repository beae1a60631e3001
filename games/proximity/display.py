"""Proximity as players see it: the ASCII board, the trail table, HELP.

Pure functions of a state.  Proximity hides nothing, so the viewer only
changes who is marked "you".
"""

from __future__ import annotations

from games.clock import bank_words
from games.text import Plural, Text, mark

from .moves import Sacrifice, age_below, coin_target, legal_orders, open_sum
from .state import NULL_SQUARES, SUIT_NAME, Piece, Side, State
from .words import suit_words, tile_words

CELL = 12  # inner width of a drawn tile, at least: it grows so that no label is cut
WIDTH = 72
LIVE_ROWS_SHOWN = 40  # PX10: past this many live rows the trail table is shortened


def piece_label(side: Side, piece: Piece) -> str:
    letter = "P" if piece.kind == "pawn" else "c"
    return f"{letter} {SUIT_NAME[side.suit][:-1]} {piece.age}"


def _contents(state: State, square: str) -> tuple[str, str]:
    found = state.occupant(square)
    label = "" if found is None else piece_label(state.sides[found[0]], found[1])
    return state.tile(square).label, label


def render_board(state: State, viewer: str | None = None) -> Text:
    squares = [*(f"{f}{r}" for r in "321" for f in "abc"), *NULL_SQUARES]
    longest = max(len(text) for sq in squares for text in _contents(state, sq))
    width = max(CELL, longest + 2)  # a space before and after: no label is ever cut

    def _cell(text: str) -> str:
        return f" {text:<{width - 1}}"

    rule = "+" + "+".join(["-" * width] * 3) + "+"
    pad = " " * 3
    null_pad = pad + " " * (width + 1)
    null_rule = null_pad + "+" + "-" * width + "+"

    def null_block(index: int) -> list[str]:
        tile, piece = _contents(state, NULL_SQUARES[index])
        return [null_rule, f"{null_pad}|{_cell(tile)}|", f"{null_pad}|{_cell(piece)}|"]

    def who(index: int) -> Text:
        side = state.sides[index]
        values = {"pad": null_pad, "square": NULL_SQUARES[index], "player": side.name,
                  "suit": suit_words(side.suit)}
        if viewer == side.name:
            return Text("{pad} {square}: {player} (you), {suit}", **values)
        return Text("{pad} {square}: {player}, {suit}", **values)

    lines = null_block(1)
    lines.append(pad + rule)
    for rank in "321":
        squares = [f"{f}{rank}" for f in "abc"]
        cells = [_contents(state, sq) for sq in squares]
        lines.append(f"{rank}  |" + "|".join(_cell(c[0]) for c in cells) + "|")
        lines.append(f"{pad}|" + "|".join(_cell(c[1]) for c in cells) + "|")
        lines.append(pad + rule)
    lines += null_block(0)[1:] + [null_rule]
    files = pad + "".join(f"{f:^{width + 1}}" for f in "abc")
    return Text("{top}\n{drawing}\n{bottom}\n{files}\n{throne}\n{total}", top=who(1),
                drawing="\n".join(line.rstrip() for line in lines), bottom=who(0), files=files.rstrip(),
                throne=Text("Throne tile: {tile} (off the board, always open)", tile=tile_words(state.throne)),
                total=Text("Open sum: {total}", total=open_sum(state)))


def trail_table(state: State, index: int, full: bool = False) -> list[str]:
    """RULINGS PX9 and PX10: the notepaper of "Noting Moves" for one suit.

    Each promotion's struck rows make one line (how many, which turn); the
    ``full`` table lists every struck row below it too, marked as struck.
    Past LIVE_ROWS_SHOWN live rows, unless ``full``, only the rows where
    pieces stand and the rows they move to next are shown, and each stretch
    left out is counted on a line of its own.
    """
    side = state.sides[index]
    if not side.rows:
        return [Text("Trail of {player} ({suit}): no tiles yet.", player=side.name, suit=suit_words(side.suit))]
    prefix = 22
    columns = _columns(side, (WIDTH - prefix) // 2)
    status = {True: {"pawn": "P", "coin": "c"}, False: {"pawn": "-", "coin": "-"}}
    tens = []
    if any(p.id >= 10 for p in columns):  # two-digit piece numbers read downwards
        tens = [f"{'':>{prefix}}" + "".join(f" {p.id // 10 or ' '}" for p in columns)]
    active = side.active_rows()
    short = not full and len(active) > LIVE_ROWS_SHOWN
    # A sentence over two lines is two Texts, so that each language keeps the table's width.
    lines = [
        Text("Trail of {player} ({suit}): rows in the order the pawn made them,", player=side.name,
             suit=suit_words(side.suit)),
        Text("one column per piece by birth (0 = first pawn); o walked, @ now."),
    ]
    if short:
        lines.append(Text("{count} live rows: shown are those where pieces stand and", count=len(active)))
        lines.append(Text("those they move to next (PX10; the full table on request)."))
    lines += [
        *[line.rstrip() for line in tens],
        # the word is five letters in each catalogue (piece, Stein, pièce): the columns stay put
        Text("{pad}piece{numbers}", pad=" " * (prefix - 5), numbers="".join(f" {p.id % 10}" for p in columns)),
        f"{'':>{prefix}}" + "".join(f" {status[p.in_play][p.kind]}" for p in columns),
    ]
    shown = _rows_in_use(side, active) if short else set(active)
    return lines + _rows(state, side, columns, shown, full)


def _columns(side, room: int) -> list:
    """The pieces given a column: all, or past ``room`` every piece in play, then the most
    recently born of the others."""
    columns = list(side.pieces)
    if len(columns) > room:
        keep = {p.id for p in columns if p.in_play}
        for piece in sorted(columns, key=lambda p: -p.id):
            if len(keep) < room:
                keep.add(piece.id)
        columns = [p for p in columns if p.id in keep]
    return columns


def _rows_in_use(side, active: list[int]) -> set[int]:
    """The live rows where pieces stand, and those coins move to next (PX10)."""
    shown = set()
    for piece in side.pieces:
        if piece.in_play and piece.age:
            shown.add(active[piece.age - 1])  # where it stands
        if piece.in_play and piece.kind == "coin" and piece.age < len(active):
            shown.add(active[piece.age])  # where it goes next
    return shown


def _rows(state: State, side, columns: list, shown: set[int], full: bool) -> list[str]:
    """The table's rows in trail order: each promotion's struck rows as its line (and, ``full``,
    each struck row), the ``shown`` live rows, and a count of each stretch left out."""
    lines: list[str] = []
    promotion_of = {row: p for p in side.promotions for row in p.rows}
    skipped = 0
    number = 0
    while number < len(side.rows):
        row = side.rows[number]
        if row.struck:
            if skipped:
                lines.append(_skipped(skipped))
                skipped = 0
            end = number
            while end < len(side.rows) and side.rows[end].struck:
                end += 1
            lines += _struck_lines(range(number, end), promotion_of)
            if full:  # the full table keeps every struck row too, marked as struck
                lines += [_row_line(state, side, struck, columns, "struck") for struck in range(number, end)]
            number = end
            continue
        if number not in shown:
            skipped += 1
            number += 1
            continue
        if skipped:
            lines.append(_skipped(skipped))
            skipped = 0
        lines.append(_row_line(state, side, number, columns, ""))
        number += 1
    if skipped:
        lines.append(_skipped(skipped))
    return lines


def _row_line(state: State, side, number: int, columns: list, note: str) -> str:
    """One row of a trail table: its number, square and tile, ``note`` ("struck" or ""), and
    each piece's mark (o walked, @ stands there now)."""
    row = side.rows[number]
    tile = state.tile(row.square).label
    text = f"{number + 1:>3} {row.square} {tile:<7} {note:<6} "
    for piece in columns:
        mark = " "
        if number in piece.marks:
            mark = "@" if piece.in_play and piece.marks[-1] == number else "o"
        text += " " + mark
    return text.rstrip()


def full_trail(state: State) -> list[str]:
    """RULINGS PX10's TRAIL: each suit's table with every row, the struck ones marked as struck
    under a line naming their promotion, the tables one after the other."""
    lines = [Text("The full trail tables (PX10): every row; struck rows are marked"),
             Text("struck, under a line naming the promotion that struck them.")]
    for index in range(len(state.sides)):
        lines += ["", *trail_table(state, index, full=True)]
    return lines


def _skipped(count: int) -> str:
    return Plural("    ... {n} live row not shown ...", "    ... {n} live rows not shown ...", n=count)


def _struck_lines(rows: range, promotion_of: dict) -> list[str]:
    """One line per promotion among a stretch of struck rows (PX10), by first row."""
    groups: dict[object, list[int]] = {}
    for row in rows:
        groups.setdefault(promotion_of.get(row), []).append(row)
    lines = []
    for promotion, numbers in sorted(groups.items(), key=lambda item: item[1][0]):
        values = {"count": len(numbers), "first": numbers[0] + 1, "last": numbers[-1] + 1}
        if promotion is None:
            lines.append(Text("    row {first}: {count} struck by a promotion", **values) if len(numbers) == 1
                         else Text("    rows {first}-{last}: {count} struck by a promotion", **values))
        else:
            lines.append(Text("    row {first}: {count} struck by the promotion on turn {turn}",
                              turn=promotion.turn, **values) if len(numbers) == 1
                         else Text("    rows {first}-{last}: {count} struck by the promotion on turn {turn}",
                                   turn=promotion.turn, **values))
    return lines


def format_seconds(seconds: float) -> str:
    whole = max(0, int(seconds))
    days, rest = divmod(whole, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    clock = f"{hours:02d}:{minutes:02d}:{secs:02d}"
    return f"{days}d {clock}" if days else clock


def view(state: State, viewer: str | None = None) -> dict:
    limit = open_sum(state)
    over = state.winner is not None or state.drawn
    players = []
    for index, side in enumerate(state.sides):
        chain = side.chain()
        pieces = []
        for at, piece in enumerate(chain):
            below = age_below(chain, at)
            pieces.append({
                "kind": piece.kind,
                "square": piece.square,
                "tile": tile_words(state.tile(piece.square)),
                "age": piece.age,
                "below": below,
                "in_proximity": piece.age - below <= limit,
                "next": coin_target(side, piece) if piece.kind == "coin" else None,
            })
        in_play = sum(1 for p in side.pieces if p.in_play and p.kind == "coin")
        players.append({
            "name": side.name,
            "you": side.name == viewer,
            "suit": side.suit,
            "suit_name": suit_words(side.suit),
            "null": side.null,
            "first": side.suit == state.throne.suit,
            "pieces": pieces,
            "coins_in_play": in_play,
            "coins_left": state.coins - in_play,
            "bank": side.bank,
            "bank_text": None if side.bank is None else format_seconds(side.bank),
            "bank_words": None if side.bank is None else bank_words(side.bank),
            "trail": [
                {"square": r.square, "tile": state.tile(r.square).label, "struck": r.struck}
                for r in side.rows
            ],
            "trail_table": trail_table(state, index),
        })
    mover = None if over else state.sides[state.mover].name
    orders = [] if over else legal_orders(state, state.mover)
    return {
        "throne": state.throne.label,
        "open_sum": limit,
        "board": {sq: tile.label for sq, tile in state.board.items()},
        "players": players,
        "moves": state.moves,
        "to_move": mover,
        "must_sacrifice": bool(orders) and isinstance(orders[0], Sacrifice),
        "last": list(state.last),
        "winner": None if state.winner is None else state.sides[state.winner].name,
        "end_reason": state.end_reason,
        "time_bank": state.time_bank,
        "clock_start": state.clock_start,
    }


NOTATION = mark("""\
Proximity orders (one per mail; case and spaces do not matter):

  P b2     move your pawn to b2 (an open tile next to it)
  C a1     move your coin on a1 to its trail tile (shown as 'next')
  X c3     sacrifice your piece on c3 (only with no legal move)

Also understood: 'pawn to b2', 'coin a1', 'sacrifice c3', and a1-b2
(the piece on a1 goes to b2).

Squares: the 3x3 board is a1..c3, files a-c from the left, rows 1-3
from the bottom.  The null tiles are b0 (below b1, first listed
player) and b4 (above b3, second listed player).  Tiles are shown as
suit and value (A = ace = 1, null = 0).  The throne tile lies off the
board.  Pieces are shown as P (pawn) or c (coin), suit and age.

The report's trail table is your notepaper: each row is a tile your
pawn entered, in order; a coin of age n goes next to row n+1 (struck
rows skipped).  A promotion's struck rows show as one line; past 40
live rows only the rows where pieces stand and the rows they go to
next are shown, the rest counted (PX10); send TRAIL (below your GAME
line) for the full table, every row.  The open sum is the total of
every tile with no piece on it, throne included.
""")

TIME_BANK = mark(
    "The time bank (PX8), when the game has one: your bank runs from the\n"
    "moment the report after the previous move goes out until your order\n"
    "arrives; when it reaches zero you lose.\n"
)


def help_text() -> Text:
    from games import rulings  # the rulings' text, only when HELP is asked for

    return Text("{notation}\n{title}\n\n{rulings}\n{bank}", notation=Text(NOTATION),
                title=Text("Rulings that apply to this game:"), rulings=rulings.help_block("PX", WIDTH - 2),
                bank=Text(TIME_BANK))
