"""Random legal orders in notation, for random-play tests (turns cannot be listed)."""

from __future__ import annotations

import random

from .board import groups, neighbours
from .orders import ColourChoice, ExtraMan, Placement, Turn
from .state import CHOOSE, COLOURS, EXTRA, PIE_MEN, PLACE, PhalanxState
from .turn import TurnPlay


def random_order_text(state: PhalanxState, rng: random.Random) -> str:
    grid = state.grid
    vacant = [c for c in grid.cells if c not in state.cells]
    if state.phase == PLACE:
        reds, yellows = PIE_MEN[state.pie]
        names = [grid.name(c) for c in rng.sample(vacant, reds + yellows)]
        return str(Placement(tuple(names[:reds]), tuple(names[reds:])))
    if state.phase == CHOOSE:
        return str(ColourChoice(rng.choice(COLOURS)))
    if state.phase == EXTRA:
        return str(ExtraMan(grid.name(rng.choice(vacant))))
    return str(random_turn(state, rng))


def random_turn(state: PhalanxState, rng: random.Random) -> Turn:
    if rng.random() < 0.1:
        return Turn()
    grid, colour = state.grid, state.to_play
    play = TurnPlay(state.cells, grid, colour)
    start_groups = groups(state.cells, grid, colour)
    group_at = {cell: i for i, group in enumerate(start_groups) for cell in group}
    fed: set[int] = set()
    growths: list[str] = []
    for index in rng.sample(range(len(start_groups)), len(start_groups)):
        if index in fed or rng.random() < 0.4:
            continue
        spots = []
        for cell in start_groups[index]:
            for near in neighbours(grid, cell):
                if near in play.cells or grid.name(near) in growths:
                    continue
                touched = {group_at[n] for n in neighbours(grid, near) if n in group_at}
                if not touched & fed:
                    spots.append((near, touched))
        if spots:
            near, touched = rng.choice(sorted(spots))
            fed |= touched
            growths.append(grid.name(near))
    if growths:
        play.grow(tuple(growths))
    while rng.random() < 0.7:
        legal = play.legal_moves()
        if not legal:
            break
        captures = [m for m in legal if play.check_move(m)[3]]
        play.move(rng.choice(captures if captures and rng.random() < 0.5 else legal))
    return Turn(tuple(growths), tuple(done.move for done in play.moves))
