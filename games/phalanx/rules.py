"""The Phalanx rules behind the common Game interface (sequential, two players).

The pie opening (PH7) and the normal turns go through the same ``submit``:
the phase in the state says which kind of order is owed and by whom.
"""

from __future__ import annotations

import random

from games.base import (
    Event,
    Game,
    IllegalOrderError,
    Option,
    OptionError,
    Result,
    parse_bool,
    parse_int,
)
from games.clock import HELP as CLOCK_HELP, ClockedGame, Clock, new_clock, parse_clock
from games.hexgrid import CellNameError
from games.text import Text

from . import accessible, presentation
from .board import territory
from .orders import ColourChoice, ExtraMan, Order, Placement, Turn, parse
from .randomplay import random_order_text
from .state import (
    END_REASONS,
    LAST_LINES,
    WHO,
    capture_line,
    CHOOSE,
    COLOURS,
    EXTRA,
    MAX_SIDE,
    MIN_SIDE,
    OVER,
    PIE_MEN,
    PLACE,
    PIE_WORDS,
    PLAY,
    RED,
    YELLOW,
    PhalanxState,
    dump_state,
    load_state,
    other,
)
from .turn import TurnPlay


class Phalanx(ClockedGame, Game[PhalanxState, Order]):
    kind = "phalanx"
    title = "Phalanx"
    min_players = 2
    max_players = 2
    simultaneous = False
    state_version = 1
    options = {
        "side": Option("8", f"board side N, {MIN_SIDE}..{MAX_SIDE} (PH1; 8 gives 169 cells)"),
        "pie": Option("small", "pie opening: small (1 red, 2 yellow) or large (2, 3) (PH7)"),
        "max_turns": Option("300", "normal turns after which the game ends (PH8)"),
        "clock": Option("off", CLOCK_HELP),
        "takebacks": Option("on", "G9: a player may ask to take back their last move (on or off)"),
    }

    # --- set-up -----------------------------------------------------------
    def convert_options(self, raw: dict) -> dict:
        pie = str(raw["pie"]).strip().lower()
        if pie not in PIE_MEN:
            raise OptionError(f"option pie: expected small or large, got {raw['pie']!r}")
        return {
            "side": parse_int("side", raw["side"], MIN_SIDE, MAX_SIDE),
            "pie": pie,
            "max_turns": parse_int("max_turns", raw["max_turns"], 1),
            "clock": parse_clock("clock", raw.get("clock")),
            "takebacks": parse_bool("takebacks", raw["takebacks"]),
        }

    def setup(self, players: list[str], options: dict, seed: int) -> PhalanxState:
        self.check_players(players)
        opts = self.check_options(options)
        # Nothing in Phalanx is random; the seed is kept for replay (G1).
        return PhalanxState(
            players=list(players),
            side=opts["side"],
            pie=opts["pie"],
            max_turns=opts["max_turns"],
            seed=seed,
            clock=new_clock(opts["clock"], players),
        )

    def replace_clock(self, state: PhalanxState, clock: Clock | None) -> PhalanxState:
        new = state.copy()
        new.clock = clock
        return new

    # --- questions about a state --------------------------------------------
    def players(self, state: PhalanxState) -> list[str]:
        return list(state.players)

    def turn(self, state: PhalanxState) -> int:
        return state.turn

    def to_move(self, state: PhalanxState) -> list[str]:
        if state.phase == PLACE:
            return [state.players[0]]
        if state.phase == CHOOSE:
            return [state.players[1]]
        if state.phase == EXTRA:
            return [state.player_of(RED)]
        if state.phase == PLAY:
            return [state.player_of(state.to_play)]
        return []

    def is_over(self, state: PhalanxState) -> bool:
        return state.phase == OVER

    def leave(self, state: PhalanxState, player: str, now: float) -> Result[PhalanxState]:
        """G5: a two-player game cannot go on with one, so the other player wins.

        Phalanx has no missing order but a pass, and two passes in a row end
        the game (PH2); a seat that will never send another order leaves too
        few players, so the game ends at once and the other player wins,
        whatever the score (the scores stay for the record).  This holds in
        the pie opening (PH7) too, before colours are chosen.
        """
        self.check_leave(state, player)
        new = state.copy()
        new.left = state.left + (player,)
        (winner,) = [p for p in state.players if p != player]
        new.phase = OVER
        new.end_reason = Text(END_REASONS["left"], player=player, winner=winner)
        events = [self.left_event(player),
                  Event(Text(LAST_LINES["end left"], reason=new.end_reason),
                        kind="end",
                        data={"winners": [winner]})]
        new.last = [event.text for event in events]
        return Result(new, events)

    def mark_drawn(self, state: PhalanxState) -> PhalanxState:
        """G6: over and drawn, whatever the phase; the scores stay as they stand."""
        new = state.copy()
        new.phase, new.drawn = OVER, True
        new.end_reason = Text(END_REASONS["draw"])
        new.last = [Text(LAST_LINES["drawn"])]
        return new

    def scores(self, state: PhalanxState) -> dict[str, int]:
        """PH6: territory as if the game ended now, minus the opponent's prisoners."""
        if not state.colours:
            return {p: 0 for p in state.players}
        land = territory(state.cells, state.grid)
        return {
            player: land[colour] - state.prisoners[other(colour)]
            for player, colour in state.colours.items()
        }

    # --- orders ---------------------------------------------------------------
    def read_order(self, state: PhalanxState, player: str, text: str) -> Order:
        order = parse(text, state.phase)
        # Judge the whole order now, so the player hears of any illegal part at
        # once; submit judges it again on the state it is given (G3).
        self.step(state, player, order, 0.0)
        return order

    def step(self, state: PhalanxState, player: str, order, now: float) -> Result[PhalanxState]:
        if isinstance(order, str):
            order = parse(order, state.phase)
        return self.clocked_step(state, player, now, lambda at: self._play(at, player, order))

    def _play(self, state: PhalanxState, player: str, order) -> Result[PhalanxState]:
        """One order of the phase in hand, on a copy of ``state``."""
        new = state.copy()
        wanted = {PLACE: Placement, CHOOSE: ColourChoice, EXTRA: ExtraMan, PLAY: Turn}
        if not isinstance(order, wanted[state.phase]):
            raise IllegalOrderError(Text("{order}: {instruction}", order=str(order),
                                         instruction=presentation.instruction(state)))
        if state.phase == PLACE:
            events = self._place_pie(new, player, order)
        elif state.phase == CHOOSE:
            events = self._choose(new, player, order)
        elif state.phase == EXTRA:
            events = self._extra(new, player, order)
        else:
            events = self._normal_turn(new, player, order)
        new.turn += 1
        new.last = [event.text for event in events]
        return Result(new, events)

    def _cell(self, state: PhalanxState, part: str, name: str):
        try:
            return state.grid.parse(name)
        except CellNameError as exc:
            raise IllegalOrderError(Text("{part}: {error}", part=part, error=exc.args[0])) from None

    def _place_pie(self, state: PhalanxState, player: str, order: Placement) -> list[Event]:
        reds, yellows = PIE_MEN[state.pie]
        if (len(order.red), len(order.yellow)) != (reds, yellows):
            raise IllegalOrderError(Text(
                "{order}: the {pie} pie is {reds} red and {yellows} yellow men (PH7), "
                "not {red} and {yellow}", order=str(order), pie=Text(PIE_WORDS[state.pie]),
                reds=reds, yellows=yellows, red=len(order.red), yellow=len(order.yellow)))
        for colour, names in ((RED, order.red), (YELLOW, order.yellow)):
            for name in names:
                cell = self._cell(state, str(order), name)
                if cell in state.cells:
                    raise IllegalOrderError(Text("{order}: {cell} is named twice", order=str(order),
                                                 cell=name))
                state.cells[cell] = colour
        state.phase = CHOOSE
        text = Text(LAST_LINES["pie"], player=player,
                    red=" ".join(order.red), yellow=" ".join(order.yellow))
        return [Event(text, kind="pie", data={"red": list(order.red), "yellow": list(order.yellow)})]

    def _choose(self, state: PhalanxState, player: str, order: ColourChoice) -> list[Event]:
        placer = state.players[0]
        state.colours = {player: order.colour, placer: other(order.colour)}
        state.phase = EXTRA
        red = state.player_of(RED)
        text = Text(LAST_LINES["choose red" if order.colour == RED else "choose yellow"], player=player, red=red)
        return [Event(text, kind="choose", data={"colours": dict(state.colours)})]

    def _extra(self, state: PhalanxState, player: str, order: ExtraMan) -> list[Event]:
        cell = self._cell(state, str(order), order.cell)
        if cell in state.cells:
            raise IllegalOrderError(Text("{order}: {cell} is not empty", order=str(order),
                                         cell=order.cell))
        state.cells[cell] = RED
        state.phase = PLAY
        state.to_play = YELLOW
        return [Event(Text(LAST_LINES["extra"], player=player, cell=order.cell),
                      kind="extra", data={"cell": order.cell})]

    def _normal_turn(self, state: PhalanxState, player: str, order: Turn) -> list[Event]:
        colour = state.to_play
        who = Text(WHO[colour], player=player)
        play = TurnPlay(state.cells, state.grid, colour).play(order)
        events = []
        if order.growths:
            events.append(Event(
                Text(LAST_LINES["grow"], who=who, cells=" ".join(order.growths)),
                kind="grow", data={"cells": list(order.growths)},
            ))
        for done in play.moves:
            events.append(Event(
                Text(LAST_LINES["move"], who=who,
                     head=done.move.head, tail=done.move.tail, distance=done.move.distance),
                kind="move", data={"move": str(done.move)}))
            if done.captured:
                names = " ".join(state.grid.name(c) for c in done.captured)
                taken = capture_line(colour, who, len(done.captured), names)
                events.append(Event(taken, kind="capture", data={"cells": names.split()}))
                state.prisoners[colour] += len(done.captured)
        state.cells = play.cells
        state.normal_turns += 1
        if order.is_pass:
            state.passes += 1
            events.append(Event(Text(LAST_LINES["pass"], who=who), kind="pass"))
        else:
            state.passes = 0
        state.to_play = other(colour)
        if state.passes >= 2:
            state.phase = OVER
            state.end_reason = Text(END_REASONS["passes"])
        elif state.normal_turns >= state.max_turns:
            state.phase = OVER
            state.end_reason = Text(END_REASONS["limit"],
                                    turns=state.max_turns)
        if state.phase == OVER:
            events.append(Event(Text(LAST_LINES["end"], reason=state.end_reason), kind="end"))
        return events

    def legal_orders(self, state: PhalanxState, player: str) -> list[str] | None:
        if state.phase == CHOOSE and player in self.to_move(state):
            return [str(ColourChoice(c)) for c in COLOURS]
        return None  # placements and whole turns are too many to list

    def random_order(self, state: PhalanxState, player: str, rng: random.Random) -> str | None:
        if state.phase == OVER or player not in self.to_move(state):
            return None
        return random_order_text(state, rng)

    # --- presentation -------------------------------------------------------
    def render_board(self, state: PhalanxState, viewer: str | None = None) -> str:
        return presentation.render_board(state)

    def describe(self, state: PhalanxState, viewer: str | None = None) -> list[str]:
        return list(accessible.describe(state, viewer, self.to_move(state)))

    def board_table(self, state: PhalanxState, viewer: str | None = None) -> tuple[list[str], list[list[str]]]:
        return accessible.board_table(state)

    def view(self, state: PhalanxState, viewer: str | None = None) -> dict:
        return {**presentation.view(state, self.scores(state), self.to_move(state)),
                "clock_lines": self.clock_view(state)}

    def help_text(self) -> str:
        return presentation.help_text()

    # --- JSON ---------------------------------------------------------------
    def dump(self, state: PhalanxState) -> dict:
        return dump_state(state, self.state_version)

    def load(self, data: dict) -> PhalanxState:
        self.check_version(data)
        return load_state(data)


GAME = Phalanx()
