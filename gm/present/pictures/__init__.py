"""Pictures of a game's position: one module per game, each a pure function of (state, viewer).

A viewer sees only what the text report shows them (never another seat's sealed
order); None is the game master, gm.present.reports.OBSERVER an onlooker.  The
same state and viewer always give the same PNG bytes, so a picture can be made
again from a replay.  Drawn with Pillow: it needs nothing outside Python (no
Cairo), draws polygons, lines and text with its own font, and writes PNG.

    picture(rules, state, viewer) -> PNG bytes, or None for a kind with no picture
    pictures_for(rules, state, viewers) -> {viewer: PNG bytes or None}, each distinct one drawn once

A picture costs 5-30 ms (drawn and packed), and a turn's reports go to every player: a game whose
picture shows a viewer something of their own names it in VIEW_KEYS (what the
viewer sees beyond an observer); viewers with equal keys get the same picture,
drawn once.  A game not in VIEW_KEYS draws one picture for everyone.
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


# kind -> view_key(state, viewer): equal keys, equal pictures (the painter's own rule for the viewer).
VIEW_KEYS: dict[str, Callable[[Any, "str | None"], Any]] = {
    "fuzzy-borders": fuzzy_borders.view_key,
    "pivot-pawns": pivot_pawns.view_key,
    "proximity": proximity.view_key,
}


def pictures_for(rules: Any, state: Any, viewers: list[str | None]) -> dict[str | None, bytes | None]:
    """The picture each viewer may see, each distinct picture drawn once (see VIEW_KEYS)."""
    key_of = VIEW_KEYS.get(rules.kind, lambda state, viewer: ())
    drawn: dict[Any, bytes | None] = {}
    out = {}
    for viewer in viewers:
        key = key_of(state, viewer)
        if key not in drawn:
            drawn[key] = picture(rules, state, viewer)
        out[viewer] = drawn[key]
    return out


def size(png_bytes: bytes) -> tuple[int, int]:
    """(width, height) of a PNG, from its header (the IHDR chunk comes first)."""
    return int.from_bytes(png_bytes[16:20], "big"), int.from_bytes(png_bytes[20:24], "big")


def picture(rules: Any, state: Any, viewer: str | None) -> bytes | None:
    """A PNG of the position as ``viewer`` may see it, or None for a kind with no picture."""
    draw = PAINTERS.get(rules.kind)
    return None if draw is None else png(draw(rules, state, viewer))
