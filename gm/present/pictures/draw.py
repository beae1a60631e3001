"""What every game's picture shares: the palette, the font, a canvas, PNG bytes, hexagons, and
the language its words are drawn in (LANGUAGE, set by gm.present.pictures.picture)."""

from __future__ import annotations

import contextvars
import functools
import io
import math
from typing import Callable

from PIL import Image, ImageDraw, ImageFont

from gm.core import i18n

# The language of the picture being drawn: set for the one call that draws it.
LANGUAGE: contextvars.ContextVar[str] = contextvars.ContextVar("picture_language", default=i18n.ENGLISH)


def said(text: object) -> str:
    """A sentence of a picture (a games.text.Text) in the language the picture is drawn in, in
    the letters the picture's font has (lettered)."""
    return lettered(str(i18n.translate(text, LANGUAGE.get())))


# The font (Pillow's own) has ASCII and a few signs: a German letter is written as German
# writes it without one (ae, oe, ue, ss), any other accented letter without its accent.
FOLDED = {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss", "œ": "oe", "Œ": "Oe",
          "æ": "ae", "Æ": "Ae", "«": '"', "»": '"', "’": "'", "\u202f": " ", "\xa0": " "}
KEPT = frozenset("·")  # signs outside ASCII the font draws


def lettered(words: str) -> str:
    """``words`` in the letters the font draws (FOLDED, accents dropped); ASCII as it is."""
    if words.isascii():
        return words
    import unicodedata

    out = []
    for char in words:
        if char.isascii() or char in KEPT:
            out.append(char)
        elif char in FOLDED:
            out.append(FOLDED[char])
        else:
            out.append("".join(part for part in unicodedata.normalize("NFKD", char) if part.isascii()) or "?")
    return "".join(out)


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


# Anti-aliased text keeps 17 levels of coverage (0, 1/16, ... 1) instead of 256.  At these
# sizes the eye cannot tell them apart, and a picture then has few colours: each flat colour,
# and 15 steps between a text colour and what it is drawn on.  With at most 256 the PNG is
# written on a palette (png()): a third of the bytes, made in a third of the time.
COVERAGE_STEPS = 16
_COARSE = [round(round(v * COVERAGE_STEPS / 255) * 255 / COVERAGE_STEPS) for v in range(256)]


def coarse(coverage: Image.Image) -> Image.Image:
    """An L coverage mask with each value moved to the nearest of the 17 levels text keeps."""
    return coverage.point(_COARSE)


@functools.lru_cache(maxsize=4096)
def text_stamp(text: str, size: int, anchor: str, stroke: int = 0) -> tuple[Image.Image, tuple[int, int]]:
    """The coverage of ``text`` in font(size) (with a ``stroke`` of that many pixels round it)
    as an L image in coarse() levels, and where its corner lies from the anchor point: what
    ImageDraw.text rasterizes on every call, kept (the labels, letters and digits of a picture
    repeat from turn to turn; FreeType on each call costs a sixth of a Neighbors picture)."""
    face = font(size)
    mask, offset = face.getmask2(text, "L", anchor=anchor, stroke_width=stroke)
    stamp = Image.new("L", mask.size, 0)
    ImageDraw.Draw(stamp).text((-offset[0], -offset[1]), text, fill=255, font=face, anchor=anchor,
                               stroke_width=stroke, stroke_fill=255)
    return coarse(stamp), offset


def text(image: Image.Image, xy: tuple[int, int], words: str, size: int, fill: Colour, anchor: str = "la",
         stroke: int = 0) -> None:
    """ImageDraw.text(xy, words, fill, font(size), anchor, stroke_width=stroke, stroke_fill=fill) for
    whole-pixel ``xy``, from a kept text_stamp: the same pixels but for coverage in coarse() levels."""
    stamp, (dx, dy) = text_stamp(words, size, anchor, stroke)
    box = (xy[0] + dx, xy[1] + dy, xy[0] + dx + stamp.width, xy[1] + dy + stamp.height)
    if image.mode != "P":
        image.paste(fill, box, stamp)
        return
    if not (stamp.width and stamp.height):  # an empty line: nothing drawn
        return
    table = blend_entries(image, fill, box)
    if table is None:  # text over more than one colour (seldom): blended in RGB, then entered
        paste_on_palette(image, fill, box, stamp)
    else:  # the pixels of each coverage level of the stamp, as this palette's entries
        image.paste(text_patch(words, size, anchor, stroke, table), box)


