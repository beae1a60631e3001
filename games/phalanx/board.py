"""Groups, straight runs and territory on a Phalanx board (PH1, PH6).

``cells`` maps occupied cells to RED, YELLOW or WALL; absent cells are vacant.
"""

from __future__ import annotations

from functools import lru_cache

from games.hexgrid import Cell, HexGrid, add

from .state import COLOURS, WALL


@lru_cache(maxsize=None)
def _neighbour_map(grid: HexGrid) -> dict[Cell, tuple[Cell, ...]]:
    return {cell: tuple(grid.neighbours(cell)) for cell in grid.cells}


def neighbours(grid: HexGrid, cell: Cell) -> tuple[Cell, ...]:
    """The cells next to ``cell``; looked up, as territory and groups ask millions of times."""
    return _neighbour_map(grid)[cell]


def groups(cells: dict[Cell, str], grid: HexGrid, colour: str) -> list[frozenset[Cell]]:
    """The connected groups of ``colour``, each a set of cells, in board order."""
    seen: set[Cell] = set()
    found = []
    for start in sorted(c for c, k in cells.items() if k == colour):
        if start in seen:
            continue
        group = {start}
        todo = [start]
        while todo:
            cell = todo.pop()
            for near in neighbours(grid, cell):
                if near not in group and cells.get(near) == colour:
                    group.add(near)
                    todo.append(near)
        seen |= group
        found.append(frozenset(group))
    return found


def run_through(cells: dict[Cell, str], cell: Cell, direction: Cell) -> list[Cell]:
    """The maximal straight run of men of ``cell``'s colour through ``cell`` on one axis."""
    colour = cells.get(cell)
    back = cell
    while cells.get(add(back, direction, -1)) == colour:
        back = add(back, direction, -1)
    run = [back]
    while cells.get(add(run[-1], direction)) == colour:
        run.append(add(run[-1], direction))
    return run


def territory(cells: dict[Cell, str], grid: HexGrid) -> dict[str, int]:
    """Vacant cells connected through vacant cells to men of one colour only (PH6)."""
    counts = {colour: 0 for colour in COLOURS}
    seen: set[Cell] = set()
    for start in grid.cells:
        if start in cells or start in seen:
            continue
        region = {start}
        touches: set[str] = set()
        todo = [start]
        while todo:
            cell = todo.pop()
            for near in neighbours(grid, cell):
                kind = cells.get(near)
                if kind is None:
                    if near not in region:
                        region.add(near)
                        todo.append(near)
                elif kind != WALL:
                    touches.add(kind)
        seen |= region
        if len(touches) == 1:
            counts[touches.pop()] += len(region)
    return counts
