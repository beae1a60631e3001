"""The picture of a Fuzzy Borders position: the hex board, claims, led cells, scores.

Each player has the colour of their seat (draw.player_colour, in the order of
the player list).  A claimed cell is filled with its claimer's colour and
carries the claimer's mark from the text report (@ * + ...); a led cell is
shaded towards its leader's colour by its value 1-5 and shows the value; an
empty cell is draw.EMPTY.  A sealed claim of the open turn is a ring in its
player's colour, drawn only for that player and the GM, as the text report
shows it.  Diagonal letters stand beyond the north-west end of each diagonal,
row numbers beyond the east end of every row and the west end of rows N..2N-1.

``HexLayout`` places the cells of any FB1 board (Phalanx uses it too).
"""

from __future__ import annotations

import math
from typing import Any

from PIL import Image, ImageDraw

from games.fuzzy_borders.present import symbols
from games.hexgrid import Cell, HexGrid
from gm.present.pictures.draw import (
    EMPTY,
    GRID,
    INK,
    Colour,
    axial_centre,
    blend,
    canvas,
    font,
    hexagon,
    player_colour,
)

BOARD_WIDTH = 700  # pixels across the board and its coordinates, at most
MAX_RADIUS = 30  # a small board is not blown up beyond this cell radius
MARGIN = 10
SEALED_RING = (0.58, 0.80)  # inner and outer radius of a sealed claim's ring, in cell radii
WHITE = (255, 255, 255)


def shade(value: int) -> float:
    """How much of the leader's colour a led cell of ``value`` 1-5 shows."""
    return value / 6


def ink_on(colour: Colour) -> Colour:
    """Text colour readable on ``colour``."""
    r, g, b = colour
    return WHITE if 0.299 * r + 0.587 * g + 0.114 * b < 140 else INK


class HexLayout:
    """Pixel places of an FB1 board of ``side`` (pointy-top cells, centre in the middle).

    The box holds the board and one ring of cells around it for the coordinates
    (but for the ring's bottom side, which holds none).
    """

    def __init__(self, side: int, board_width: int = BOARD_WIDTH):
        self.grid = HexGrid(side)
        self.side = side
        across = (2 * side + 1) * math.sqrt(3)  # cell widths across the board and its labels
        self.radius = min(MAX_RADIUS, int((board_width - 2 * MARGIN) / across))
        self.width = math.ceil(self.radius * across) + 2 * MARGIN
        # The ring's bottom side holds no coordinates: the box ends below row 2N-1.
        self.height = math.ceil(self.radius * (3 * side + 0.5)) + 2 * MARGIN
        self.origin = (MARGIN + self.radius * math.sqrt(3) * (side + 0.5),
                       MARGIN + self.radius * (1.5 * side + 1))

    def centre(self, cell: Cell) -> tuple[float, float]:
        return axial_centre(cell[0], cell[1], self.radius, self.origin)

    def pixel(self, name: str) -> tuple[int, int]:
        """The pixel at the centre of the cell called ``name`` (e.g. 'J10')."""
        x, y = self.centre(self.grid.parse(name))
        return round(x), round(y)

    def hexagon(self, cell: Cell) -> list[tuple[float, float]]:
        x, y = self.centre(cell)
        return hexagon(x, y, self.radius)

    def fill(self, pen: ImageDraw.ImageDraw, cell: Cell, colour: Colour) -> None:
        pen.polygon(self.hexagon(cell), fill=colour, outline=GRID)

    def disc(self, pen: ImageDraw.ImageDraw, cell: Cell, size: float, colour: Colour,
             outline: Colour | None = None, width: int = 1) -> None:
        x, y = self.centre(cell)
        r = self.radius * size
        pen.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=outline, width=width)

    def text(self, pen: ImageDraw.ImageDraw, cell: Cell, text: str, colour: Colour = INK,
             size: float = 0.8) -> None:
        pen.text(self.centre(cell), text, fill=colour, font=font(max(8, round(self.radius * size))),
                 anchor="mm")

    def coordinates(self, pen: ImageDraw.ImageDraw) -> None:
        """Diagonal letters beyond each diagonal's north-west end; row numbers at the row ends.

        The letters take the ring's top and upper-left sides, so a row's west
        number is written only on rows N..2N-1 (the lower-left side); every
        row has its number at its east end.
        """
        n = self.side - 1
        for q in range(-n, n + 1):
            head = min(r for r in range(-n, n + 1) if self.grid.exists((q, r)))
            self.text(pen, (q, head - 1), self.grid.name((q, head))[0])
        for r in range(-n, n + 1):
            row = [q for q in range(-n, n + 1) if self.grid.exists((q, r))]
            self.text(pen, (row[-1] + 1, r), str(r + self.side), size=0.7)
            if r >= 0:
                self.text(pen, (row[0] - 1, r), str(r + self.side), size=0.7)


