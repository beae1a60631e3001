"""Proximity's suits, tiles and pieces in words, as Texts said in the reader's language."""

from __future__ import annotations

from typing import Protocol

from games.text import Text, mark


class Tile(Protocol):
    """What the words need of a tile (state.Tile, whose module reads lines back with these
    tables, so this one does not import it)."""

    @property
    def suit(self) -> str: ...

    @property
    def value(self) -> int: ...

SUIT_WORDS = {"suns": mark("Suns"), "moons": mark("Moons"), "crowns": mark("Crowns"), "arms": mark("Arms")}
TILE_WORDS = {"suns": mark("Sun {value}"), "moons": mark("Moon {value}"), "crowns": mark("Crown {value}"),
              "arms": mark("Arm {value}")}
# A piece named in a sentence: "b2 is occupied by the Suns pawn".
THE_PIECE = {"pawn": mark("the {suit} pawn"), "coin": mark("the {suit} coin")}
ORDINALS = {"st": mark("{n}st"), "nd": mark("{n}nd"), "rd": mark("{n}rd"), "th": mark("{n}th")}


def tile_words(tile: Tile) -> Text:
    """A tile in words: "Sun 3", "Moon A" (the ace), "Crown null"."""
    value = Text("null") if tile.value == 0 else "A" if tile.value == 1 else str(tile.value)
    return Text(TILE_WORDS[tile.suit], value=value)


def suit_words(suit: str) -> Text:
    """A suit's name: "Suns"."""
    return Text(SUIT_WORDS[suit])


def ordinal(n: int) -> Text:
    """1st, 2nd, 3rd, 4th, 11th ... (German and French say their own)."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return Text(ORDINALS[suffix], n=n)
