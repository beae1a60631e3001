"""A picture of a Neighbors position: the 7x6 board, the pieces, the last capture, the captures so far.

A pure function of the state (Neighbors has no hidden information, so the
viewer changes nothing; the signature is every painter's).  Row 6 is at the
top and the files a..g run left to right, as in the text report.  Pillow's own
font has no chess glyphs, so each piece is a disc with a clear INK ring and its
letter (Q R B N F) in the middle; the pieces are shared, so the discs carry no
player's colour.  The last capture tints its from-square and to-square and an
arrow in the mover's colour joins them.  Below the board: the turn, the last
capture, the neighbors rule's file and row (NB5), and one line per player with
their colour, their captures by piece type and their score (NB4).
"""

from __future__ import annotations

import functools
import math
from typing import Any

from PIL import Image, ImageDraw

from games.neighbors import FILES, ROWS, parse_square
from games.text import Text, mark
from gm.present.pictures.draw import (BACKGROUND, EMPTY, GRID, INK, blend, canvas, drawn, font, paste_sprite,
                                      player_colour, said, text)

# The last capture, by the piece taken: a sentence each (the article goes with the piece's word).
TAKING = {"Q": mark("{player} played {move}, taking a queen"), "R": mark("{player} played {move}, taking a rook"),
          "B": mark("{player} played {move}, taking a bishop"),
          "N": mark("{player} played {move}, taking a knight"), "F": mark("{player} played {move}, taking a ferz")}

SQUARE = 72  # pixels per square
MARGIN = 28  # room for the file letters and row numbers round the board
BOARD_LEFT = MARGIN
BOARD_TOP = MARGIN
BOARD_RIGHT = BOARD_LEFT + 7 * SQUARE
BOARD_BOTTOM = BOARD_TOP + ROWS * SQUARE
WIDTH = BOARD_RIGHT + MARGIN
LEGEND_TOP = BOARD_BOTTOM + MARGIN
INFO_HEIGHT = 26  # the line with the turn and the last capture
ROW_HEIGHT = 24  # one line per player
LEGEND_PADDING = 10

LIGHT = EMPTY  # an empty square; the dark ones as on a chessboard (a1 dark), to follow diagonals
DARK = (222, 222, 222)
FROM_TINT = (255, 236, 160)  # the square the last capture came from
TO_TINT = (250, 200, 70)  # the square it landed on
PIECE_FILL = (255, 253, 246)
DISC_RADIUS = 26
RING_WIDTH = 3
LEFT_GREY = (150, 150, 150)  # a player who has left (G5)

PIECE_ORDER = "QRBNF"


def image_size(player_count: int) -> tuple[int, int]:
    """Width and height of the picture of a game with ``player_count`` players."""
    return WIDTH, LEGEND_TOP + INFO_HEIGHT + ROW_HEIGHT * player_count + LEGEND_PADDING


