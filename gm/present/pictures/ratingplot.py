"""A player's rating history in one game kind: a small PNG for the archive's player page.

The conservative rating (gm.core.rating.ordinal) after each rated game, left to right, joined
by a line, with the lowest and highest figures and the game count written on the axes.  Drawn
with the board pictures' canvas, font and colours (gm.present.pictures.draw), so the same
figures give the same bytes; the PNG carries no text chunk (no name, no address).
"""

from __future__ import annotations

import functools
from typing import Callable

from PIL import Image, ImageDraw

from games.text import Plural
from gm.present.pictures.draw import GRID, INK, drawn, player_colour, png, text

WIDTH, HEIGHT = 480, 200
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 14, 30  # room for the figures on the axes
LABEL = 12  # font size of the axis figures
DOT = 3  # radius of a game's dot


def plot(values: list[float]) -> bytes:
    """The PNG of ``values`` (the rating after each game, oldest first; at least one)."""
    if not values:
        raise ValueError("a rating plot needs at least one game")
    return kept_plot(tuple(values))


@functools.lru_cache(maxsize=2048)
def kept_plot(values: tuple[float, ...]) -> bytes:
    """plot(), kept: the live archive renders every player's page after each game that ends, and
    a plot costs some 10 ms; only the players of that game have new figures (2 KB a plot)."""
    return png(drawn(lambda make: paint(make, list(values))))


def paint(make: Callable[[int, int], tuple[Image.Image, ImageDraw.ImageDraw]], values: list[float]) -> Image.Image:
    """The plot drawn on the canvas ``make`` gives (gm.present.pictures.draw.drawn's)."""
    image, draw = make(WIDTH, HEIGHT)
    low, high = min(values), max(values)
    if high - low < 1.0:  # a flat history: a band of one point round it
        low, high = (low + high) / 2 - 0.5, (low + high) / 2 + 0.5
    bottom, right = HEIGHT - BOTTOM, WIDTH - RIGHT

    def y_of(value: float) -> int:
        return round(bottom - (value - low) / (high - low) * (bottom - TOP))

    def x_of(index: int) -> int:
        return LEFT + (round((right - LEFT) / 2) if len(values) == 1
                       else round(index * (right - LEFT) / (len(values) - 1)))

    for value in (low, high):
        draw.line([(LEFT, y_of(value)), (right, y_of(value))], fill=GRID, width=1)
        text(image, (LEFT - 6, y_of(value)), f"{value:.1f}", LABEL, INK, anchor="rm")
    if low < 0 < high:
        draw.line([(LEFT, y_of(0.0)), (right, y_of(0.0))], fill=GRID, width=1)
    draw.line([(LEFT, TOP), (LEFT, bottom)], fill=INK, width=1)
    draw.line([(LEFT, bottom), (right, bottom)], fill=INK, width=1)
    points = [(x_of(i), y_of(v)) for i, v in enumerate(values)]
    colour = player_colour(0)
    if len(points) > 1:
        draw.line(points, fill=colour, width=2)
    for x, y in points:
        draw.ellipse([x - DOT, y - DOT, x + DOT, y + DOT], fill=colour)
    text(image, (LEFT, bottom + 8), "game 1", LABEL, INK, anchor="la")
    text(image, (right, bottom + 8), f"game {len(values)}", LABEL, INK, anchor="ra")
    return image


def alt_text(name: str, title: str, values: list[float]) -> str:
    """What the plot shows, in words: the figures themselves (for a screen reader, or no picture);
    a Text, said in the page's language where the page prints it."""
    figures = ", ".join(f"{value:.1f}" for value in values)
    return Plural("{name}'s {title} rating after each of {n} rated game: {figures}",
                  "{name}'s {title} rating after each of {n} rated games: {figures}",
                  name=name, title=title, n=len(values), figures=figures)
