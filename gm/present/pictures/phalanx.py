"""The picture of a Phalanx position: the hex board (PH1), men, walls, last moves, territory.

Red and yellow men are discs in their colour, walls are dark cells, vacant
cells draw.EMPTY.  When the game is over, vacant cells that count as
territory (PH6: connected through vacant cells to men of one colour only) are
tinted with that colour.  The last turn's moves are arrows from each moved
phalanx's old head to its new head, and the last turn's new men carry a white
dot; the state keeps the last step only as its report lines, so they are read
from those ("... moves head H8 tail F8 by 2", "... grows E5 G7").  Everything
in Phalanx is open: every viewer gets the same picture.
"""

from __future__ import annotations

import math
from typing import Any

from PIL import Image, ImageDraw

from games.hexgrid import Cell, CellNameError, add, direction_between
from games.phalanx.board import neighbours, territory
from games.phalanx.state import CHOOSE, COLOURS, EXTRA, OVER, PLACE, PLAY, RED, WALL, YELLOW
from games.text import Plural, Text, mark
from gm.present.pictures.draw import drawn, EMPTY, INK, Colour, blend, said
from gm.present.pictures.fuzzy_borders import Entry, HexLayout, Legend, cell_centre, cell_radius, layout  # noqa: F401 (one hex layout for both games)

MAN_COLOURS: dict[str, Colour] = {RED: (204, 37, 41), YELLOW: (242, 196, 0)}
WALL_COLOUR: Colour = (84, 84, 84)
ARROW: Colour = (0, 90, 170)
TERRITORY = 0.3  # how much of a colour tints its territory at the end
MAN_SIZE = 0.72  # a man's disc, in cell radii



def _moved(line: str) -> tuple[str, str, int] | None:
    """(head, tail, distance) of a line ending "moves head H8 tail F8 by 2" (string methods:
    linear in the line, whatever it holds)."""
    at = line.rfind("moves head ")
    words = line[at:].split() if at >= 0 else []
    if len(words) != 7 or words[3] != "tail" or words[5] != "by" or not words[6].isdecimal():
        return None
    return words[2], words[4], int(words[6])


def _grew(line: str) -> list[str]:
    """The cells of a line ending ") grows E5 G7"."""
    at = line.rfind(") grows ")
    return line[at + len(") grows "):].split() if at >= 0 else []


def territory_cells(state: Any) -> dict[Cell, str]:
    """Each vacant cell that is territory (PH6) -> the colour it counts for."""
    found: dict[Cell, str] = {}
    seen: set[Cell] = set()
    for start in state.grid.cells:
        if start in state.cells or start in seen:
            continue
        region, touches, todo = {start}, set(), [start]
        while todo:
            for near in neighbours(state.grid, todo.pop()):
                kind = state.cells.get(near)
                if kind is None and near not in region:
                    region.add(near)
                    todo.append(near)
                elif kind in COLOURS:
                    touches.add(kind)
        seen |= region
        if len(touches) == 1:
            colour = touches.pop()
            found.update(dict.fromkeys(region, colour))
    return found


def last_moves(state: Any) -> list[tuple[Cell, Cell]]:
    """The last turn's moves as (old head, new head), read from the state's report lines."""
    moves = []
    for line in state.last:
        found = _moved(line)
        if found is None:
            continue
        try:
            head, tail = state.grid.parse(found[0]), state.grid.parse(found[1])
        except CellNameError:
            continue
        way = direction_between(tail, head)
        if way is not None:
            moves.append((head, add(head, way[0], found[2])))
    return moves


def last_growths(state: Any) -> list[Cell]:
    """The cells where the last turn grew new men that still stand there."""
    cells = []
    for line in state.last:
        for name in _grew(line):
            try:
                cells.append(state.grid.parse(name))
            except CellNameError:
                continue
    return cells


def _arrow(pen: ImageDraw.ImageDraw, start: tuple[float, float], end: tuple[float, float],
           width: int, head: float) -> None:
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0)
    if length == 0:
        return
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    base = (x1 - ux * head, y1 - uy * head)
    pen.line((start, base), fill=ARROW, width=width)
    side = head * 0.55
    pen.polygon([(x1, y1), (base[0] - uy * side, base[1] + ux * side),
                 (base[0] + uy * side, base[1] - ux * side)], fill=ARROW)


