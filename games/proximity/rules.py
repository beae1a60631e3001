"""The Proximity rules behind the common Game interface (two players, sequential).

rules/proximity.txt with RULINGS PX1-PX10 and G1-G5; the move logic itself
is in ``moves``.  Time bank (PX8): the correspondence clock of RULINGS G10
(``games.clock``), option ``clock=B+I/M``; ``time_bank=B`` is the same clock
with no increment and no maximum.  ``submit`` charges the mover's bank from
``clock_start`` (the previous move's report) less the stopped time the service
credits; an order after the bank is empty loses instead of moving.  ``timer``
is when the mover's bank runs out, and ``close_turn`` then declares the loss.
The first move's clock starts at ``start_clock`` (else that move costs nothing).
"""

from __future__ import annotations

import re

from games.base import (
    Event,
    Game,
    GameError,
    IllegalOrderError,
    Option,
    OptionError,
    duration_option,
    Result,
    parse_bool,
    parse_int,
    seeded_rng,
)

from games.clock import HELP as CLOCK_HELP, Clock, ClockSpec, charge, credit_move, parse_clock
from games.text import Text

from . import accessible, display, moves
from .lastmove import LAST_LINES
from .notation import StepOrder, parse
from .moves import CoinMove, PawnMove, Sacrifice
from .state import END_REASONS, BOARD_SQUARES, NULL_SQUARES, SUITS, Piece, Side, State, Tile



def parse_suits(value: object) -> tuple[str, str]:
    names = value if isinstance(value, (list, tuple)) else re.split(r"[\s,/+]+", str(value).strip())
    suits = []
    for name in names:
        low = str(name).strip().lower()
        match = [s for s in SUITS if s == low or s == low + "s" or (len(low) == 1 and s[0] == low)]
        if not match:
            raise OptionError(Text("option suits: {name} is not Suns, Moons, Crowns or Arms", name=repr(name)))
        suits.append(match[0])
    if len(suits) != 2 or suits[0] == suits[1]:
        raise OptionError(Text("option suits: name two different suits, e.g. suns,moons"))
    return suits[0], suits[1]


def parse_time_bank(value: object) -> float | None:
    """'off' or e.g. '72h', '3d', '90m', '3600' (seconds); returns seconds or None (PX8)."""
    return duration_option("time_bank", value, off=True)


def clock_option(clock: object, time_bank: object) -> ClockSpec | None:
    """The clock of options ``clock`` (G10) or ``time_bank`` (PX8: no increment); one at most."""
    spec = parse_clock("clock", clock)
    bank = parse_time_bank(time_bank)
    if spec is not None and bank is not None:
        raise OptionError(Text("options clock and time_bank: give one (time_bank=3d is clock=3d)"))
    return spec if bank is None else ClockSpec(bank)


def set_clock(state: State, clock: Clock) -> None:
    """Write ``clock``'s banks and times into ``state`` (a copy the caller owns)."""
    for side in state.sides:
        side.bank = clock.banks[side.name]
    state.clock_start, state.clock_stopped = clock.started, clock.stopped
    state.clock_earned = clock.earned


