"""The rows of calendar_events: the deadline event each reader was last sent (SET CALENDAR)."""

from __future__ import annotations

from gm.store.record import Record, record


@record
class CalendarEventRow(Record):
    """One seat's event of one turn: the SEQUENCE and due last sent, and whether it was cancelled."""

    game_id: str
    player: str
    turn: int
    sequence: int
    due: float
    cancelled: int
    updated: float
