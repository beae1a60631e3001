"""gm.present.pictures.picture: one entry for every game's picture."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
from PIL import Image

from games import registry
from gm.present import pictures
from gm.present.reports import OBSERVER

NAMES = ["ada", "bob"]


@pytest.mark.parametrize("kind", sorted(pictures.PAINTERS))
def test_every_registered_game_gives_a_deterministic_png_for_every_viewer(kind):
    rules = registry.get(kind)
    state = rules.start(rules.setup(NAMES, {}, 3), 1_000.0)
    for viewer in (None, "ada", OBSERVER):
        first = pictures.picture(rules, state, viewer)
        assert first == pictures.picture(rules, state, viewer)
        image = Image.open(io.BytesIO(first))
        assert image.format == "PNG" and image.size[0] >= 300 and len(first) < 150_000


def test_a_kind_without_a_painter_gives_none():
    class Unknown:
        kind = "no-such-game"

    assert pictures.picture(Unknown(), None, None) is None


LEVELS = {round(k * 255 / 16) for k in range(17)}  # the coverage levels text keeps


def noisy(width=140, height=70):
    """A background where any pixel blended differently would show."""
    return Image.effect_noise((width, height), 60).convert("RGB")


@pytest.mark.parametrize("words, size, anchor, xy, fill, stroke", [
    ("a", 15, "mm", (20, 20), (34, 34, 34), 0),
    ("6", 15, "mm", (2, 60), (0, 114, 178), 0),
    ("score 12", 15, "rm", (139, 35), (150, 150, 150), 0),
    ("Turn 6 · ada played Ra5xa6, taking a bishop", 15, "lm", (-4, 30), (34, 34, 34), 0),
    ("bob (left)…", 13, "la", (10, -3), (213, 94, 0), 0),
    ("TARGET", 12, "md", (70, 69), (255, 255, 255), 0),
    ("Q", 28, "mm", (70, 35), (34, 34, 34), 0),
    ("Q", 28, "mm", (70, 35), (34, 34, 34), 1),
])
def test_text_from_a_kept_stamp_is_what_imagedraw_draws_in_coarse_coverage(words, size, anchor, xy, fill, stroke):
    """draw.text puts the text where ImageDraw.text does and blends it as ImageDraw's paste does,
    pixel for pixel, with the coverage ImageDraw rasterizes moved to the 17 levels text keeps."""
    from PIL import ImageChops, ImageDraw

    from gm.present.pictures import draw

    coverage = Image.new("L", noisy().size, 0)
    ImageDraw.Draw(coverage).text(xy, words, fill=255, font=draw.font(size), anchor=anchor,
                                  stroke_width=stroke, stroke_fill=255)
    background = noisy()
    expected = background.copy()
    expected.paste(fill, (0, 0), draw.coarse(coverage))
    stamped = background.copy()
    draw.text(stamped, xy, words, size, fill, anchor, stroke=stroke)
    assert ImageChops.difference(expected, stamped).getbbox() is None
    assert stamped.tobytes() != background.tobytes()  # the text was drawn at all
    assert len(coverage.getcolors()) > 17  # ImageDraw's own steps are finer than the stamp's:
    assert {value for _, value in draw.text_stamp(words, size, anchor, stroke)[0].getcolors()} <= LEVELS


def test_coarse_coverage_keeps_17_levels_with_both_ends():
    from gm.present.pictures import draw

    ramp = Image.frombytes("L", (256, 1), bytes(range(256)))
    kept = list(draw.coarse(ramp).tobytes())
    assert sorted(set(kept)) == sorted(LEVELS)
    assert kept[0] == 0 and kept[255] == 255
    assert all(abs(after - before) <= 8 for before, after in zip(range(256), kept))  # each to its nearest level


def near_colours(seed: int, count: int = 256) -> Image.Image:
    """An RGB image of ``count`` distinct colours drawn from 64 values a channel, many of them
    one step apart: the colours Pillow's coarse palette cache would confuse."""
    import random

    rng = random.Random(seed)
    values = [sorted(rng.sample(range(256), 40) + [100, 101, 102, 103] + list(range(200, 220)))
              for _ in range(3)]
    colours: set[tuple[int, int, int]] = set()
    while len(colours) < count:
        colours.add(tuple(rng.choice(values[band]) for band in range(3)))
    palette = sorted(colours)
    image = Image.new("RGB", (64, 64))
    image.putdata(palette + [rng.choice(palette) for _ in range(64 * 64 - count)])  # every colour at least once
    return image


