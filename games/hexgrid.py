"""A hexagonal board of hexagonal cells, shared by Fuzzy Borders and Phalanx.

Coordinates follow RULINGS FB1: rows 1..2N-1 from the top, NW-SE diagonals
lettered A.. from the south-west edge.  Internally a cell is an axial pair
(q, r) with q = letter index - (N-1) and r = row - N, centre (0, 0).
"""

from __future__ import annotations

import re
from functools import cached_property
from string import ascii_uppercase
from typing import Callable, Iterator

from games.text import Text

Cell = tuple[int, int]

# The six neighbour offsets of FB1.  Opposite directions are d and -d.
DIRECTIONS: tuple[Cell, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
# One direction of each of the three axes (the lines of movement, PH1).
AXES: tuple[Cell, ...] = ((1, 0), (0, 1), (1, -1))

_NAME = re.compile(r"^\s*([A-Za-z])\s*(\d{1,2})\s*$")


class CellNameError(ValueError):
    """A cell name that is not letter+row, or names no cell of this board."""


def distance(a: Cell, b: Cell) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def add(a: Cell, b: Cell, times: int = 1) -> Cell:
    return (a[0] + b[0] * times, a[1] + b[1] * times)


def direction_between(a: Cell, b: Cell) -> tuple[Cell, int] | None:
    """The unit direction and step count from a to b when they share an axis, else None."""
    dq, dr = b[0] - a[0], b[1] - a[1]
    steps = max(abs(dq), abs(dr), abs(dq + dr))
    if steps == 0:
        return None
    unit = (dq // steps, dr // steps) if dq % steps == 0 and dr % steps == 0 else None
    if unit not in DIRECTIONS:
        return None
    return unit, steps


def rotate60(cell: Cell) -> Cell:
    """Rotate a cell 60 degrees clockwise about the centre."""
    q, r = cell
    s = -q - r
    return (-r, -s)


def rotate(cell: Cell, sixths: int) -> Cell:
    """Rotate a cell by ``sixths`` times 60 degrees clockwise about the centre."""
    for _ in range(sixths % 6):
        cell = rotate60(cell)
    return cell


class HexGrid:
    def __init__(self, side: int):
        if not 2 <= side <= 13:
            # 13 keeps every diagonal a single letter (2N-1 <= 26) and boards under 72 columns.
            raise ValueError(f"board side must be 2..13, not {side}")
        self.side = side
        self.radius = side - 1

    # --- cells ----------------------------------------------------------------
    def exists(self, cell: Cell) -> bool:
        q, r = cell
        n = self.radius
        return abs(q) <= n and abs(r) <= n and abs(q + r) <= n

    @cached_property
    def cells(self) -> tuple[Cell, ...]:
        """Every cell, row by row from the top, west to east."""
        n = self.radius
        return tuple(
            (q, r) for r in range(-n, n + 1) for q in range(-n, n + 1) if self.exists((q, r))
        )

    def row_cells(self, row: int) -> list[Cell]:
        r = row - self.side
        return [(q, r) for q in range(-self.radius, self.radius + 1) if self.exists((q, r))]

    def neighbours(self, cell: Cell) -> list[Cell]:
        return [c for c in (add(cell, d) for d in DIRECTIONS) if self.exists(c)]

    def within(self, cell: Cell, radius: int) -> Iterator[tuple[Cell, int]]:
        """Cells at distance 1..radius from ``cell`` that exist, with their distance."""
        q0, r0 = cell
        for dq in range(-radius, radius + 1):
            for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
                d = max(abs(dq), abs(dr), abs(dq + dr))
                if d and self.exists((q0 + dq, r0 + dr)):
                    yield (q0 + dq, r0 + dr), d

    def ring(self, cell: Cell, radius: int) -> list[Cell]:
        return [c for c, d in self.within(cell, radius) if d == radius]

    def line(self, start: Cell, direction: Cell) -> Iterator[Cell]:
        """Cells beyond ``start`` in ``direction`` until the edge."""
        cell = add(start, direction)
        while self.exists(cell):
            yield cell
            cell = add(cell, direction)

    # --- names ----------------------------------------------------------------
    def name(self, cell: Cell) -> str:
        q, r = cell
        return f"{ascii_uppercase[q + self.radius]}{r + self.side}"

    def parse(self, text: str) -> Cell:
        match = _NAME.match(text)
        if not match:
            raise CellNameError(Text("{text} is not a cell name like {example}", text=repr(text.strip()),
                                     example=self.name((0, 0))))
        letter, row = match.group(1).upper(), int(match.group(2))
        cell = (ascii_uppercase.index(letter) - self.radius, row - self.side)
        if not self.exists(cell):
            raise CellNameError(Text("there is no cell {cell} on this board", cell=f"{letter}{row}"))
        return cell

    # --- drawing --------------------------------------------------------------
    def render(self, cell_text: Callable[[Cell], str], width: int = 1) -> str:
        """ASCII board: one text line per row, each cell ``width`` characters wide.

        ``width`` must be odd so that rows can shift by half a cell and
        neighbours touch as on the board.  Row numbers stand at both ends.
        Each diagonal's letter stands next to its head (its north-west end),
        where no other cell is nearer: straight above the head for the
        diagonals that start in row 1, and on the head's own line, one cell
        to its left, for those that start in rows 2..N.  So the letter at the
        edge of a row is the letter of that row's first cell.  Width: side 10
        fits 72 columns with width 1, side 8 with width 3.
        """
        if width % 2 == 0:
            raise ValueError("cell width must be odd")
        pitch = width + 1
        half = pitch // 2
        n = self.radius
        margin = 3  # "19 "

        def column(cell: Cell) -> int:
            q, r = cell
            return margin + pitch + (2 * q + r + 2 * n) * half

        lines: list[list[str]] = []
        for row in range(0, 2 * self.side):
            line = [" "] * (margin + pitch + (4 * n + 2) * half + width + 4)
            if row:
                line[0:2] = f"{row:>2}"
            cells = self.row_cells(row) if row else []
            for cell in cells:
                text = cell_text(cell).center(width)[:width]
                x = column(cell)
                line[x:x + width] = text
            if row == 0:
                for cell in self.row_cells(1):
                    line[column(cell) + width // 2] = self.name(cell)[0]
            elif 2 <= row <= self.side:
                head = cells[0]
                line[column(head) - pitch + width // 2] = self.name(head)[0]
            if row:
                end = column(cells[-1]) + width + 1
                line[end:end + 2] = f"{row}"
            lines.append(line)
        return "\n".join("".join(line).rstrip() for line in lines)