def layout(state: Any) -> HexLayout:
    return HexLayout(state.side)


def cell_centre(state: Any, name: str) -> tuple[int, int]:
    """The pixel (x, y) at the centre of cell ``name`` in this state's picture."""
    return layout(state).pixel(name)


def cell_radius(state: Any) -> int:
    """The radius in pixels of a cell (centre to corner) in this state's picture."""
    return layout(state).radius


def visible_sealed(state: Any, viewer: str | None) -> dict[str, str]:
    """The sealed claims ``viewer`` may see: all for the GM, their own for a player."""
    if viewer is None:
        return dict(state.sealed)
    return {viewer: state.sealed[viewer]} if viewer in state.sealed else {}


def _legend_lines(rules: Any, state: Any) -> list[str]:
    if state.over:
        status = f"Game over after turn {state.turn}"
    else:
        status = f"Turn {state.turn}" + (" (re-opened)" if state.reopened else "")
    return [status]


def draw(rules: Any, state: Any, viewer: str | None) -> Image.Image:
    """The position as ``viewer`` may see it (None: the GM; a non-player: an observer)."""
    hexes = layout(state)
    board = state.board()
    marks = symbols(state.players)
    colours = {p: player_colour(i) for i, p in enumerate(state.players)}
    scores = rules.scores(state)

    line = max(14, round(hexes.radius * 0.9))
    columns = 2 if len(state.players) > 4 else 1
    rows = math.ceil(len(state.players) / columns)
    legend_top = hexes.height
    height = legend_top + line * (rows + 3) + MARGIN
    image, pen = canvas(hexes.width, height)

    for cell in hexes.grid.cells:
        here = board[cell]
        if here.claimer is not None:
            colour = colours[here.claimer]
            hexes.fill(pen, cell, colour)
            hexes.text(pen, cell, marks[here.claimer], ink_on(colour))
        elif here.leader is not None:
            colour = blend(colours[here.leader], shade(here.value))
            hexes.fill(pen, cell, colour)
            hexes.text(pen, cell, str(here.value), ink_on(colour), size=0.7)
        else:
            hexes.fill(pen, cell, EMPTY)
    for player, name in sorted(visible_sealed(state, viewer).items()):
        cell = state.cell(name)
        inner, outer = SEALED_RING
        hexes.disc(pen, cell, outer, colours[player])
        hexes.disc(pen, cell, inner, WHITE)
        hexes.text(pen, cell, "?", INK, size=0.7)
    hexes.coordinates(pen)

    small = font(round(line * 0.8))
    y = legend_top
    pen.text((MARGIN, y), _legend_lines(rules, state)[0], fill=INK, font=small)
    y += line
    column_width = (hexes.width - 2 * MARGIN) // columns
    for i, player in enumerate(state.players):
        x = MARGIN + (i // rows) * column_width
        top = y + (i % rows) * line
        colour = colours[player]
        size = line - 4
        pen.rectangle((x, top + 2, x + size, top + 2 + size), fill=colour, outline=INK)
        pen.text((x + size / 2, top + 2 + size / 2), marks[player], fill=ink_on(colour),
                 font=font(round(size * 0.8)), anchor="mm")
        counts = board.counts(player)
        gone = " (left)" if player in state.left else ""
        text = (f"{player}{gone}: {scores[player]} points ({counts['claimed']} claimed, "
                f"{counts['led']} led, {counts['owned']} owned)")
        pen.text((x + size + 6, top + 2), text, fill=INK, font=small)
    y += rows * line
    key = "Filled with a mark: claimed (10); shaded with a number: led, worth 1-5."
    pen.text((MARGIN, y), key, fill=INK, font=small)
    if visible_sealed(state, viewer):
        pen.text((MARGIN, y + line), "Ring with ?: a sealed claim of this turn.", fill=INK, font=small)
    return image
