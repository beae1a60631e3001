"""What every game's picture shares: the palette, the font, a canvas, PNG bytes, hexagons."""

from __future__ import annotations

import functools
import io
import math

from PIL import Image, ImageDraw, ImageFont

# Players' colours in seat order, readable on white and by the colour-blind (Okabe-Ito first).
PLAYER_COLOURS = [(0, 114, 178), (213, 94, 0), (0, 158, 115), (204, 121, 167), (230, 159, 0),
                  (86, 180, 233), (240, 228, 66), (0, 0, 0), (120, 94, 240), (100, 143, 255),
                  (254, 97, 0), (220, 38, 127)]
BACKGROUND = (255, 255, 255)
INK = (34, 34, 34)
GRID = (170, 170, 170)
EMPTY = (244, 244, 244)

Colour = tuple[int, int, int]


def player_colour(seat: int) -> Colour:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


@functools.lru_cache(maxsize=None)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's own font at ``size`` pixels: the same on every machine, nothing to install.

    Made once per size: load_default decodes the font from base64 each time (a Pivot Pawns
    picture asked for it 423 times, 24 ms)."""
    return ImageFont.load_default(size=size)


@functools.lru_cache(maxsize=4096)
def text_stamp(text: str, size: int, anchor: str) -> tuple[Image.Image, tuple[int, int]]:
    """The coverage of ``text`` in font(size) as an L image, and where its corner lies from the
    anchor point: what ImageDraw.text rasterizes on every call, kept (the labels, letters and
    digits of a picture repeat from turn to turn; FreeType was a sixth of a Neighbors picture)."""
    face = font(size)
    mask, offset = face.getmask2(text, "L", anchor=anchor)
    stamp = Image.new("L", mask.size, 0)
    ImageDraw.Draw(stamp).text((-offset[0], -offset[1]), text, fill=255, font=face, anchor=anchor)
    return stamp, offset


def text(image: Image.Image, xy: tuple[int, int], words: str, size: int, fill: Colour, anchor: str = "la") -> None:
    """ImageDraw.text(xy, words, fill, font(size), anchor) for whole-pixel ``xy``, pixel for pixel
    the same (the same coverage, blended by the same paste), from a kept text_stamp."""
    stamp, (dx, dy) = text_stamp(words, size, anchor)
    image.paste(fill, (xy[0] + dx, xy[1] + dy, xy[0] + dx + stamp.width, xy[1] + dy + stamp.height), stamp)


def canvas(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), BACKGROUND)
    return image, ImageDraw.Draw(image)


def png(image: Image.Image) -> bytes:
    """The image as PNG bytes: no time stamp or other chunk that varies between runs.

    zlib level 6, not 9: a board is about 10% larger (25-30 KB) and made in a third of the
    time (15-20 ms instead of 50-75 ms), and a turn's reports wait for their pictures."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=6)
    return out.getvalue()


def blend(colour: Colour, amount: float, base: Colour = BACKGROUND) -> Colour:
    """``colour`` mixed into ``base``: amount 1 is the colour, 0 the base (shading by value)."""
    return tuple(round(b + (c - b) * amount) for c, b in zip(colour, base))  # type: ignore[return-value]


def hexagon(cx: float, cy: float, radius: float) -> list[tuple[float, float]]:
    """The corners of a pointy-top hexagon centred at (cx, cy)."""
    return [(cx + radius * math.cos(math.radians(60 * k - 30)),
             cy + radius * math.sin(math.radians(60 * k - 30))) for k in range(6)]


def axial_centre(q: int, r: int, radius: float, origin: tuple[float, float]) -> tuple[float, float]:
    """Pixel centre of the axial cell (q, r) (RULINGS FB1's coordinates) on a pointy-top layout."""
    x = origin[0] + radius * math.sqrt(3) * (q + r / 2)
    y = origin[1] + radius * 1.5 * r
    return x, y
