"""gm.present.pictures.picture: one entry for every game's picture."""

from __future__ import annotations

import io

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


def noisy(width=140, height=70):
    """A background where any pixel blended differently would show."""
    return Image.effect_noise((width, height), 60).convert("RGB")


@pytest.mark.parametrize("words, size, anchor, xy, fill", [
    ("a", 15, "mm", (20, 20), (34, 34, 34)),
    ("6", 15, "mm", (2, 60), (0, 114, 178)),
    ("score 12", 15, "rm", (139, 35), (150, 150, 150)),
    ("Turn 6 · ada played Ra5xa6, taking a bishop", 15, "lm", (-4, 30), (34, 34, 34)),
    ("bob (left)…", 13, "la", (10, -3), (213, 94, 0)),
    ("TARGET", 12, "md", (70, 69), (255, 255, 255)),
    ("Q", 28, "mm", (70, 35), (34, 34, 34)),
])
def test_text_from_a_kept_stamp_is_pixel_for_pixel_what_imagedraw_draws(words, size, anchor, xy, fill):
    from PIL import ImageChops, ImageDraw

    from gm.present.pictures import draw

    direct = noisy()
    stamped = direct.copy()
    ImageDraw.Draw(direct).text(xy, words, fill=fill, font=draw.font(size), anchor=anchor)
    draw.text(stamped, xy, words, size, fill, anchor)
    assert ImageChops.difference(direct, stamped).getbbox() is None
    assert direct.tobytes() != noisy().tobytes()  # the text was drawn at all
