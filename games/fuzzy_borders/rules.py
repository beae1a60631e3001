"""Fuzzy Borders: simultaneous sealed claims on a hexagonal board.

Rules: rules/fuzzy-borders.txt with RULINGS FB1-FB8 and G1-G5.  Every turn
each live player seals one claim (FB5); ``close_turn`` adjudicates them all
at once on the board as it stood at the start of the turn (G3), resolving
clashes by FB6.  ``to_move`` lists every live player, those who have sent a
claim included, because a sealed claim may be replaced until the turn closes.
A live player is one with at least one cell they may claim, who has not
been removed from the game (G5).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from games.base import (
    Event,
    Game,
    GameError,
    IllegalOrderError,
    Option,
    OptionError,
    OrderSyntaxError,
    Result,
    duration_option,
    parse_int,
    single_order_line,
)
from games.hexgrid import CellNameError, distance

from games.text import Plural, Text, mark

from . import accessible, present
from .board import grid
from .present import example_cell
from .adjudicate import adjudicate, join_names, result_event
from .state import (
    MAX_SIDE,
    STATE_VERSION,
    FBState,
    load_state,
    max_radius,
)

SUGGESTIONS = 3  # cells named in a refusal, at most

# "CLAIM K10", "claim k 10", "Claim: K10" or just "K10".
_ORDER = re.compile(r"^(?:claim\b\s*:?\s*)?([a-z]\s*\d{1,3})$", re.IGNORECASE)


@dataclass(frozen=True)
class Claim:
    """One claim order; ``str()`` is its canonical notation."""

    cell: str  # canonical cell name, e.g. "K10"

    def __str__(self) -> str:
        return f"CLAIM {self.cell}"


def _count_or_none(name: str, value) -> int | None:
    """An option that is a whole number from 1, or none/off (also no, or left empty)."""
    if value is None or str(value).strip().lower() in ("", "none", "no", "off"):
        return None
    return parse_int(name, value, 1)


class FuzzyBorders(Game[FBState, Claim]):
    kind = "fuzzy-borders"
    title = "Fuzzy Borders"
    min_players = 2
    max_players = 12
    simultaneous = True
    state_version = STATE_VERSION
    options = {
        "side": Option("10", f"cells to an edge of the board, 2..{MAX_SIDE} (FB1)"),
        "radius": Option("4", "how far a claimed cell's influence reaches (FB2)"),
        "max_turns": Option(None, "end the game after this many turns (FB7); none by default"),
        "reopen": Option("24h", "how long a turn re-opened after a two-player clash "
                                "stays open, e.g. 24h, 90m, 2d (FB6)"),
        "empty_turns": Option("3", "end the game after this many empty turns in a row "
                                   "(no claim placed); none: never (FB8)"),
    }

    # --- set-up -----------------------------------------------------------
    def convert_options(self, raw: dict) -> dict:
        side = parse_int("side", raw["side"], 2, MAX_SIDE)
        return {
            "side": side,
            "radius": parse_int("radius", raw["radius"], 1, max_radius(side)),
            "max_turns": _count_or_none("max_turns", raw["max_turns"]),
            "reopen": int(duration_option("reopen", raw["reopen"], unit_required=True)),
            "empty_turns": _count_or_none("empty_turns", raw["empty_turns"]),
        }

    def setup(self, players: list[str], options: dict, seed: int) -> FBState:
        self.check_players(players)
        opts = self.check_options(options)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise OptionError(Text("the seed must be a whole number, not {seed}", seed=repr(seed)))
        return FBState(
            players=list(players),
            side=opts["side"],
            radius=opts["radius"],
            max_turns=opts["max_turns"],
            reopen=opts["reopen"],
            empty_turns=opts["empty_turns"],
            seed=seed,
            claims={p: [] for p in players},
        )

    # --- orders -------------------------------------------------------------
    def not_your_turn(self, state: FBState, player: str, waiting: list[str]) -> str:
        return Text("{refusal}: no cell is open to you (every unclaimed cell is led by someone else), "
                    "so you place nothing this turn", refusal=super().not_your_turn(state, player, waiting))

    def _nearest(self, state: FBState, player: str, near: tuple[int, int]) -> Text:
        """A short hint: the cells ``player`` may claim nearest ``near``, never the whole list."""
        cells = state.board().claimable_by(player)
        if not cells:
            return Text("No cell is open to you this turn.")
        best = sorted(cells, key=lambda c: (distance(c, near), c[1], c[0]))[:SUGGESTIONS]
        names = ", ".join(state.name(c) for c in best)
        return Plural("The nearest cell you may claim: {cells}.", "The nearest cells you may claim: {cells}.",
                      n=len(best), cells=names)

    def _check_claim(self, state: FBState, player: str, text: str) -> Claim:
        """The claim for cell ``text`` if FB5 allows it, else IllegalOrderError.

        The refusal names the reason and at most SUGGESTIONS nearby cells the
        player may claim; it never lists every legal claim (``legal`` stays None).
        """
        try:
            cell = state.cell(text)
        except CellNameError:
            hexes = grid(state.side)
            name = "".join(text.split()).upper()
            last = hexes.name(hexes.row_cells(1)[-1])[0]
            where = (0, 0)
            if name[:1].isalpha() and name[1:].isdigit():
                where = (ord(name[0]) - ord("A") - state.radius, int(name[1:]) - state.side)
            raise IllegalOrderError(Text(
                "There is no cell {cell} on this board: its diagonals run A-{last} and its rows "
                "1-{rows} (the centre is {centre}). {hint}", cell=name, last=last,
                rows=2 * state.side - 1, centre=state.name((0, 0)), hint=self._nearest(state, player, where)
            )) from None
        reason = state.board().why_not(player, cell)
        if reason is not None:
            raise IllegalOrderError(Text(
                "You cannot claim {cell}: {reason}. You may claim unclaimed cells that are empty or "
                "that you lead (FB5). {hint}", cell=state.name(cell), reason=reason,
                hint=self._nearest(state, player, cell)
            ))
        return Claim(state.name(cell))

    def read_order(self, state: FBState, player: str, text: str) -> Claim:
        line = single_order_line(
            text,
            Text("No order found. Send CLAIM and a cell, e.g. CLAIM {example}.",
                 example=example_cell(state, player)),
            mark("One claim per turn, but this mail holds {count} lines. Send only "
                 "the claim you want; a later mail replaces an earlier claim."),
        )
        match = _ORDER.match(line)
        if not match:
            raise OrderSyntaxError(Text(
                "{line} is not an order. Write CLAIM and a cell, e.g. CLAIM {example}.",
                line=repr(line), example=example_cell(state, player)))
        return self._check_claim(state, player, match.group(1))

    def step(self, state: FBState, player: str, order: Claim | str, now: float) -> Result[FBState]:
        if isinstance(order, str):
            claim = self.read_order(state, player, order)
        else:
            claim = self._check_claim(state, player, order.cell)
        new = state.copy(keep_board=True)
        previous = new.sealed.get(player)
        new.sealed[player] = claim.cell
        if previous and previous != claim.cell:
            text = Text("Your claim for turn {turn} is sealed: {cell} (replaces {previous}).",
                        turn=state.turn, cell=claim.cell, previous=previous)
        elif previous:
            text = Text("Your claim for turn {turn} is sealed: {cell} (unchanged).", turn=state.turn,
                        cell=claim.cell)
        else:
            text = Text("Your claim for turn {turn} is sealed: {cell}.", turn=state.turn, cell=claim.cell)
        event = Event(
            text,
            kind="confirmation",
            to=(player,),
            data={"turn": state.turn, "player": player, "cell": claim.cell,
                  "replaces": previous},
        )
        return Result(new, [event])

    def ready(self, state: FBState, now: float) -> bool:
        if state.over:
            return False
        if all(p in state.sealed for p in self.to_move(state)):
            return True
        timer = self.timer(state)
        return timer is not None and now >= timer

    def timer(self, state: FBState) -> float | None:
        return state.reopen_until if state.reopened and not state.over else None

    def close_turn(self, state: FBState, now: float) -> Result[FBState]:
        if state.over:
            raise GameError(Text("the game is over; there is no turn to close"))
        return adjudicate(state, self.to_move(state), now)

    def legal_orders(self, state: FBState, player: str) -> list[str]:
        if state.over or player not in state.players or player in state.left:
            return []
        return [f"CLAIM {state.name(c)}" for c in state.board().claimable_by(player)]

    # --- questions about a state --------------------------------------------
    def players(self, state: FBState) -> list[str]:
        return list(state.players)

    def turn(self, state: FBState) -> int:
        return state.turn

    def to_move(self, state: FBState) -> list[str]:
        if state.over:
            return []
        board = state.board()
        return [p for p in state.players if p not in state.left and board.claimable_by(p)]

    def waiting(self, state: FBState) -> list[str]:
        return [p for p in self.to_move(state) if p not in state.sealed]

    def is_over(self, state: FBState) -> bool:
        return state.over

    def leave(self, state: FBState, player: str, now: float) -> Result[FBState]:
        """G5 with FB5: the seat stays on the board and places nothing from now on.

        Its claims keep their influence (FB2) and count for its score, for the
        record; it sends no more claims, and a claim it sealed this turn is
        withdrawn (the turn is adjudicated after it left: a missing claim, FB5).
        The turn closes once every remaining player is in; with fewer than
        two players left the game ends (FB7 needs someone to claim against)
        and the one left wins.  A removed player never wins.  Whether a later
        clash re-opens the turn (FB6) still goes by the players the game
        started with: the seat's claims are still on the board.
        """
        self.check_leave(state, player)
        new = state.copy(keep_board=True)
        new.left = state.left + (player,)
        withdrawn = new.sealed.pop(player, None)
        note = Text("Their claims stay on the board; they place nothing from now on (FB5).")
        if withdrawn is not None:
            note = Text("Their claims stay on the board; they place nothing from now on (FB5). Their "
                        "sealed claim for turn {turn} is withdrawn.", turn=state.turn)
        events = [self.left_event(player, note)]
        remaining = [p for p in new.players if p not in new.left]
        if len(remaining) < 2:
            new.over = True
            new.sealed = {}
            new.reopened, new.reopen_until = False, None
            text = Text("Only {players} remains: the game is over (too few players left).",
                        players=join_names(remaining)) if remaining else \
                Text("Only nobody remains: the game is over (too few players left).")
            events.append(Event(text, kind="end",
                                data={"turn": state.turn}))
            events.append(result_event(new))
            return Result(new, events)
        if self.ready(new, now):  # everyone still in has sent a claim: nothing to wait for
            closed = self.close_turn(new, now)
            return Result(closed.state, events + closed.events)
        return Result(new, events)

    def mark_drawn(self, state: FBState) -> FBState:
        """G6: over and drawn; a claim sealed this turn is withdrawn, a re-opened turn closed."""
        new = state.copy(keep_board=True)
        new.over, new.drawn = True, True
        new.sealed = {}
        new.reopened, new.reopen_until = False, None
        return new

    def scores(self, state: FBState) -> dict[str, int]:
        return state.board().scores(state.players)

    # --- presentation -------------------------------------------------------
    def render_board(self, state: FBState, viewer: str | None = None) -> str:
        return present.render_board(state)

    def describe(self, state: FBState, viewer: str | None = None) -> list[str]:
        return list(accessible.describe(state, viewer))

    def board_table(self, state: FBState, viewer: str | None = None) -> tuple[list[str], list[list[str]]]:
        return accessible.board_table(state)

    def view(self, state: FBState, viewer: str | None = None) -> dict:
        return present.view(state, viewer, self.scores(state), self.to_move(state))

    def help_text(self) -> str:
        return present.help_text()

    # --- JSON ---------------------------------------------------------------
    def dump(self, state: FBState) -> dict:
        return state.dump()

    def load(self, data: dict) -> FBState:
        self.check_version(data)
        return load_state(data)


GAME = FuzzyBorders()
