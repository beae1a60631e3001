"""Which calendar objects a reader's mail carries (SET CALENDAR), and what was sent.

A reader with the setting on gets, in each report that puts them to move (they are awaited
and the turn has a deadline, or the game a clock: then the moment their bank runs out), the
event of their seat and turn: PUBLISH with the SEQUENCE last sent, one higher when the due
moved since.  A mail that tells of a moved deadline carries the update the same way (no
mail of its own).  An event of theirs whose turn is over for them (another turn, not awaited,
no due any more) goes as CANCEL, one SEQUENCE higher, in the same mail.  What was sent is
recorded (calendar_events) in the transaction that queues the mail.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gm.core import times
from gm.core.model import GameView, Seat
from gm.core.value import changed
from gm.service.context import Context
from gm.service.outgoing.letters import Letter
from gm.service.table import clockdue, deadlines
from gm.store.calendarrows import CalendarEventRow

if TYPE_CHECKING:
    from gm.present import calendar as ics

ON, OFF = "on", "off"


def wanted(player: Seat | None) -> bool:
    """The seat asked for its deadlines in the calendar (SET CALENDAR ON)."""
    return player is not None and player.calendar == ON


def due_of(ctx: Context, view: GameView, name: str) -> float | None:
    """When ``name``'s orders are due this turn: the deadline, or in a clock game the moment their
    bank would run out; None if they are not to move or nothing is due."""
    if view.status != "active" or name not in deadlines.awaited(view):
        return None
    if clockdue.replaces_deadline(view):
        clock = view.rules.clock_of(view.state)
        return None if clock is None or clockdue.mover_of(view) != name else clock.due(name)
    return deadlines.due_time(ctx.store, view)


def deadline(view: GameView, player: Seat, turn: int, due: float, sequence: int, clock: bool) -> ics.Deadline:
    """The plain values of one event, the due also as the reader reads it in their zone."""
    from gm.present import calendar as ics  # the iCalendar parts: only for a reader who wants them

    zone = player.timezone or "UTC"
    return ics.Deadline(view.id, player.name, turn, due, sequence, zone,
                        times.format_stamp(due, times.zone(player.timezone)), clock)


def objects(ctx: Context, view: GameView, player: Seat, events: list[CalendarEventRow],
            due: float | None) -> tuple[bytes, ...]:
    """The calendar objects ``player``'s mail about ``view`` carries now (PUBLISH, then CANCEL),
    recorded as sent; ``events``: the game's events not cancelled, and this turn's
    (Timers.calendar_events); ``due``: their due now (due_of; None: every event cancelled)."""
    now, clock = ctx.clock(), clockdue.replaces_deadline(view)
    mine = [e for e in events if e.player == player.name]
    published, cancelled = [], []
    for event in mine:
        if not event.cancelled and (due is None or event.turn != view.turn):
            row = event.changed(sequence=event.sequence + 1, cancelled=1, updated=now)
            ctx.store.timers.save_calendar_event(row)
            cancelled.append(deadline(view, player, row.turn, row.due, row.sequence, clock))
    if due is not None:
        last = next((e for e in mine if e.turn == view.turn), None)
        sequence = 0 if last is None else last.sequence + int(bool(last.cancelled) or last.due != due)
        ctx.store.timers.save_calendar_event(CalendarEventRow(
            game_id=view.id, player=player.name, turn=view.turn, sequence=sequence, due=due, cancelled=0,
            updated=now))
        published.append(deadline(view, player, view.turn, due, sequence, clock))
    domain, organizer = ctx.config.domain, ctx.config.address
    from gm.present import calendar as ics

    return tuple(ics.calendar(found, method, domain, organizer, now)
                 for found, method in ((published, ics.PUBLISH), (cancelled, ics.CANCEL)) if found)


def for_readers(ctx: Context, view: GameView, names: list[str]) -> dict[str, tuple[bytes, ...]]:
    """The calendar objects of each of ``names`` who asked for them (none: left out)."""
    readers = [p for p in (view.player(name) for name in names) if p is not None and wanted(p)]
    if not readers:
        return {}
    events = ctx.store.timers.calendar_events(view.id, view.turn)
    found = {p.name: objects(ctx, view, p, events, due_of(ctx, view, p.name)) for p in readers}
    return {name: found[name] for name in found if found[name]}


def for_seated(ctx: Context, view: GameView) -> dict[str, tuple[bytes, ...]]:
    """for_readers of every seat still in the game: a mail to them all that tells of a moved
    deadline (the GM's, an outage, a pause, an absence, a clock) carries each one's update."""
    return for_readers(ctx, view, list(view.seated_names))


def set_now(ctx: Context, view: GameView, player: Seat, on: bool) -> tuple[bytes, ...]:
    """What the reply to SET CALENDAR carries: ON, the event of the turn now open if the seat is to
    move; OFF, the cancellation of every event of the seat in this game still in its calendar."""
    due = due_of(ctx, view, player.name) if on else None
    return objects(ctx, view, player, ctx.store.timers.calendar_events(view.id, view.turn), due)


def with_calendars(ctx: Context, view: GameView, letters: list[Letter]) -> list[Letter]:
    """A turn's Letters, each to a reader who asked for it with their calendar objects."""
    found = for_readers(ctx, view, [letter.player for letter in letters if letter.player])
    return [changed(letter, calendar=found[letter.player]) if letter.player in found else letter
            for letter in letters]
