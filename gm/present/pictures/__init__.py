"""Pictures of a game's position: one module per game, each a pure function of (state, viewer).

A viewer sees only what the text report shows them (never another seat's sealed
order); None is the game master, gm.present.reports.OBSERVER an onlooker.  The
same state and viewer always give the same PNG bytes, so a picture can be made
again from a replay.  Drawn with Pillow: it needs nothing outside Python (no
Cairo), draws polygons, lines and text with its own font, and writes PNG.

    picture(rules, state, viewer) -> PNG bytes, or None for a kind with no picture
"""

from __future__ import annotations

from typing import Any, Callable

from PIL import Image

from gm.present.pictures import fuzzy_borders, neighbors, phalanx, pivot_pawns, proximity
from gm.present.pictures.draw import png

Painter = Callable[[Any, Any, "str | None"], Image.Image]
PAINTERS: dict[str, Painter] = {  # kind -> draw(rules, state, viewer)
    "fuzzy-borders": fuzzy_borders.draw,
    "neighbors": neighbors.draw,
    "phalanx": phalanx.draw,
    "proximity": proximity.draw,
    "pivot-pawns": pivot_pawns.draw,
}


def picture(rules: Any, state: Any, viewer: str | None) -> bytes | None:
    """A PNG of the position as ``viewer`` may see it, or None for a kind with no picture."""
    draw = PAINTERS.get(rules.kind)
    return None if draw is None else png(draw(rules, state, viewer))
