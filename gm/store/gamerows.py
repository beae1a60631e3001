"""The rows of games, turns, timers and results, as records (gm.store.record) services read.

Each field is named and typed as its column reads on both back ends: a REAL column is a float,
an INT an int, a packed state its bytes (gm.store.packing).  A statement that selects a few
columns of a table gives its own small record, so no field is ever a guess.
"""

from __future__ import annotations

from gm.store.record import Record, record

# The packing of a state read from a store before schema step 21, which recorded none: no packing
# gm.store.packing knows, so such a state is never decoded as if it were recorded.
NO_PACKING = ""


@record
class GameRow(Record):
    """A games row: a game's kind, seed, raw options (JSON) and status."""

    id: str
    kind: str
    seed: int
    options: str
    status: str
    created: float
    updated: float
    token_salt: str


@record
class StateRow(Record):
    """A states row: one position of a game, packed (read with Turns.state_data)."""

    game_id: str
    seq: int
    turn: int
    state: bytes
    created: float
    state_packing: str = NO_PACKING


@record
class StoredState(Record):
    """A state as replay reads it: its seq and packed state (Turns.states_of)."""

    seq: int
    state: bytes
    state_packing: str = NO_PACKING


@record
class StateTurn(Record):
    """The turn of a state (Turns.state_turns)."""

    seq: int
    turn: int


@record
class TurnState(Record):
    """A state's turn and time, and whether the GM made it (Turns.turn_states_desc);
    ``overridden`` is 0/1 on SQLite, a bool on PostgreSQL."""

    seq: int
    turn: int
    created: float
    overridden: int


@record
class OrderRow(Record):
    """An orders row: an order (action 'order') or a turn close ('close') and what it made."""

    id: int
    game_id: str
    action: str
    player: str | None
    turn: int
    text: str
    canonical: str | None
    accepted: int
    error: str | None
    message_row: int | None
    origin: str
    at: float
    seq: int | None


@record
class OrderId(Record):
    """The id of an accepted order (Turns.accepted_orders_after)."""

    id: int


@record
class OrderMark(Record):
    """An order's id and whether it was accepted (the metrics: Metrics.orders_after)."""

    id: int
    accepted: int


@record
class OverrideRow(Record):
    """A state_overrides row: a state the GM made (rollback, edit), from ``source_seq`` if any."""

    game_id: str
    seq: int
    action: str
    source_seq: int | None
    detail: str | None


@record
class HistoryRow(Record):
    """A history row: who did what in a game, when."""

    id: int
    game_id: str
    turn: int
    actor: str
    action: str
    detail: str | None
    at: float


@record
class DeadlineRow(Record):
    """A deadlines row: the turn now open (from state ``start_seq``), when it is due and its steps."""

    game_id: str
    start_seq: int
    turn: int
    due: float | None
    reminded: int
    late: int
    grace_done: int
    paused_at: float | None
    set_by: str


@record
class AbsenceRow(Record):
    """A player's declared absence (Timers.absences_of): from ``start`` to ``end``."""

    player: str
    start: float
    end: float


@record
class ResultRow(Record):
    """A results row: how a game the GM ended came out; ``winners`` JSON, or None: as the rules say."""

    game_id: str
    reason: str
    winners: str | None
    at: float


@record
class TimerRow(Record):
    """A timers row: when a game next needs the clock."""

    game_id: str
    due: float


@record
class AwayNoticeRow(Record):
    """An away_notices row: the last out-of-office reply seen from a seat's address while its game
    waited for it, and when the address was last told of one (gm.service.intake.away)."""

    address_key: str
    game_id: str
    player: str
    last_seen: float
    subject: str
    last_told: float | None