@functools.lru_cache(maxsize=1024)
def text_patch(words: str, size: int, anchor: str, stroke: int, table: bytes) -> Image.Image:
    """text_stamp's coverage as the entries ``table`` gives each level (kept: a painter's colours
    take the same entries picture after picture, and its labels repeat)."""
    return entries_image(text_stamp(words, size, anchor, stroke)[0], table)


def blend_entries(image: Image.Image, fill: Colour, box: tuple[int, int, int, int]) -> bytes | None:
    """For text in ``fill`` over ``box`` of a palette canvas, the entry of each coverage value,
    if one colour lies under all of ``box``; else None."""
    lowest, under = image.crop(box).getextrema()  # in C (getcolors counts in Python: 7 us)
    if lowest != under:
        return None
    key = (fill, under)
    table = image.gm_entries.get(key)
    if table is None:
        entries = [0] * 256
        under_colour = tuple(image.palette.palette[3 * under:3 * under + 3])
        for level, colour in zip(LEVELS, blends(fill, under_colour)):
            entries[level] = entry(image, colour)
        table = image.gm_entries[key] = bytes(entries)
    return table


def paste_on_palette(image: Image.Image, fill: Colour, box: tuple[int, int, int, int], coverage: Image.Image) -> None:
    """image.paste(fill, box, coverage) on a palette canvas, pixel by pixel: blended in RGB and
    each colour entered."""
    region = image.crop(box).convert("RGB")
    region.paste(fill, (0, 0, *region.size), coverage)
    rgb = region.tobytes()
    image.paste(entries_image(Image.frombytes("L", region.size, bytes(
        entry(image, tuple(rgb[i:i + 3])) for i in range(0, len(rgb), 3))), bytes(range(256))), box)


def canvas(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), BACKGROUND)
    return image, ImageDraw.Draw(image)


# --- drawing on a palette ----------------------------------------------------------------------
# A painter may draw on palette_canvas() instead: its PNG needs no mapping of colours to a
# palette afterwards (as_palette: 1.4 ms for a Neighbors board, a third of its picture).
# ImageDraw gives a "P" image's shapes the same pixels as an RGB one's, each new colour taking
# the next palette entry; text (anti-aliased: blends of its colour and what lies under it) and
# sprites (RGB images of their own) are pasted by paste_on_palette and paste_sprite, which
# give each pixel the palette entry of the colour the RGB canvas would have had there.  A
# painter draws through drawn(), which falls back on canvas() for a picture of too many colours.
LEVELS = sorted(set(_COARSE))  # the coverage values a text_stamp holds


class TooManyColours(ValueError):  # a ValueError, as ImageDraw's own for a 257th colour
    """A palette canvas was asked for a 257th colour."""