def square_box(square_name: str) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) of a square such as "d4", the right and bottom edges excluded."""
    file, row = parse_square(square_name[0], square_name[1])
    left = BOARD_LEFT + file * SQUARE
    top = BOARD_TOP + (ROWS - 1 - row) * SQUARE
    return left, top, left + SQUARE, top + SQUARE


def square_centre(square_name: str) -> tuple[int, int]:
    """Pixel centre of a square such as "d4"."""
    left, top, _, _ = square_box(square_name)
    return left + SQUARE // 2, top + SQUARE // 2


def square_colour(square_name: str) -> tuple[int, int, int]:
    """The colour of the square when empty and not part of the last capture."""
    file, row = parse_square(square_name[0], square_name[1])
    return DARK if (file + row) % 2 == 0 else LIGHT


def draw(rules: Any, state: Any, viewer: str | None) -> Image.Image:
    """The position as a picture; ``viewer`` is unused (nothing in Neighbors is hidden).

    Drawn on a palette (draw.palette_canvas: no mapping of colours afterwards), or in RGB
    should it ever need more than 256 colours (draw.drawn)."""
    return drawn(lambda new_canvas: drawn_on(new_canvas, rules, state, viewer))


def drawn_on(new_canvas: Any, rules: Any, state: Any, viewer: str | None) -> Image.Image:
    image, pen = new_canvas(*image_size(len(state.players)))
    last = state.moves[-1] if state.moves else None
    tints = {}
    if last is not None:
        tints = {_name(last.source): FROM_TINT, _name(last.target): TO_TINT}
    _board(image, pen, state, tints)
    if last is not None:
        mover = player_colour(state.players.index(last.player)) if last.player in state.players else INK
        _arrow(pen, _name(last.source), _name(last.target), mover)
    _legend(image, pen, rules, state)
    return image


def _name(square: tuple[int, int]) -> str:
    return f"{FILES[square[0]]}{square[1] + 1}"


def _board(image: Image.Image, pen: ImageDraw.ImageDraw, state: Any, tints: dict[str, tuple[int, int, int]]) -> None:
    for row in range(ROWS):
        for file in range(7):
            name = _name((file, row))
            left, top, right, bottom = square_box(name)
            pen.rectangle((left, top, right - 1, bottom - 1), fill=tints.get(name, square_colour(name)))
    pen.rectangle((BOARD_LEFT - 1, BOARD_TOP - 1, BOARD_RIGHT, BOARD_BOTTOM), outline=GRID, width=1)
    for file in range(7):
        x = BOARD_LEFT + file * SQUARE + SQUARE // 2
        for y in (BOARD_TOP - MARGIN // 2, BOARD_BOTTOM + MARGIN // 2):
            text(image, (x, y), FILES[file], 15, INK, "mm")
    for row in range(ROWS):
        y = BOARD_TOP + (ROWS - 1 - row) * SQUARE + SQUARE // 2
        for x in (BOARD_LEFT - MARGIN // 2, BOARD_RIGHT + MARGIN // 2):
            text(image, (x, y), str(row + 1), 15, INK, "mm")
    for row in range(ROWS):
        for file in range(7):
            piece = state.at((file, row))
            if piece != ".":
                x, y = square_centre(_name((file, row)))
                _disc(image, x, y, DISC_RADIUS, piece, 28, RING_WIDTH)


def _disc(image: Image.Image, x: int, y: int, radius: int, piece: str, letter_size: int, ring: int) -> None:
    """A piece centred at (x, y): pasted from disc_sprite, the same pixels draw_disc gives."""
    sprite, footprint = disc_sprite(radius, piece, letter_size, ring)
    paste_sprite(image, ("neighbors disc", radius, piece, letter_size, ring), sprite, (x - radius, y - radius),
                 footprint)


@functools.lru_cache(maxsize=None)
def disc_sprite(radius: int, piece: str, letter_size: int, ring: int) -> tuple[Image.Image, Image.Image]:
    """A disc drawn once, and the mask of the pixels it covers (its letter lies inside the disc,
    so nothing round it shows through): a board has up to 42 of them and five kinds."""
    size = 2 * radius + 1
    sprite, _ = canvas(size, size)
    draw_disc(sprite, radius, radius, radius, piece, letter_size, ring)
    footprint = Image.new("L", (size, size), 0)
    ImageDraw.Draw(footprint).ellipse((0, 0, 2 * radius, 2 * radius), fill=255, outline=255, width=ring)
    return sprite, footprint


def draw_disc(image: Image.Image, x: int, y: int, radius: int, piece: str, letter_size: int,
              ring: int) -> None:
    """A piece: a light disc with an INK ring and its letter."""
    ImageDraw.Draw(image).ellipse((x - radius, y - radius, x + radius, y + radius), fill=PIECE_FILL, outline=INK,
                                  width=ring)
    text(image, (x, y + 1), piece, letter_size, INK, "mm", stroke=1 if ring > 1 else 0)


def _arrow(pen: ImageDraw.ImageDraw, source: str, target: str, colour: tuple[int, int, int]) -> None:
    """From the centre of the emptied square to the edge of the capturing piece's disc."""
    x0, y0 = square_centre(source)
    x1, y1 = square_centre(target)
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    tip = (x1 - ux * (DISC_RADIUS + 2), y1 - uy * (DISC_RADIUS + 2))
    head, half = 16.0, 9.0
    base = (tip[0] - ux * head, tip[1] - uy * head)
    pen.line((x0, y0, base[0], base[1]), fill=colour, width=6)
    pen.ellipse((x0 - 6, y0 - 6, x0 + 6, y0 + 6), fill=colour)
    pen.polygon([tip, (base[0] - uy * half, base[1] + ux * half), (base[0] + uy * half, base[1] - ux * half)],
                fill=colour)


def _fit(text: str, face: Any, width: float) -> str:
    """``text``, shortened with an ellipsis to fit ``width`` pixels (measured as on an RGB image:
    ImageDraw measures a palette image's text unsmoothed, a few pixels wider)."""
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def _legend(image: Image.Image, pen: ImageDraw.ImageDraw, rules: Any, state: Any) -> None:
    face = font(15)
    view = rules.view(state, None)
    over = rules.is_over(state)
    parts = [said(Text("Turn {turn}", turn=state.turn))]
    if view["last_move"]:
        parts.append(said(Text(TAKING[state.moves[-1].taken], player=view["last_player"], move=view["last_move"])))
    else:
        parts.append(said(Text("no capture yet")))
    if over:
        parts.append(said(Text("game over")))
    elif view["restriction"]:
        parts.append(said(Text("next from {square}", square=view["restriction"])))
    info_y = LEGEND_TOP + INFO_HEIGHT // 2 - 4
    text(image, (BOARD_LEFT, info_y), _fit(" · ".join(parts), face, BOARD_RIGHT - BOARD_LEFT), 15, INK, "lm")

    scores = rules.scores(state)
    to_move = set(rules.to_move(state))
    for seat, player in enumerate(state.players):
        y = LEGEND_TOP + INFO_HEIGHT + seat * ROW_HEIGHT + ROW_HEIGHT // 2
        gone = player in state.left
        ink = LEFT_GREY if gone else INK
        if player in to_move:
            pen.polygon([(BOARD_LEFT, y - 6), (BOARD_LEFT + 10, y), (BOARD_LEFT, y + 6)], fill=INK)
        colour = player_colour(seat)
        pen.ellipse((BOARD_LEFT + 16, y - 7, BOARD_LEFT + 30, y + 7),
                    fill=blend(colour, 0.4) if gone else colour)
        name = said(Text("{name} (left)", name=player)) if gone else player
        text(image, (BOARD_LEFT + 38, y), _fit(name, face, 140), 15, ink, "lm")
        captured = state.captured.get(player, "")
        for i, piece in enumerate(PIECE_ORDER):
            x = BOARD_LEFT + 200 + i * 50
            _disc(image, x, y, 9, piece, 12, 1)
            text(image, (x + 13, y), str(captured.count(piece)), 15, ink, "lm")
        text(image, (BOARD_RIGHT, y), said(Text("score {score}", score=scores.get(player, 0))), 15, ink, "rm")


__all__ = ["BACKGROUND", "DARK", "FROM_TINT", "INK", "LIGHT", "PIECE_FILL", "TO_TINT", "disc_sprite", "draw",
           "draw_disc", "image_size", "square_box", "square_centre", "square_colour"]
