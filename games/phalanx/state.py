"""The Phalanx state, its JSON form and the checks on a hand-edited state.

Men and walls live in one dict, cell -> RED/YELLOW/WALL; a cell that is not
in it is vacant.  Prisoners are counted per colour: ``prisoners["red"]`` is
the number of yellow men that Red has captured.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import cast

from games.base import Game, StateError, dump_drawn, dump_left, is_whole, load_drawn, load_left, need, whole_number
from games.clock import Clock, dump_clock, load_clock
from games.hexgrid import Cell, CellNameError, HexGrid
from games.text import Plural, Text, mark, recover, recover_sentence

RED, YELLOW, WALL = "red", "yellow", "wall"
COLOURS = (RED, YELLOW)

# Phases of a game: the pie opening (PH7) is three sequential steps.
PLACE, CHOOSE, EXTRA, PLAY, OVER = "place", "choose", "extra", "play", "over"
PHASES = (PLACE, CHOOSE, EXTRA, PLAY, OVER)

# PH7: how many red and yellow men the first player places for the pie.
PIE_MEN = {"small": (1, 2), "large": (2, 3)}
PIE_WORDS = {"small": mark("small"), "large": mark("large")}  # said to players

MIN_SIDE, MAX_SIDE = 3, 13


def other(colour: str) -> str:
    return YELLOW if colour == RED else RED


@lru_cache(maxsize=None)
def grid_of(side: int) -> HexGrid:
    return HexGrid(side)


# How a game ended, as the state keeps it (English JSON; recover() gives back its translation).
END_REASONS = {
    "left": mark("{player} left the game; {winner} wins"),
    "draw": mark("drawn by agreement"),
    "passes": mark("both players passed in a row"),
    "limit": mark("the turn limit of {turns} turns was reached (PH8)"),
}


# What a step did, as the state keeps it in ``last`` (English JSON, like end_reason): the rules
# make each line from these templates and the loader gives each line its Text back.
WHO = {RED: mark("{player} (red)"), YELLOW: mark("{player} (yellow)")}  # the ``who`` of a line
LAST_LINES = {
    "pie": mark("{player} places the pie: red {red}, yellow {yellow}"),
    "choose red": mark("{player} chooses red; {red} (red) places one more man"),
    "choose yellow": mark("{player} chooses yellow; {red} (red) places one more man"),
    "extra": mark("{player} (red) places {cell}"),
    "grow": mark("{who} grows {cells}"),
    "move": mark("{who} moves head {head} tail {tail} by {distance}"),
    "pass": mark("{who} passes"),
    # Before "end", which reads these lines too (its reason then all that follows the colon).
    "end left": mark("The game ends: {reason} (too few players left)."),
    "end": mark("The game ends: {reason}."),
    "drawn": mark("The game ends drawn by agreement (RULINGS G6)."),
    "left": cast(Text, Game.left_event("").text).template,  # games.base says it (its catalogue has it)
}


def capture_line(colour: str, who: str, n: int, cells: str) -> Plural:
    """``who`` (playing ``colour``) took ``n`` men of the other colour, walls now at ``cells``."""
    if colour == RED:
        return Plural("{who} takes {n} yellow man; wall at {cells}",
                      "{who} takes {n} yellow men; wall at {cells}", n=n, who=who, cells=cells)
    return Plural("{who} takes {n} red man; wall at {cells}",
                  "{who} takes {n} red men; wall at {cells}", n=n, who=who, cells=cells)


CAPTURE_FORMS = [capture_line(colour, "", 1, "") for colour in COLOURS]
FIELD_TEXTS = {"who": WHO.values(), "reason": END_REASONS.values()}  # a field that is a Text


def recover_line(line: str) -> str:
    """A ``last`` line as the rules made it, each Text in it back, from its English (a line
    none of the templates makes stays as it is)."""
    return recover_sentence(line, LAST_LINES.values(), [(f.template, f.plural) for f in CAPTURE_FORMS],
                            FIELD_TEXTS)


@dataclass
class PhalanxState:
    players: list[str]  # [the pie placer, the chooser] (PH7)
    side: int = 8
    pie: str = "small"
    max_turns: int = 300
    seed: int = 0
    phase: str = PLACE
    colours: dict[str, str] = field(default_factory=dict)  # player -> colour, once chosen
    cells: dict[Cell, str] = field(default_factory=dict)  # occupied cells only
    prisoners: dict[str, int] = field(default_factory=lambda: {RED: 0, YELLOW: 0})
    turn: int = 1  # every step of the game counts, opening steps included
    normal_turns: int = 0  # turns of the basic protocol played (PH8 counts these)
    passes: int = 0  # passes in a row (PH2: two end the game)
    to_play: str = YELLOW  # whose normal turn it is; Yellow starts (PH7)
    end_reason: str = ""
    last: list[str] = field(default_factory=list)  # what the last step did, for BOARD mails
    left: tuple[str, ...] = ()  # the player removed from the game (G5), if any
    drawn: bool = False  # over by agreement (G6)
    clock: Clock | None = None  # the correspondence clock (G10), None = off

    @property
    def grid(self) -> HexGrid:
        return grid_of(self.side)

    def player_of(self, colour: str) -> str | None:
        for player, own in self.colours.items():
            if own == colour:
                return player
        return None

    def copy(self) -> "PhalanxState":
        return PhalanxState(
            players=list(self.players),
            side=self.side,
            pie=self.pie,
            max_turns=self.max_turns,
            seed=self.seed,
            phase=self.phase,
            colours=dict(self.colours),
            cells=dict(self.cells),
            prisoners=dict(self.prisoners),
            turn=self.turn,
            normal_turns=self.normal_turns,
            passes=self.passes,
            to_play=self.to_play,
            end_reason=self.end_reason,
            last=list(self.last),
            left=self.left,
            drawn=self.drawn,
            clock=self.clock,
        )


def dump_state(state: PhalanxState, version: int) -> dict:
    data = _dump_position(state, version)
    if state.clock is not None:
        data["clock"] = dump_clock(state.clock)
    return data


def _dump_position(state: PhalanxState, version: int) -> dict:
    grid = state.grid

    def names(kind: str) -> list[str]:
        return sorted(grid.name(c) for c, k in state.cells.items() if k == kind)

    return dump_drawn(dump_left({
        "version": version,
        "players": list(state.players),
        "side": state.side,
        "pie": state.pie,
        "max_turns": state.max_turns,
        "seed": state.seed,
        "phase": state.phase,
        "colours": dict(state.colours),
        "red": names(RED),
        "yellow": names(YELLOW),
        "walls": names(WALL),
        "prisoners": dict(state.prisoners),
        "turn": state.turn,
        "normal_turns": state.normal_turns,
        "passes": state.passes,
        "to_play": state.to_play,
        "end_reason": state.end_reason,
        "last": list(state.last),
    }, state.left), state.drawn)


def _int(data: dict, key: str, low: int, high: int | None = None) -> int:
    return whole_number(data.get(key), f"phalanx state: {key}", low, high)


def _prisoners(data: dict) -> dict[str, int]:
    """The men each colour has taken, counted."""
    prisoners = data.get("prisoners")
    if not isinstance(prisoners, dict) or set(prisoners) != set(COLOURS):
        raise StateError("phalanx state: prisoners must count red and yellow")
    for colour in COLOURS:
        _int(prisoners, colour, 0)
    return {c: prisoners[c] for c in COLOURS}


def _check_colours(colours: dict, players: list[str], phase: str, left: tuple[str, ...], drawn: bool) -> None:
    """The colours fit the phase: none before the pie is settled, else red and yellow, one each;
    a game left or drawn is over."""
    if drawn and phase != OVER:
        raise StateError("phalanx state: a game drawn by agreement is over (G6)")
    if left and phase != OVER:
        raise StateError("phalanx state: a game that a player has left is over (G5)")
    if phase == OVER and (left or drawn) and not colours:
        pass  # a player left (or a draw was agreed) during the pie opening, before colours were chosen
    elif phase in (PLACE, CHOOSE):
        if colours:
            raise StateError("phalanx state: colours are chosen only after the pie")
    elif set(colours) != set(players) or sorted(colours.values()) != sorted(COLOURS):
        raise StateError("phalanx state: colours must give each player red or yellow")


def _load_cells(data: dict, side: int) -> dict[Cell, str]:
    """The men and walls on the board, each cell listed once."""
    grid = grid_of(side)
    cells: dict[Cell, str] = {}
    for key, kind in (("red", RED), ("yellow", YELLOW), ("walls", WALL)):
        names = data.get(key)
        if not isinstance(names, list):
            raise StateError(f"phalanx state: {key} must be a list of cells")
        for name in names:
            try:
                cell = grid.parse(name) if isinstance(name, str) else None
            except CellNameError as exc:
                raise StateError(f"phalanx state: {key}: {exc}") from None
            if cell is None:
                raise StateError(f"phalanx state: {key}: {name!r} is not a cell name")
            if cell in cells:
                raise StateError(f"phalanx state: cell {grid.name(cell)} is listed twice")
            cells[cell] = kind
    return cells


def load_state(data: dict) -> PhalanxState:
    """Build a state from its JSON form; raise StateError on anything malformed."""
    players = data.get("players")
    if (
        not isinstance(players, list)
        or len(players) != 2
        or not all(isinstance(p, str) and p for p in players)
        or players[0] == players[1]
    ):
        raise StateError("phalanx state: players must be two different names")
    side = _int(data, "side", MIN_SIDE, MAX_SIDE)
    pie = data.get("pie")
    if pie not in PIE_MEN:
        raise StateError(f"phalanx state: pie must be small or large, not {pie!r}")
    phase = data.get("phase")
    if phase not in PHASES:
        raise StateError(f"phalanx state: unknown phase {phase!r}")
    colours = data.get("colours")
    if not isinstance(colours, dict):
        raise StateError("phalanx state: colours must be an object")
    left = load_left(data, players)
    drawn = load_drawn(data)
    _check_colours(colours, players, phase, left, drawn)
    cells = _load_cells(data, side)
    if phase == PLACE and cells:
        raise StateError("phalanx state: the board must be empty before the pie is placed")
    prisoners = _prisoners(data)
    to_play = data.get("to_play")
    if to_play not in COLOURS:
        raise StateError(f"phalanx state: to_play must be red or yellow, not {to_play!r}")
    seed = data.get("seed")
    need(is_whole(seed), "phalanx state: seed must be a whole number")
    end_reason = data.get("end_reason", "")
    if not isinstance(end_reason, str):
        raise StateError("phalanx state: end_reason must be text")
    last = data.get("last", [])
    if not isinstance(last, list) or not all(isinstance(line, str) for line in last):
        raise StateError("phalanx state: last must be a list of lines")
    return PhalanxState(
        players=list(players),
        side=side,
        pie=pie,
        max_turns=_int(data, "max_turns", 1),
        seed=seed,
        phase=phase,
        colours=dict(colours),
        cells=cells,
        prisoners=prisoners,
        turn=_int(data, "turn", 1),
        normal_turns=_int(data, "normal_turns", 0),
        passes=_int(data, "passes", 0, 2),
        to_play=to_play,
        end_reason=recover(end_reason, END_REASONS.values()) or "",
        last=[recover_line(line) for line in last],
        left=left,
        drawn=drawn,
        clock=load_clock(data.get("clock"), players),
    )