class Proximity(Game[State, PawnMove | CoinMove | Sacrifice]):
    kind = "proximity"
    title = "Proximity"
    min_players = 2
    max_players = 2
    simultaneous = False
    state_version = 1
    options = {
        "suits": Option("suns,moons", "the two suits, first listed player's first (PX1)"),
        "coins": Option("7", "coins per player, 1 to 12 (PX1)"),
        "time_bank": Option(
            "off", "time bank per player (PX8): off, or e.g. 72h, 3d, 90m, 3600 (seconds); "
                   "the same as clock with no increment"
        ),
        "clock": Option("off", CLOCK_HELP),
        "takebacks": Option("on", "G9: a player may ask to take back their last move (on or off)"),
    }

    # --- set-up -----------------------------------------------------------
    def convert_options(self, raw: dict) -> dict:
        return {
            "suits": parse_suits(raw["suits"]),
            "coins": parse_int("coins", raw["coins"], 1, 12),
            "clock": clock_option(raw.get("clock"), raw.get("time_bank")),
            "takebacks": parse_bool("takebacks", raw["takebacks"]),
        }

    def setup(self, players: list[str], options: dict, seed: int) -> State:
        self.check_players(players)
        opts = self.check_options(dict(options or {}))
        suits = opts["suits"]
        # PX2: the ten non-null tiles of both suits, shuffled by the seed (G1);
        # nine dealt a1, b1, c1, a2, ... c3 and the tenth is the throne.
        tiles = [Tile(s, v) for s in suits for v in range(1, 6)]
        seeded_rng(seed, "deal").shuffle(tiles)
        spec: ClockSpec | None = opts["clock"]
        bank = None if spec is None else spec.base
        sides = [
            Side(name, suits[i], NULL_SQUARES[i], [Piece(0, "pawn", NULL_SQUARES[i], 0, [])], [],
                 bank)
            for i, name in enumerate(players)
        ]
        throne = tiles[9]
        return State(
            seed=seed,
            coins=opts["coins"],
            board=dict(zip(BOARD_SQUARES, tiles[:9])),
            throne=throne,
            sides=sides,
            mover=suits.index(throne.suit),  # PX3
            time_bank=bank,
            clock_increment=0.0 if spec is None else spec.increment,
            clock_max=None if spec is None else spec.maximum,
            last=[],
        )

    # --- the clock (PX8 as RULINGS G10) ----------------------------------------
    def clock_of(self, state: State) -> Clock | None:
        if state.time_bank is None:
            return None
        spec = ClockSpec(state.time_bank, state.clock_increment, state.clock_max)
        return Clock(spec, {side.name: float(side.bank or 0.0) for side in state.sides},
                     state.clock_start, state.clock_stopped, state.clock_earned)

    def with_clock(self, state: State, clock: Clock) -> State:
        new = state.clone()
        set_clock(new, clock)
        return new

    def clock_view(self, state: State) -> list[str]:
        return []  # each player's bank is in the report's player section

    def start_clock(self, state: State, now: float) -> State:
        """A copy whose mover's clock (PX8) starts at ``now``: call when the first report goes out."""
        new = state.clone()
        new.clock_start = float(now) if new.time_bank is not None else None
        new.clock_stopped = 0.0
        return new

    def start(self, state: State, now: float) -> State:
        return self.start_clock(state, now)

    # --- orders -------------------------------------------------------------
    def _legal_text(self, state: State, index: int) -> list[str]:
        return [str(o) for o in moves.legal_orders(state, index)]

    def _refuse(self, state: State, index: int, problem: str) -> IllegalOrderError:
        legal = moves.legal_orders(state, index)
        if legal and isinstance(legal[0], Sacrifice):
            problem = Text("{problem}. You have no legal move, so you must sacrifice a piece", problem=problem)
        return IllegalOrderError(problem, legal=[str(o) for o in legal])

    def _resolve(self, state: State, index: int, order) -> PawnMove | CoinMove | Sacrifice:
        """Turn a parsed order into a legal canonical one, or raise IllegalOrderError."""
        if isinstance(order, StepOrder):
            found = state.occupant(order.frm)
            if found is None or found[0] != index:
                raise self._refuse(state, index, Text("there is no piece of yours on {square}", square=order.frm))
            if found[1].kind == "pawn":
                order = PawnMove(order.to)
            else:
                problem = moves.coin_problem(state, index, order.frm, order.to)
                if problem:
                    raise self._refuse(state, index, problem)
                order = CoinMove(order.frm)
        if not isinstance(order, (PawnMove, CoinMove, Sacrifice)):
            raise GameError(f"not a Proximity order: {order!r}")
        problem = moves.order_problem(state, index, order)
        if problem:
            raise self._refuse(state, index, problem)
        return order

    def read_order(self, state: State, player: str, text: str):
        return self._resolve(state, state.mover, parse(text))

    def step(self, state: State, player: str, order, now: float) -> Result[State]:
        index = state.mover  # check_turn made sure it is the player's
        new = state.clone()
        events: list[Event] = []
        side = new.sides[index]
        clock = self.clock_of(new)
        if clock is not None and clock.started is not None:
            clock, out = charge(clock, side.name, now)
            if out:
                return self._lose_on_time(new, index)
            set_clock(new, clock)
        order = parse(order) if isinstance(order, str) else order
        order = self._resolve(new, index, order)
        events += moves.apply(new, index, order)
        new.moves += 1
        if new.winner is None:
            new.mover = 1 - index
        clock = self.clock_of(new)
        if clock is not None:
            set_clock(new, credit_move(clock, side.name, now))
            side = new.sides[index]
            events.append(Event(Text(LAST_LINES["bank"], player=side.name,
                                     bank=display.format_seconds(side.bank)),
                                kind="clock", data={"player": side.name, "bank": side.bank,
                                                    "earned": new.clock_earned}))
        new.last = [e.text for e in events]
        return Result(new, events)

    def _lose_on_time(self, new: State, index: int) -> Result[State]:
        side, other = new.sides[index], new.sides[1 - index]
        side.bank = 0.0
        new.winner = 1 - index
        new.end_reason = Text(END_REASONS["time"], player=side.name)
        events = [Event(Text(LAST_LINES["out of time"], player=side.name, winner=other.name),
                        kind="end",
                        data={"player": side.name})]
        new.last = [e.text for e in events]
        return Result(new, events)

    def timer(self, state: State) -> float | None:
        """When the mover's time bank runs out (PX8), or None."""
        if self.is_over(state) or state.time_bank is None or state.clock_start is None:
            return None
        return state.clock_start + state.clock_stopped + state.sides[state.mover].bank

    def ready(self, state: State, now: float) -> bool:
        due = self.timer(state)
        return due is not None and now >= due

    def close_turn(self, state: State, now: float) -> Result[State]:
        """The mover's time bank has run out: the mover loses (PX8)."""
        if not self.ready(state, now):
            raise GameError(Text(
                "Proximity closes a turn only when the mover's time bank has run out")
            )
        return self._lose_on_time(state.clone(), state.mover)

    def legal_orders(self, state: State, player: str) -> list[str]:
        index = state.side_of(player)
        if self.is_over(state) or index != state.mover:
            return []
        return self._legal_text(state, index)

    # --- questions ----------------------------------------------------------
    def players(self, state: State) -> list[str]:
        return [side.name for side in state.sides]

    def turn(self, state: State) -> int:
        return state.moves + (0 if self.is_over(state) else 1)

    def to_move(self, state: State) -> list[str]:
        return [] if self.is_over(state) else [state.sides[state.mover].name]

    def is_over(self, state: State) -> bool:
        return state.winner is not None or state.drawn

    def mark_drawn(self, state: State) -> State:
        """G6: over and drawn, nobody wins; no clock runs."""
        new = state.clone()
        new.drawn = True
        new.end_reason = Text(END_REASONS["draw"])
        new.last = [Text(LAST_LINES["drawn"])]
        return new

    def leave(self, state: State, player: str, now: float) -> Result[State]:
        """G5: a two-player game cannot go on with one, so the other player wins.

        Proximity has no missing order: a player to move must move or
        sacrifice, and an empty time bank loses (PX8).  A seat that will never
        move again leaves too few players: the game ends and the other wins.
        """
        self.check_leave(state, player)
        index = state.side_of(player)
        new = state.clone()
        new.left = state.left + (player,)
        new.winner = 1 - index
        winner = new.sides[new.winner].name
        new.end_reason = Text(END_REASONS["left"], player=player)
        events = [self.left_event(player),
                  Event(Text(LAST_LINES["too few"], winner=winner),
                        kind="end", data={"player": player, "winners": [winner]})]
        new.last = [e.text for e in events]
        return Result(new, events)

    def scores(self, state: State) -> dict[str, int]:
        """1 for the winner once the game is over, else 0 (Proximity has no points)."""
        return {s.name: int(state.winner == i) for i, s in enumerate(state.sides)}

    # --- presentation ---------------------------------------------------------
    def render_board(self, state: State, viewer: str | None = None) -> str:
        return display.render_board(state, viewer)

    def describe(self, state: State, viewer: str | None = None) -> list[str]:
        return list(accessible.describe(state, over=self.is_over(state)))

    def board_table(self, state: State, viewer: str | None = None) -> tuple[list[str], list[list[str]]]:
        return accessible.board_table(state)

    def view(self, state: State, viewer: str | None = None) -> dict:
        return display.view(state, viewer)

    def help_text(self) -> str:
        return display.help_text()

    def full_trail(self, state: State) -> list[str]:
        return display.full_trail(state)

    # --- JSON -----------------------------------------------------------------
    def dump(self, state: State) -> dict:
        from .state import dump_state

        return dump_state(state, self.state_version)

    def load(self, data: dict) -> State:
        from .state import load_state

        self.check_version(data)
        return load_state(data)


GAME = Proximity()
