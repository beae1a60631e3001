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