def palette_canvas(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """canvas() on a palette image (BACKGROUND its first entry), with its kept look-ups (entries)."""
    image = Image.new("P", (width, height), 0)
    image.putpalette(BACKGROUND)
    image.gm_entries = {}  # (fill, entry under it) or (sprite key) -> its table, for this palette
    return image, ImageDraw.Draw(image)  # its textlength() is not RGB's: measure with font().getlength


def drawn(paint: Callable[[Callable[[int, int], tuple[Image.Image, ImageDraw.ImageDraw]]], Image.Image]) -> Image.Image:
    """paint(palette_canvas), or paint(canvas) if the picture asks for a 257th colour or fills
    the palette: with all 256 entries taken, Pillow gives a new colour an entry that no pixel
    uses yet (ImagePalette.getcolor), which a table kept in gm_entries may still name."""
    try:
        image = paint(palette_canvas)
        if len(image.palette.palette) < 3 * 256:
            return image
    except ValueError:  # TooManyColours, or ImageDraw's own
        pass
    return paint(canvas)


def entry(image: Image.Image, colour: Colour) -> int:
    """The palette entry of ``colour`` in a palette canvas, a new one if need be."""
    try:
        return image.palette.getcolor(colour, image)
    except ValueError as exc:  # Pillow's "cannot allocate more than 256 colors"
        raise TooManyColours(str(exc)) from exc


@functools.lru_cache(maxsize=1024)
def blends(fill: Colour, under: Colour) -> tuple[Colour, ...]:
    """The colour of each LEVELS coverage of ``fill`` pasted on ``under``, by Pillow's own blend."""
    strip = Image.new("RGB", (len(LEVELS), 1), under)
    strip.paste(fill, (0, 0, len(LEVELS), 1), Image.frombytes("L", (len(LEVELS), 1), bytes(LEVELS)))
    return tuple(strip.getpixel((x, 0)) for x in range(len(LEVELS)))


def entries_image(image: Image.Image, table: bytes) -> Image.Image:
    """A "P" image of ``table``'s byte for each pixel value of an L or P ``image`` (to paste as
    palette entries; its own palette unused).  Not Image.point: it rounds its table in Python
    (30 us a call, the price of a whole label)."""
    return Image.frombytes("P", image.size, image.tobytes().translate(table))


def paste_sprite(image: Image.Image, key: object, sprite: Image.Image, xy: tuple[int, int],
                 footprint: Image.Image) -> None:
    """image.paste(sprite, xy, footprint) for an RGB ``sprite`` of at most 256 colours and a
    footprint of 0s and 255s; ``key`` names the sprite (its entries are kept per canvas)."""
    if image.mode != "P":
        image.paste(sprite, xy, footprint)
        return
    table = image.gm_entries.get(key)
    if table is None:
        colours = sprite_on_palette(key, sprite).getpalette()
        entries = [entry(image, tuple(colours[i:i + 3])) for i in range(0, len(colours), 3)]
        table = image.gm_entries[key] = bytes(entries + [0] * (256 - len(entries)))
    image.paste(sprite_patch(key, table), xy, footprint)


@functools.lru_cache(maxsize=256)
def sprite_patch(key: object, table: bytes) -> Image.Image:
    """The sprite ``key`` (sprite_on_palette's) as the entries ``table`` gives its colours (kept,
    as text_patch)."""
    return entries_image(_SPRITES[key], table)


_SPRITES: dict = {}  # sprite key -> the sprite on a palette of its own colours


def sprite_on_palette(key: object, sprite: Image.Image) -> Image.Image:
    """The RGB ``sprite`` on a palette of its colours, made once per key pixel by pixel: not by
    as_palette, whose kept plan holds Pillow's 0.5 MB colour cache for each set of colours."""
    if key not in _SPRITES:
        rgb = sprite.tobytes()
        pixels = [rgb[i:i + 3] for i in range(0, len(rgb), 3)]
        colours = {colour: i for i, colour in enumerate(dict.fromkeys(pixels))}
        if len(colours) > 256:
            raise TooManyColours(f"sprite {key!r}")
        own = Image.frombytes("P", sprite.size, bytes(colours[colour] for colour in pixels))
        own.putpalette(b"".join(colours))
        _SPRITES[key] = own
    return _SPRITES[key]


def png(image: Image.Image) -> bytes:
    """The image as PNG bytes: no time stamp or other chunk that varies between runs.

    A palette canvas's image goes as it is; an RGB one on a palette of its own colours when it
    has at most 256 (as_palette), else as RGB.
    zlib level 6, not 9: an RGB board is about 10% larger and made in a third of the time
    (15-20 ms instead of 50-75 ms), and a turn's reports wait for their pictures."""
    out = io.BytesIO()
    (image if image.mode == "P" else as_palette(image) or image).save(out, format="PNG", compress_level=6)
    return out.getvalue()


def as_palette(image: Image.Image) -> Image.Image | None:
    """``image`` as a "P" image on a palette of exactly its colours, pixel for pixel the same
    picture; None when it has more than 256 colours (or palette_plan finds no way), or is
    not RGB.

    A palette PNG carries one byte a pixel instead of three and needs no row filters: a
    Neighbors board packs in half the time, to a third of the bytes.  Pillow maps colours
    to a palette in C, but each to the entry nearest the corner of its 4x4x4 cell of colour
    space, so near colours (a step of anti-aliased text and a flat grey) could share an
    index.  The mapping is therefore made on a stand-in whose channel values are moved to
    multiples of 4 (the i-th value a channel uses becomes 4i, one table for Image.point):
    every colour then sits on a cell corner with its own entry at distance 0, and distinct
    colours stay distinct.  palette_plan checks it once for each set of colours, and
    tests/present/test_pictures.py holds Pillow to it.
    """
    if image.mode != "RGB":
        return None
    counted = image.getcolors(256)
    if counted is None:
        return None
    plan = palette_plan(tuple(sorted(colour for _, colour in counted)))  # sorted: the same on every run
    return None if plan is None else on_palette(image, plan)


PalettePlan = tuple[list[int], Image.Image, list[int]]  # palette_plan's: spread table, stand-in, palette


def on_palette(image: Image.Image, plan: PalettePlan) -> Image.Image:
    """``image`` mapped by ``plan``: its colours moved by the spread table, mapped onto the
    stand-in palette, and the P image given the palette of the colours themselves."""
    spread, stand_in, palette = plan
    mapped = image.point(spread).quantize(palette=stand_in, dither=Image.Dither.NONE)
    mapped.putpalette(palette)
    return mapped


# How palette_plan folds a channel's rank into 64 places when it has more than 64 values: rank
# + (rank // 64) * mix, modulo 64, a different mix in each channel (red's is 0: the plain
# rank while there are at most 64), so colours whose ranks meet in one channel seldom meet
# in all three.  Tried in order until no two colours meet.
MIXES = ((0, 0, 0), (0, 37, 23), (0, 23, 37), (0, 45, 13))


@functools.lru_cache(maxsize=64)
def palette_plan(colours: tuple[Colour, ...]) -> PalettePlan | None:
    """For as_palette: Image.point's table moving each channel's values to multiples of 4, so
    that the colours land on distinct corners of Pillow's colour cells; the stand-in palette
    of the moved colours; and the palette of the colours themselves.  None when no MIXES
    keeps the colours apart.  Kept: a game's pictures use the same colours turn after turn."""
    ranks = [{value: rank for rank, value in enumerate(sorted({colour[band] for colour in colours}))}
             for band in range(3)]
    for mix in MIXES:
        spread = [0] * 768  # 256 entries for red, then green, then blue
        for band in range(3):
            for value, rank in ranks[band].items():
                spread[256 * band + value] = 4 * ((rank + (rank // 64) * mix[band]) % 64)
        moved = [tuple(spread[256 * band + colour[band]] for band in range(3)) for colour in colours]
        if len(set(moved)) < len(moved):
            continue
        stand_in = Image.new("P", (1, 1))
        stand_in.putpalette([channel for colour in moved for channel in colour])
        plan = (spread, stand_in, [channel for colour in colours for channel in colour])
        # Pillow maps each colour the same wherever it stands, so one pixel of each colour
        # checks the mapping for every picture in these colours (should Pillow's change).
        sample = Image.new("RGB", (len(colours), 1))
        sample.putdata(list(colours))
        if on_palette(sample, plan).convert("RGB").tobytes() == sample.tobytes():
            return plan
    return None


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
