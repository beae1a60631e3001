"""Pictures of a game's position: one module per game, each a pure function of (state, viewer).

A viewer sees only what the text report shows them (never another seat's sealed order);
None is the GM, gm.present.reports.OBSERVER an onlooker.  The same state and viewer give
the same PNG bytes, so a picture can be drawn again from a replay.  Drawn with Pillow
(nothing outside Python, its own font, PNG).  picture(rules, state, viewer) gives one
picture; pictures_for(rules, state, viewers) draws each distinct one once; specs_for gives
each viewer's picture as a spec (JSON) that drawn_later draws in another process.  A picture
costs 5-30 ms and a turn's reports go to every player, so a game whose picture shows a
viewer something of their own names it in VIEW_KEYS: viewers with equal keys share one
picture, and a game not in VIEW_KEYS draws one for everyone.
"""

from __future__ import annotations

import functools
import importlib
import json
from types import ModuleType
from typing import Any, Callable, Mapping

ENGLISH = "en"  # gm.core.i18n.ENGLISH: a report with no picture loads no catalogue

# kind -> the module of this package that draws it: draw(rules, state, viewer) -> a Pillow image,
# and view_key(state, viewer) where its picture shows a viewer something of their own (VIEW_KEYS).
# Imported when a picture is first wanted: Pillow and the painters are some 4 MB of a daemon's
# peak memory that a round of text reports (no pictures) never uses.
PAINTERS: dict[str, str] = {
    "fuzzy-borders": "fuzzy_borders",
    "neighbors": "neighbors",
    "phalanx": "phalanx",
    "proximity": "proximity",
    "pivot-pawns": "pivot_pawns",
}

# The kinds whose painter has view_key(state, viewer): equal keys, equal pictures (the painter's
# own rule for the viewer).
VIEW_KEYS = frozenset({"fuzzy-borders", "pivot-pawns", "proximity"})


def painter(kind: str) -> ModuleType:
    """The module drawing ``kind`` (one of PAINTERS), imported at its first picture."""
    return importlib.import_module(f"{__name__}.{PAINTERS[kind]}")


def pictures_for(rules: Any, state: Any, viewers: list[str | None],
                 languages: Mapping[str | None, str] = {}) -> dict[str | None, bytes | None]:
    """The picture each viewer may see in their language (``languages``; English for one not in
    it), each distinct picture drawn once (see VIEW_KEYS)."""
    key_of: Callable[[Any, str | None], Any] = (painter(rules.kind).view_key if rules.kind in VIEW_KEYS
                                                 else lambda state, viewer: ())
    drawn: dict[Any, bytes | None] = {}
    out = {}
    for viewer in viewers:
        language = languages.get(viewer, ENGLISH)
        key = (language, key_of(state, viewer))
        if key not in drawn:  # English: picture's three arguments, as ever (what a caller may wrap)
            drawn[key] = picture(rules, state, viewer, **({} if language == ENGLISH else {"language": language}))
        out[viewer] = drawn[key]
    return out


def size(png_bytes: bytes) -> tuple[int, int]:
    """(width, height) of a PNG, from its header (the IHDR chunk comes first)."""
    return int.from_bytes(png_bytes[16:20], "big"), int.from_bytes(png_bytes[20:24], "big")


def picture(rules: Any, state: Any, viewer: str | None, language: str = ENGLISH) -> bytes | None:
    """A PNG of the position as ``viewer`` may see it, its words in ``language``, or None for a
    kind with no picture."""
    if rules.kind not in PAINTERS:
        return None
    from gm.present.pictures.draw import LANGUAGE, png  # with Pillow, at the first picture (see PAINTERS)

    token = LANGUAGE.set(language)
    try:
        return png(painter(rules.kind).draw(rules, state, viewer))
    finally:
        LANGUAGE.reset(token)


def specs_for(rules: Any, state: Any, viewers: list[str | None],
              languages: Mapping[str | None, str] = {}) -> dict[str | None, str | None]:
    """pictures_for's pictures, each as the spec drawn_later draws it from (None: the kind has no
    picture), so that the process that makes a report need not draw it: equal pictures, equal specs
    (an English picture's spec names no language)."""
    if rules.kind not in PAINTERS or not viewers:
        return dict.fromkeys(viewers)
    dumped = rules.dump(state)
    specs: dict[str | None, str | None] = {}
    for viewer in viewers:
        spec = {"kind": rules.kind, "state": dumped, "viewer": viewer if rules.kind in VIEW_KEYS else viewers[0]}
        if languages.get(viewer, ENGLISH) != ENGLISH:
            spec["language"] = languages[viewer]
        specs[viewer] = json.dumps(spec, sort_keys=True)
    return specs


@functools.lru_cache(maxsize=16)
def drawn_later(spec: str) -> bytes:
    """The picture a spec of specs_for stands for: the PNG picture() draws of that state and viewer."""
    from games import registry

    data = json.loads(spec)
    rules = registry.get(data["kind"])
    png = picture(rules, rules.load(data["state"]), data["viewer"], data.get("language", ENGLISH))
    assert png is not None  # specs_for gives a spec only for a kind with a painter
    return png