# The colours as the legend names them: at the head of a line, and within one.
SIDES = {RED: mark("Red"), YELLOW: mark("Yellow")}
COLOUR_WORDS = {RED: mark("red"), YELLOW: mark("yellow")}
# The opening's next step, by phase: a sentence each.
OPENING = {PLACE: mark("The opening (pie): the pie is placed next."),
           CHOOSE: mark("The opening (pie): a colour is chosen next."),
           EXTRA: mark("The opening (pie): Red places one more man next.")}


def side_line(state: Any, colour: str, counts: dict, scores: dict) -> Text:
    """A colour's line of the legend: its player, men, territory, prisoners taken and score."""
    player = state.player_of(colour)
    men = Plural("{n} man", "{n} men", n=sum(1 for kind in state.cells.values() if kind == colour))
    if player is None:
        return Text("{colour}: not chosen yet, {men}", colour=Text(SIDES[colour]), men=men)
    taken = Plural("{n} prisoner", "{n} prisoners", n=state.prisoners[colour])
    values = dict(colour=Text(SIDES[colour]), name=player, men=men, territory=counts[colour], taken=taken,
                  score=scores[player])
    if player in state.left:
        return Text("{colour}: {name}, {men}, territory {territory}, took {taken}, score {score} (left)", **values)
    return Text("{colour}: {name}, {men}, territory {territory}, took {taken}, score {score}", **values)


def _status(state: Any) -> str:
    if state.phase == OVER:
        return said(Text("Game over: {reason}.", reason=state.end_reason))
    if state.phase == PLAY:
        who = state.player_of(state.to_play)
        return said(Text("Turn {turn}: {name} ({colour}) to play.", turn=state.normal_turns + 1, name=who,
                         colour=Text(COLOUR_WORDS[state.to_play]) if state.to_play in COLOUR_WORDS else state.to_play))
    if state.phase in OPENING:
        return said(Text(OPENING[state.phase]))
    return said(Text("The opening (pie): {step}.", step=state.phase))


def draw(rules: Any, state: Any, viewer: str | None) -> Image.Image:
    """The position; Phalanx has nothing sealed, so ``viewer`` changes nothing.

    Drawn on a palette (draw.palette_canvas), or in RGB should it need more than 256 colours (draw.drawn)."""
    return drawn(lambda new_canvas: drawn_on(new_canvas, rules, state, viewer))


def drawn_on(new_canvas: Any, rules: Any, state: Any, viewer: str | None) -> Image.Image:
    hexes = layout(state)
    land = territory_cells(state) if state.phase == OVER else {}
    scores = rules.scores(state)
    counts = territory(state.cells, state.grid)

    entries: list[Entry] = [(None, _status(state))]
    for colour in COLOURS:
        entries.append((("disc", MAN_COLOURS[colour], ""), said(side_line(state, colour, counts, scores))))
    entries.append((("box", WALL_COLOUR, ""), said(Text(
        "wall;  arrow: a move of the last turn (old head to new head);  "
        "white dot: a new man of the last turn;  tint: territory (when the game is over)"))))
    legend = Legend(entries, hexes.width, max(14, round(hexes.radius * 0.8)))
    image, pen = new_canvas(hexes.width, hexes.height + legend.height)
    for cell in state.grid.cells:
        kind = state.cells.get(cell)
        if kind == WALL:
            hexes.fill(pen, cell, WALL_COLOUR)
        elif kind in MAN_COLOURS:
            hexes.fill(pen, cell, EMPTY)
            hexes.disc(pen, cell, MAN_SIZE, MAN_COLOURS[kind], outline=INK, width=2)
        elif cell in land:
            hexes.fill(pen, cell, blend(MAN_COLOURS[land[cell]], TERRITORY, EMPTY))
        else:
            hexes.fill(pen, cell, EMPTY)
    for cell in last_growths(state):
        if state.cells.get(cell) in MAN_COLOURS:
            hexes.disc(pen, cell, 0.18, (255, 255, 255), outline=INK)
    for start, end in last_moves(state):
        _arrow(pen, hexes.centre(start), hexes.centre(end), max(3, hexes.radius // 6), hexes.radius * 0.6)
    hexes.coordinates(image)

    legend.draw(image, hexes.height)
    return image
