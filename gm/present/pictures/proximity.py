"""A picture of a Proximity position (rules/proximity.txt, RULINGS PX1-PX2).

The 3x3 board a1..c3 (as the text report names it), the two null tiles below (b0, first
listed player) and above (b4, second), the throne tile to the right, and every piece on
its tile: a pawn or a coin in its player's colour with its age beside it.  Tiles are
tinted by suit (piecepack colours: Suns red, Moons black, Crowns green, Arms blue) and show
coordinate, value (A = ace, 0 = null) and suit.  The caption gives each player's colour
and suit, the open sum (PX4) and whose move it is, or who has won.  Proximity hides
nothing: the viewer only changes who is marked "(you)"; the same state draws the same bytes.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from games.proximity.moves import open_sum
from games.proximity.state import BOARD_SQUARES, NULL_SQUARES, SUIT_NAME, Piece, State, Tile
from games.text import Plural, Text, mark
from gm.present.pictures.draw import drawn, BACKGROUND, GRID, INK, blend, font, player_colour, said, text

Colour = tuple[int, int, int]

TILE = 76  # side of a drawn tile, in pixels
PITCH = TILE + 4  # tile plus the gap between tiles of the 3x3
MARGIN = 14
RANK_GUTTER = 18  # room for the row numbers 1-3 left of the board
NULL_GAP = 10  # extra gap between the 3x3 and a null tile: the nulls lie outside it
THRONE_GAP = 26  # between the board and the throne tile

BOARD_LEFT = MARGIN + RANK_GUTTER
TOP_NULL_Y = MARGIN  # top edge of b4
BOARD_TOP = TOP_NULL_Y + TILE + NULL_GAP
BOARD_BOTTOM = BOARD_TOP + 2 * PITCH + TILE
BOTTOM_NULL_Y = BOARD_BOTTOM + NULL_GAP
FILES_Y = BOTTOM_NULL_Y + TILE + 4  # the file letters a-c under everything
CAPTION_Y = FILES_Y + 18
CAPTION_LINE = 17
THRONE_X = BOARD_LEFT + 2 * PITCH + TILE + THRONE_GAP
WIDTH = THRONE_X + TILE + MARGIN
HEIGHT = CAPTION_Y + 2 * CAPTION_LINE + MARGIN

# Piecepack suit colours; a tile is a light tint of its suit's colour.
SUIT_COLOURS: dict[str, Colour] = {
    "suns": (204, 37, 41),
    "moons": (40, 40, 40),
    "crowns": (0, 135, 68),
    "arms": (34, 84, 196),
}
TINT = 0.2  # how much of the suit colour a tile's face gets
VALUE_TEXT = {0: "0", 1: "A", 2: "2", 3: "3", 4: "4", 5: "5"}
THRONE = "throne"


def suit_colour(suit: str) -> Colour:
    return SUIT_COLOURS[suit]


def tile_colour(suit: str) -> Colour:
    """The face colour of a tile of ``suit`` (what an empty tile shows at its centre)."""
    return blend(SUIT_COLOURS[suit], TINT)


def tile_origin(name: str) -> tuple[int, int]:
    """Top-left corner of the tile ``name``: a1..c3, b0, b4 or "throne"."""
    if name == THRONE:
        return THRONE_X, BOARD_TOP + PITCH
    if name not in BOARD_SQUARES and name not in NULL_SQUARES:
        raise ValueError(f"no tile {name!r}: a1..c3, b0, b4 or {THRONE!r}")
    column, row = "abc".index(name[0]), int(name[1])
    x = BOARD_LEFT + column * PITCH
    if row == 0:
        return x, BOTTOM_NULL_Y
    if row == 4:
        return x, TOP_NULL_Y
    return x, BOARD_TOP + (3 - row) * PITCH


def tile_centre(name: str) -> tuple[int, int]:
    """Pixel centre of the tile ``name`` (a1..c3, b0, b4 or "throne")."""
    x, y = tile_origin(name)
    return x + TILE // 2, y + TILE // 2


def _fit(text: str, width: float, size: int) -> str:
    """``text`` cut with "..." so that it fits ``width`` pixels at ``size``."""
    face = font(size)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "...") > width:
        text = text[:-1]
    return text.rstrip() + "..."


def _tile(image: Image.Image, pen: ImageDraw.ImageDraw, name: str, tile: Tile, label: str) -> None:
    x, y = tile_origin(name)
    colour = suit_colour(tile.suit)
    pen.rectangle((x, y, x + TILE - 1, y + TILE - 1), fill=tile_colour(tile.suit),
                  outline=colour, width=2)
    text(image, (x + 5, y + 4), label, 11, INK, "la")
    text(image, (x + TILE - 6, y + 3), VALUE_TEXT[tile.value], 17, colour, "ra")
    suit = SUIT_NAME[tile.suit] if tile.value else f"{SUIT_NAME[tile.suit]} null"
    text(image, (x + TILE // 2, y + TILE - 4), suit, 10, colour, "md")


def _pawn(pen: ImageDraw.ImageDraw, cx: int, cy: int, colour: Colour) -> None:
    """A pawn's silhouette (head, body, foot) around (cx, cy), which the body covers."""
    pen.ellipse((cx - 7, cy - 20, cx + 7, cy - 6), fill=colour, outline=INK)
    pen.polygon([(cx - 5, cy - 8), (cx + 5, cy - 8), (cx + 11, cy + 11), (cx - 11, cy + 11)],
                fill=colour, outline=INK)
    pen.rectangle((cx - 14, cy + 10, cx + 14, cy + 15), fill=colour, outline=INK)


