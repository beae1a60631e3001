"""Playing one normal turn: growth (PH3), moves (PH4) and captures (PH5).

``TurnPlay`` works on its own copy of the board.  Each part of the turn is
checked on the position left by the parts before it (the order of moves
matters, and RULINGS G3 judges orders on the position as it stands), and an
illegal part raises IllegalOrderError naming the part.  The caller applies
nothing unless the whole turn went through.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.base import IllegalOrderError
from games.text import Text, mark
from games.hexgrid import DIRECTIONS, Cell, CellNameError, HexGrid, add, direction_between
from games.hexgrid import distance as cell_distance

from .board import groups, neighbours, run_through
from .orders import Move, Turn
from .state import RED, WALL, other

GREW = mark("the group at {head} grew this turn, so it may not move (PH4)")
MOVED = mark("the group at {head} has already moved this turn, so it may not move (PH4)")
JOINED = mark("the group at {head} was joined by a moving group this turn, so it may not move (PH4)")


@dataclass
class MoveDone:
    """What one move did, for the events and the tests."""

    move: Move  # with the distance filled in
    captured: list[Cell] = field(default_factory=list)


class TurnPlay:
    def __init__(self, cells: dict[Cell, str], grid: HexGrid, colour: str):
        self.cells = dict(cells)
        self.grid = grid
        self.colour = colour
        self.enemy = other(colour)
        # Men that may not move this turn, with the reason (PH3, PH4).
        self.locked: dict[Cell, str] = {}
        self.grown: list[Cell] = []
        self.moves: list[MoveDone] = []

    # --- names ------------------------------------------------------------
    def name(self, cell: Cell) -> str:
        return self.grid.name(cell)

    def cell(self, part: str, name: str) -> Cell:
        try:
            return self.grid.parse(name)
        except CellNameError as exc:
            raise IllegalOrderError(Text("{part}: {error}", part=part, error=exc.args[0])) from None

    def what(self, cell: Cell) -> Text:
        """What stands on ``cell``, as the end of a sentence: "is empty", "holds a red man"."""
        kind = self.cells.get(cell)
        if kind is None:
            return Text("is empty")
        if kind == WALL:
            return Text("is a wall")
        return Text("holds a red man") if kind == RED else Text("holds a yellow man")

    # --- growth (PH3) -------------------------------------------------------
    def grow(self, names: tuple[str, ...]) -> None:
        """Add all new men at once; they must touch start-of-turn groups, one man per group."""
        start_groups = groups(self.cells, self.grid, self.colour)
        group_at = {cell: i for i, group in enumerate(start_groups) for cell in group}
        # group index -> the new man that touched it first, and where
        fed_by: dict[int, tuple[str, Cell]] = {}
        new: list[Cell] = []
        for name in names:
            part = f"GROW {name}"
            cell = self.cell(part, name)
            if cell in new:
                raise IllegalOrderError(Text("{part}: {cell} is named twice", part=part, cell=name))
            if cell in self.cells:
                raise IllegalOrderError(Text("{part}: {cell} is not empty: it {what}", part=part,
                                             cell=name, what=self.what(cell)))
            touched = sorted(
                {group_at[n] for n in neighbours(self.grid, cell) if n in group_at}
            )
            if not touched:
                raise IllegalOrderError(Text(
                    "{part}: a new man must touch one of your groups, and {cell} touches none",
                    part=part, cell=name))
            at = {
                index: min(
                    (n for n in neighbours(self.grid, cell) if group_at.get(n) == index),
                    key=self.name,
                )
                for index in touched
            }
            for index in touched:
                if index in fed_by:
                    first, first_at = fed_by[index]
                    if first_at == at[index]:
                        raise IllegalOrderError(Text(
                            "GROW {first} {second}: both new men touch your group at {cell}; "
                            "{second} would be its second new man, and a group grows by one "
                            "man a turn (PH3)", first=first, second=name, cell=self.name(first_at)))
                    # Name each man's own contact: they touch the group at
                    # different men, and naming one cell for both is wrong.
                    raise IllegalOrderError(Text(
                        "GROW {first} {second}: both new men touch your group ({first} at "
                        "{first_cell}, {second} at {second_cell}); {second} would be its second "
                        "new man, and a group grows by one man a turn (PH3)", first=first,
                        second=name, first_cell=self.name(first_at), second_cell=self.name(at[index])))
                fed_by[index] = (name, at[index])
            new.append(cell)
        for cell in new:
            self.cells[cell] = self.colour
            self.locked[cell] = GREW
        for index in fed_by:
            for cell in start_groups[index]:
                self.locked[cell] = GREW
        self.grown.extend(new)

    # --- moves (PH4, PH5) ---------------------------------------------------
    def check_move(self, move: Move) -> tuple[list[Cell], Cell, int, list[Cell]]:
        """The phalanx (tail to head), direction, distance and captures, or IllegalOrderError."""
        part = str(move)
        phalanx, direction = self._phalanx(move, part)
        distance = self._distance(move, part, len(phalanx))
        captured = self._path(part, phalanx[-1], direction, distance)
        n = len(phalanx)
        for cell in captured:
            run = run_through(self.cells, cell, direction)
            if len(run) >= 2 and n <= len(run):
                shown = " ".join(self.name(c) for c in sorted(run, key=self.name))
                if self.enemy == RED:
                    raise IllegalOrderError(Text(
                        "{part}: your phalanx of {n} may attack the red line {line} on its own "
                        "line only if longer than its {length} (PH5)", part=part, n=n, line=shown,
                        length=len(run)))
                raise IllegalOrderError(Text(
                    "{part}: your phalanx of {n} may attack the yellow line {line} on its own "
                    "line only if longer than its {length} (PH5)", part=part, n=n, line=shown,
                    length=len(run)))
        return phalanx, direction, distance, captured

    def _phalanx(self, move: Move, part: str) -> tuple[list[Cell], Cell]:
        """The unbroken line of the mover's men from tail to head (the head an end man, its
        group free to move), and its direction."""
        head = self.cell(part, move.head)
        tail = self.cell(part, move.tail)
        for cell in (head, tail):
            if self.cells.get(cell) != self.colour:
                if self.colour == RED:
                    raise IllegalOrderError(Text("{part}: {cell} {what}, not one of your red men",
                                                 part=part, cell=self.name(cell), what=self.what(cell)))
                raise IllegalOrderError(Text("{part}: {cell} {what}, not one of your yellow men",
                                             part=part, cell=self.name(cell), what=self.what(cell)))
        if head == tail:
            raise IllegalOrderError(Text("{part}: the head and the tail must be two different men",
                                         part=part))
        line = direction_between(tail, head)
        if line is None:
            raise IllegalOrderError(Text("{part}: {head} and {tail} are not on one straight line",
                                         part=part, head=move.head, tail=move.tail))
        direction, steps = line
        phalanx = [add(tail, direction, i) for i in range(steps + 1)]
        for cell in phalanx:
            if self.cells.get(cell) != self.colour:
                raise IllegalOrderError(Text(
                    "{part}: the line from {tail} to {head} is broken at {cell}", part=part,
                    tail=move.tail, head=move.head, cell=self.name(cell)))
        beyond = add(head, direction)
        if self.cells.get(beyond) == self.colour:
            raise IllegalOrderError(Text(
                "{part}: the head must be an end man, and {cell} is yours too", part=part,
                cell=self.name(beyond)))
        reason = self.locked.get(head)
        if reason:
            raise IllegalOrderError(Text("{part}: {reason}", part=part,
                                         reason=Text(reason, head=move.head)))
        return phalanx, direction

    def _distance(self, move: Move, part: str, n: int) -> int:
        """How far a phalanx of ``n`` men moves: 1 to n - 1, said unless n is 2 (PH4)."""
        distance = move.distance
        if distance is None:
            if n != 2:
                raise IllegalOrderError(
                    Text("{part}: say how far, 1 to {most} cells (e.g. {example})", part=part,
                         most=n - 1, example=str(Move(move.head, move.tail, n - 1))),
                    legal=[str(Move(move.head, move.tail, k)) for k in range(1, n)],
                )
            distance = 1
        if not 1 <= distance <= n - 1:
            raise IllegalOrderError(Text("{part}: a phalanx of {n} men moves 1 to {most} cells (PH4)",
                                         part=part, n=n, most=n - 1))
        return distance

    def _path(self, part: str, head: Cell, direction: Cell, distance: int) -> list[Cell]:
        """The enemy men on the cells the head moves over, which must be on the board and hold
        no wall and no man of the mover's (PH5)."""
        captured: list[Cell] = []
        for i in range(1, distance + 1):
            cell = add(head, direction, i)
            if not self.grid.exists(cell):
                raise IllegalOrderError(Text("{part}: the phalanx would leave the board", part=part))
            kind = self.cells.get(cell)
            if kind == WALL:
                raise IllegalOrderError(Text(
                    "{part}: {cell} is a wall; a phalanx may not move onto or over the wall (PH5)",
                    part=part, cell=self.name(cell)))
            if kind == self.colour:
                raise IllegalOrderError(Text(
                    "{part}: {cell} holds your own man; a phalanx may not move onto or over it (PH5)",
                    part=part, cell=self.name(cell)))
            if kind == self.enemy:
                captured.append(cell)
        return captured

    def move(self, move: Move) -> MoveDone:
        phalanx, direction, distance, captured = self.check_move(move)
        mover = next(g for g in groups(self.cells, self.grid, self.colour) if phalanx[0] in g)
        for cell in phalanx:
            del self.cells[cell]
        landed = [add(cell, direction, distance) for cell in phalanx]
        for cell in landed:
            # A man landing where an enemy man was captured goes back to the
            # supply and the cell becomes wall (PH5).
            self.cells[cell] = WALL if cell in captured else self.colour
        for cell in (mover - set(phalanx)) | {c for c in landed if c not in captured}:
            self.locked[cell] = MOVED
        self.spread_locks()
        done = MoveDone(Move(move.head, move.tail, distance), captured)
        self.moves.append(done)
        return done

    def spread_locks(self) -> None:
        """A group that touches a locked man is locked too (PH4: joined groups lose the move)."""
        for cell in [c for c in self.locked if self.cells.get(c) != self.colour]:
            del self.locked[cell]
        for group in groups(self.cells, self.grid, self.colour):
            if any(c in self.locked for c in group):
                for cell in group:
                    self.locked.setdefault(cell, JOINED)

    # --- a whole turn -------------------------------------------------------
    def play(self, turn: Turn) -> "TurnPlay":
        if turn.growths:
            self.grow(turn.growths)
        for move in turn.moves:
            self.move(move)
        return self

    def legal_moves(self) -> list[Move]:
        """Every legal move now, with its distance (random play uses this)."""
        found = []
        for head in sorted(self.cells):
            if self.cells[head] != self.colour or head in self.locked:
                continue
            for direction in DIRECTIONS:
                if self.cells.get(add(head, direction)) == self.colour:
                    continue
                tail = add(head, direction, -1)
                while self.cells.get(tail) == self.colour:
                    n = cell_distance(head, tail) + 1
                    for k in range(1, n):
                        move = Move(self.name(head), self.name(tail), k)
                        try:
                            self.check_move(move)
                        except IllegalOrderError:
                            break  # a blocked cell blocks every longer move too
                        found.append(move)
                    tail = add(tail, direction, -1)
        return found

