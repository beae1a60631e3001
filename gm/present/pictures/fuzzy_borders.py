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
from games.text import Text
from gm.present.pictures.draw import (drawn,
    EMPTY,
    GRID,
    INK,
    Colour,
    axial_centre,
    blend,
    font,
    hexagon,
    player_colour,
    said,
)
from gm.present.pictures.draw import text as draw_text

BOARD_WIDTH = 700  # pixels across the board and its coordinates, at most
MAX_RADIUS = 30  # a small board is not blown up beyond this cell radius
MARGIN = 10
MIN_WIDTH = 560  # a small board still leaves room for the legend's lines
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
        self.width = max(MIN_WIDTH, math.ceil(self.radius * across) + 2 * MARGIN)
        # The ring's bottom side holds no coordinates: the box ends below row 2N-1.
        self.height = math.ceil(self.radius * (3 * side + 0.5)) + 2 * MARGIN
        self.origin = (self.width / 2,
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

    def text(self, image: Image.Image, cell: Cell, words: str, colour: Colour = INK, size: float = 0.8) -> None:
        x, y = self.centre(cell)  # to the whole pixel: text is stamped there (draw.text)
        draw_text(image, (round(x), round(y)), words, max(8, round(self.radius * size)), colour, "mm")

    def coordinates(self, image: Image.Image) -> None:
        """Diagonal letters beyond each diagonal's north-west end; row numbers at the row ends.

        The letters take the ring's top and upper-left sides, so a row's west
        number is written only on rows N..2N-1 (the lower-left side); every
        row has its number at its east end.
        """
        n = self.side - 1
        for q in range(-n, n + 1):
            head = min(r for r in range(-n, n + 1) if self.grid.exists((q, r)))
            self.text(image, (q, head - 1), self.grid.name((q, head))[0])
        for r in range(-n, n + 1):
            row = [q for q in range(-n, n + 1) if self.grid.exists((q, r))]
            self.text(image, (row[-1] + 1, r), str(r + self.side), size=0.7)
            if r >= 0:
                self.text(image, (row[0] - 1, r), str(r + self.side), size=0.7)


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


def view_key(state: Any, viewer: str | None) -> tuple:
    """All the picture shows of ``viewer``'s own: the sealed claims they may see."""
    return tuple(sorted(visible_sealed(state, viewer).items()))


# A legend entry: (swatch, text); a swatch is (shape "box" | "disc", colour, text on it) or None.
Swatch = tuple[str, Colour, str]
Entry = tuple["Swatch | None", str]


def wrap(text: str, width: float, size: int) -> list[str]:
    """``text`` in lines no wider than ``width`` pixels in the font of ``size``."""
    face = font(size)
    lines: list[str] = []
    for word in text.split(" "):
        if lines and face.getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines


class Legend:
    """Lines of text under the board, each entry with an optional swatch, wrapped to the width."""

    def __init__(self, entries: list[Entry], width: int, line: int):
        self.line = line
        self.size = round(line * 0.8)
        indent = line + 2
        self.rows: list[tuple[Swatch | None, int, str]] = []
        for swatch, text in entries:
            left = indent if swatch is not None else 0
            for i, part in enumerate(wrap(text, width - 2 * MARGIN - left, self.size)):
                self.rows.append((swatch if i == 0 else None, left, part))

    @property
    def height(self) -> int:
        return self.line * len(self.rows) + MARGIN

    def draw(self, image: Image.Image, top: int) -> None:
        pen = ImageDraw.Draw(image)
        size = self.line - 4
        for i, (swatch, left, words) in enumerate(self.rows):
            y = top + i * self.line
            if swatch is not None:
                shape, colour, mark = swatch
                box = (MARGIN, y + 2, MARGIN + size, y + 2 + size)
                if shape == "disc":
                    pen.ellipse(box, fill=colour, outline=INK)
                else:
                    pen.rectangle(box, fill=colour, outline=INK)
                if mark:
                    draw_text(image, (MARGIN + size // 2, y + 2 + size // 2), mark, round(size * 0.8),
                              ink_on(colour), "mm")
            draw_text(image, (MARGIN + left, y + 2), words, self.size, INK)


def draw(rules: Any, state: Any, viewer: str | None) -> Image.Image:
    """The position as ``viewer`` may see it (None: the GM; a non-player: an observer).

    Drawn on a palette (draw.palette_canvas), or in RGB should it need more than 256 colours (draw.drawn)."""
    return drawn(lambda new_canvas: drawn_on(new_canvas, rules, state, viewer))


def drawn_on(new_canvas: Any, rules: Any, state: Any, viewer: str | None) -> Image.Image:
    hexes = layout(state)
    board = state.board()
    marks = symbols(state.players)
    colours = {p: player_colour(i) for i, p in enumerate(state.players)}
    scores = rules.scores(state)

    if state.over:
        status = Text("Game over after turn {turn}.", turn=state.turn)
    else:
        status = Text("Turn {turn} (re-opened).", turn=state.turn) if state.reopened \
            else Text("Turn {turn}.", turn=state.turn)
    entries: list[Entry] = [(None, said(status))]
    for player in state.players:
        counts = board.counts(player)
        values = dict(name=player, score=scores[player], claimed=counts["claimed"], led=counts["led"],
                      owned=counts["owned"])
        line = Text("{name} (left): {score} points ({claimed} claimed, {led} led, {owned} owned)", **values) \
            if player in state.left else \
            Text("{name}: {score} points ({claimed} claimed, {led} led, {owned} owned)", **values)
        entries.append((("box", colours[player], marks[player]), said(line)))
    entries.append((None, said(Text("Filled with a mark: claimed (10); shaded with a number: led, worth 1-5; "
                                    "ring with ?: a sealed claim of this turn (only your own)."))))
    legend = Legend(entries, hexes.width, max(14, round(hexes.radius * 0.9)))
    image, pen = new_canvas(hexes.width, hexes.height + legend.height)

    for cell in hexes.grid.cells:
        here = board[cell]
        if here.claimer is not None:
            colour = colours[here.claimer]
            hexes.fill(pen, cell, colour)
            hexes.text(image, cell, marks[here.claimer], ink_on(colour))
        elif here.leader is not None:
            colour = blend(colours[here.leader], shade(here.value))
            hexes.fill(pen, cell, colour)
            hexes.text(image, cell, str(here.value), ink_on(colour), size=0.7)
        else:
            hexes.fill(pen, cell, EMPTY)
    for player, name in sorted(visible_sealed(state, viewer).items()):
        cell = state.cell(name)
        inner, outer = SEALED_RING
        hexes.disc(pen, cell, outer, colours[player])
        hexes.disc(pen, cell, inner, WHITE)
        hexes.text(image, cell, "?", INK, size=0.7)
    hexes.coordinates(image)

    legend.draw(image, hexes.height)
    return image