def _coin(pen: ImageDraw.ImageDraw, cx: int, cy: int, colour: Colour) -> None:
    """A coin: a disc in the player's colour with a white ring, its centre plain colour."""
    pen.ellipse((cx - 16, cy - 16, cx + 16, cy + 16), fill=colour, outline=INK)
    pen.ellipse((cx - 12, cy - 12, cx + 12, cy + 12), outline=BACKGROUND, width=2)


def _piece(image: Image.Image, pen: ImageDraw.ImageDraw, square: str, piece: Piece, colour: Colour) -> None:
    cx, cy = tile_centre(square)
    if piece.kind == "pawn":
        _pawn(pen, cx, cy, colour)
    else:
        _coin(pen, cx, cy, colour)
    # The age in a white badge at the piece's lower right, clear of its centre.
    bx, by = cx + 21, cy + 12
    pen.ellipse((bx - 9, by - 9, bx + 9, by + 9), fill=BACKGROUND, outline=colour, width=2)
    text(image, (bx, by), str(piece.age), 11 if piece.age < 100 else 8, INK, "mm")


def view_key(state: State, viewer: str | None) -> str | None:
    """What the picture shows of ``viewer``'s own: "(you)" beside their side's name."""
    return viewer if any(side.name == viewer for side in state.sides) else None


# The caption of a game that ended, by what follows it (the reason on the next line, or nothing).
OVER_DRAWN = {".": mark("Game over, {moves}: drawn by agreement."),
              ":": mark("Game over, {moves}: drawn by agreement:")}
OVER_WON = {".": mark("Game over, {moves}: {name} wins."), ":": mark("Game over, {moves}: {name} wins:")}


def _caption(state: State, viewer: str | None) -> list[str]:
    moves = Plural("after {n} move", "after {n} moves", n=state.moves)
    if state.winner is not None or state.drawn:
        end = "." if not state.end_reason else ":"
        over = Text(OVER_DRAWN[end], moves=moves) if state.winner is None else \
            Text(OVER_WON[end], moves=moves, name=state.sides[state.winner].name)
        return [said(over), *([said(state.end_reason)] if state.end_reason else [])]
    mover = state.sides[state.mover]
    values = dict(name=mover.name, suit=SUIT_NAME[mover.suit])
    return [said(Text("Open sum {sum} · {moves}", sum=open_sum(state), moves=moves)),
            said(Text("To move: {name} (you) ({suit})", **values) if viewer == mover.name
                 else Text("To move: {name} ({suit})", **values))]


def draw(rules: Any, state: State, viewer: str | None) -> Image.Image:
    """The position as a picture (``rules`` and ``viewer`` do not change what is shown).

    Drawn on a palette (draw.palette_canvas), or in RGB should it need more than 256 colours (draw.drawn)."""
    return drawn(lambda new_canvas: drawn_on(new_canvas, rules, state, viewer))


def drawn_on(new_canvas: Any, rules: Any, state: State, viewer: str | None) -> Image.Image:
    image, pen = new_canvas(WIDTH, HEIGHT)
    # The row numbers left of the board and the file letters under it.
    for row in "123":
        _, cy = tile_centre(f"a{row}")
        text(image, (MARGIN + RANK_GUTTER // 2 - 2, cy), row, 13, GRID, "mm")
    for column in "abc":
        cx, _ = tile_centre(f"{column}1")
        text(image, (cx, FILES_Y), column, 13, GRID, "ma")
    for square in BOARD_SQUARES + NULL_SQUARES:
        _tile(image, pen, square, state.tile(square), square)
    _tile(image, pen, THRONE, state.throne, THRONE)
    # Who each null tile belongs to, in the empty corner beside it.
    for index, side in enumerate(state.sides):
        x, y = tile_origin(NULL_SQUARES[index])
        left = x + TILE + 10
        room = WIDTH - MARGIN - left
        colour = player_colour(index)
        pen.rectangle((left, y + 20, left + 13, y + 33), fill=colour, outline=INK)
        you = " (you)" if viewer == side.name else ""
        text(image, (left + 19, y + 27), _fit(side.name + you, room - 19, 13), 13, INK, "lm")
        text(image, (left, y + 40), _fit(f"{SUIT_NAME[side.suit]}, null {NULL_SQUARES[index]}", room, 11), 11,
             suit_colour(side.suit), "la")
    for index, side in enumerate(state.sides):
        for piece in side.pieces:
            if piece.square is not None:
                _piece(image, pen, piece.square, piece, player_colour(index))
    for number, line in enumerate(_caption(state, viewer)):
        text(image, (MARGIN, CAPTION_Y + number * CAPTION_LINE), _fit(line, WIDTH - 2 * MARGIN, 13), 13, INK, "la")
    return image