@pytest.mark.parametrize("seed", range(6))
def test_as_palette_keeps_every_pixel_of_near_colours(seed):
    from gm.present.pictures.draw import as_palette, png

    image = near_colours(seed)
    packed = as_palette(image)
    assert packed is not None and packed.mode == "P"
    assert packed.convert("RGB").tobytes() == image.tobytes()
    data = png(image)
    assert data[25] == 3  # the PNG's colour type: a palette
    assert Image.open(io.BytesIO(data)).convert("RGB").tobytes() == image.tobytes()


def test_as_palette_keeps_more_than_64_values_in_a_channel_apart():
    """200 greys and 40 colours: every channel folds its ranks into 64 places, differently."""
    import random

    from gm.present.pictures.draw import as_palette

    rng = random.Random(5)
    colours = [(v, v, v) for v in range(200)] + [
        (rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(40)]
    image = Image.new("RGB", (len(colours), 3))
    image.putdata(colours * 3)
    packed = as_palette(image)
    assert packed is not None
    assert packed.convert("RGB").tobytes() == image.tobytes()


def test_as_palette_gives_none_where_a_palette_cannot_hold_the_picture():
    from gm.present.pictures.draw import as_palette, png

    many = Image.new("RGB", (300, 1))
    many.putdata([(i % 256, i // 256, 0) for i in range(300)])  # 300 colours
    one_channel = Image.new("RGB", (100, 1))
    one_channel.putdata([(i, 0, 0) for i in range(100)])  # 100 reds: 64 places in red, and nothing else differs
    assert as_palette(many) is None and as_palette(one_channel) is None
    assert as_palette(Image.new("L", (4, 4))) is None
    for image in (many, one_channel):
        data = png(image)
        assert data[25] == 2  # RGB
        assert Image.open(io.BytesIO(data)).convert("RGB").tobytes() == image.tobytes()


def test_a_neighbors_board_is_a_palette_png_of_exactly_the_picture_drawn():
    from gm.present.pictures import neighbors
    from gm.present.pictures.draw import png

    rules = registry.get("neighbors")
    state = rules.start(rules.setup(NAMES, {}, 3), 1_000.0)
    drawn = neighbors.draw(rules, state, None)
    data = png(drawn)
    assert data[25] == 3
    assert Image.open(io.BytesIO(data)).convert("RGB").tobytes() == drawn.convert("RGB").tobytes()
    assert len(data) < 20_000  # a third of the RGB PNG's 30 KB


def test_a_board_drawn_on_a_palette_has_the_pixels_of_the_board_drawn_in_rgb():
    """Neighbors draws on a palette canvas: shapes, text (on one colour and over two) and sprites
    take the entries of the colours the RGB canvas gets, long names are cut at the same letter."""
    from gm.present.pictures import neighbors
    from gm.present.pictures.draw import canvas

    rules = registry.get("neighbors")
    for names in (NAMES, ["a player with a very long name indeed", "bob", "Zoë Ångström"]):
        state = rules.start(rules.setup(names, {}, 3), 1_000.0)
        for turn in range(6):
            (mover,) = rules.to_move(state)
            state = rules.step(state, mover, rules.read_order(state, mover, rules.legal_orders(state, mover)[0]),
                               0.0).state
            drawn = neighbors.draw(rules, state, None)
            assert drawn.mode == "P"
            assert drawn.convert("RGB").tobytes() == neighbors.drawn_on(canvas, rules, state, None).tobytes()


def test_text_on_a_palette_canvas_blends_as_on_rgb_over_one_colour_or_several():
    from gm.present.pictures.draw import INK, canvas, palette_canvas, text

    rgb, rgb_pen = canvas(120, 40)
    pal, pal_pen = palette_canvas(120, 40)
    for pen in (rgb_pen, pal_pen):
        pen.rectangle((0, 0, 40, 39), fill=(250, 200, 70))  # under the first word only
        pen.rectangle((60, 0, 62, 39), fill=(0, 114, 178))  # a bar the second word crosses
    for image in (rgb, pal):
        text(image, (5, 20), "Qx", 15, INK, "lm")  # on one colour
        text(image, (30, 20), "over two", 15, (213, 94, 0), "lm")  # over three
    assert pal.mode == "P" and pal.convert("RGB").tobytes() == rgb.tobytes()


def test_a_picture_of_more_than_256_colours_is_drawn_in_rgb(monkeypatch):
    from gm.present.pictures import draw, neighbors

    rules = registry.get("neighbors")
    state = rules.start(rules.setup(NAMES, {}, 3), 1_000.0)
    full = draw.palette_canvas

    def crowded(width, height):  # a palette with one entry left: filled by the background
        image, pen = full(width, height)
        image.putpalette(bytes(range(255)) * 3)
        return image, pen

    monkeypatch.setattr(draw, "palette_canvas", crowded)
    drawn = neighbors.draw(rules, state, None)
    assert drawn.mode == "RGB" and drawn.tobytes() == neighbors.drawn_on(draw.canvas, rules, state, None).tobytes()


def test_a_palette_mapping_that_moves_a_colour_is_caught_and_the_picture_goes_as_rgb(monkeypatch):
    """Should Pillow map colours differently one day: palette_plan tries the mapping on one pixel
    of each colour, and a picture whose mapping moves one goes out as RGB, still exact."""
    from gm.present.pictures import draw

    image = near_colours(1)
    draw.palette_plan.cache_clear()
    try:
        monkeypatch.setattr(Image.Image, "point", lambda self, table: self.copy())  # no spreading
        assert draw.as_palette(image) is None
        data = draw.png(image)
        assert data[25] == 2  # RGB
        assert Image.open(io.BytesIO(data)).convert("RGB").tobytes() == image.tobytes()
    finally:
        draw.palette_plan.cache_clear()


@pytest.mark.parametrize("kind", sorted(pictures.PAINTERS))
def test_every_game_drawn_on_a_palette_has_the_pixels_it_has_drawn_in_rgb(kind):
    """Each painter draws on a palette canvas (draw.drawn): for every viewer, the picture is the one
    its drawing on an RGB canvas gives, pixel for pixel (the same checked over a whole game by
    test_report_golden)."""
    import importlib

    from gm.present.pictures.draw import canvas

    painter = importlib.import_module(f"gm.present.pictures.{kind.replace('-', '_')}")
    rules = registry.get(kind)
    state = rules.start(rules.setup(NAMES, {}, 3), 1_000.0)
    for viewer in (None, NAMES[0], OBSERVER):
        drawn = painter.draw(rules, state, viewer)
        assert drawn.mode == "P"
        assert drawn.convert("RGB").tobytes() == painter.drawn_on(canvas, rules, state, viewer).tobytes()


def test_pillow_is_imported_at_the_first_picture_not_with_the_daemon():
    """A round of text reports draws nothing: Pillow and the painters (some 4 MB) stay out of a
    daemon's memory until a picture is wanted."""
    probe = ("import sys, gm.cli, gm.present.pictures as p; before = 'PIL' in sys.modules; "
             "from games import registry; rules = registry.get('neighbors'); "
             "p.picture(rules, rules.start(rules.setup(['ada', 'bob'], {}, 3), 1000.0), None); "
             "print(before, 'PIL' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True"]


@pytest.mark.parametrize("kind", sorted(pictures.PAINTERS))
def test_a_painter_with_a_view_key_is_listed_in_view_keys(kind):
    """A painter whose picture differs by viewer says so (view_key) and is in VIEW_KEYS, or every
    viewer would get the first viewer's picture."""
    assert hasattr(pictures.painter(kind), "view_key") == (kind in pictures.VIEW_KEYS)
