"""How often a reader is mailed: SET MAIL EACH (every report, the default), MYTURN (only when
the report asks something of them) or DAILY [HH:MM] (one digest a day at that hour in their zone).

``asks_reader`` is the one rule of what is never held back, whatever the setting: a report
that puts the reader to move, the end of a game, the sender's own report (and every mail
that is not a report: notices, codes, replies).  A report it does not claim is held for a
MYTURN or DAILY reader: archived as if sent, its events kept (gm.store.pace) for the next
mail of that game to that reader, which opens with them, or for the address's digest
(gm.service.outgoing.digests), due at the next DAILY hour.  All in the caller's transaction.
"""

from __future__ import annotations

import json
from games.text import Text, mark
from gm.core.i18n import translate
from gm.core.value import changed
from datetime import datetime, time, timedelta, timezone
from typing import Any

from gm.core.model import GameView, Seat, Status
from gm.present import reports as present
from gm.service.context import Context
from gm.service.outgoing.letters import Letter
from gm.service.table import deadlines
from gm.store.games import settings_key

EACH, MYTURN, DAILY = "each", "myturn", "daily"
MODES = {"EACH": EACH, "MYTURN": MYTURN, "DAILY": DAILY}
DEFAULT_AT = 8 * 60  # DAILY without an hour: 08:00 in the reader's zone
HELD_TITLE = mark("While your mail waited (SET MAIL {mode}):")


def pace_of(ctx: Context, game_id: str, name: str) -> tuple[str, int]:
    """A seat's pace (each | myturn | daily) and its digest's minute of the day."""
    mode, at = ctx.store.pace.paces(game_id).get(name, (EACH, None))
    return mode, DEFAULT_AT if at is None else at


def parse_setting(value: str) -> tuple[str, int | None]:
    """``MYTURN`` -> ("myturn", None); ``DAILY 18:30`` -> ("daily", 1110) (DAILY alone: 08:00).
    Raises ValueError with what to write."""
    words = value.split()
    mode = MODES.get(words[0].upper()) if words else None
    if mode is None or len(words) > 2 or (len(words) == 2 and mode != DAILY):
        raise ValueError(Text("write SET MAIL EACH, SET MAIL MYTURN or SET MAIL DAILY [HH:MM]"))
    if mode != DAILY:
        return mode, None
    if len(words) == 1:
        return mode, DEFAULT_AT
    hour, colon, minute = words[1].partition(":")
    if not (colon and hour.isdigit() and minute.isdigit() and len(hour) <= 2 and len(minute) == 2
            and int(hour) < 24 and int(minute) < 60):
        raise ValueError(Text("the hour is HH:MM on a 24-hour clock, e.g. SET MAIL DAILY 18:30"))
    return mode, int(hour) * 60 + int(minute)


def shown(mode: str, at: int | None) -> str:
    """A pace as MY GAMES and the replies say it."""
    if mode == MYTURN:
        return Text("only when you are to move or the game needs you (MYTURN)")
    if mode == DAILY:
        at = DEFAULT_AT if at is None else at
        return Text("one digest a day at {hour} your time (DAILY)", hour=f"{at // 60:02d}:{at % 60:02d}")
    return Text("every report (EACH)")


def next_digest(now: float, at: int, zone: Any) -> float:
    """The first moment after ``now`` that is ``at`` minutes past midnight in ``zone`` (None:
    UTC), on the wall clock: across a DST change the digest keeps its hour."""
    tz = zone or timezone.utc
    today = datetime.fromtimestamp(now, tz).date()
    for days in (0, 1, 2):
        moment = datetime.combine(today + timedelta(days=days), time(at // 60, at % 60), tzinfo=tz)
        if moment.timestamp() > now:
            return moment.timestamp()
    raise AssertionError("a day has an hour")  # pragma: no cover


def asks_reader(view: GameView, letter: Letter) -> bool:
    """Whether ``letter`` goes at once whatever its reader's setting: anything but a report, the
    sender's own report, the end of the game, a report after which the reader is to move
    (their turn, a simultaneous turn or bid window opening), so no setting costs a reader time
    on a deadline or a clock (RULINGS G10), and one carrying the reader's calendar event (SET
    CALENDAR: a cancellation held would leave a deadline standing in their calendar)."""
    if letter.kind != "report" or letter.player is None or letter.answers is not None or letter.lead \
            or letter.calendar:
        return True
    over = view.rules.is_over(view.state) or view.status == Status.FINISHED  # by the rules or the GM
    return over or letter.player in deadlines.awaited(view)


def paced(ctx: Context, view: GameView, letters: list[Letter]) -> list[Letter]:
    """The letters of a batch to queue now: a report held back from a MYTURN or DAILY reader is
    stored and archived instead; a letter to such a reader opens with what was held for them in
    that game.  A seat that reads every report costs no statement here."""
    paces = ctx.store.pace.paces(view.id)  # read with the game
    if not paces:
        return letters
    out = []
    for letter in letters:
        seat = view.player(letter.player) if letter.player in paces else None
        if seat is None:
            out.append(letter)
        elif asks_reader(view, letter):
            out.append(with_held(ctx, view, letter))
        else:
            hold(ctx, view, letter, seat)
    return out


def hold(ctx: Context, view: GameView, letter: Letter, seat: Seat) -> None:
    """Keep ``letter``'s events for its reader, archive it as sent, and have the address's digest
    coming when the reader reads DAILY."""
    address, now = settings_key(seat.email), ctx.clock()
    events = [translate(event, letter.language) for event in letter.events]  # kept as its reader reads them
    ctx.store.pace.hold(address, view.id, seat.name, view.turn, json.dumps(events), now)
    footer = ctx.outbox.footers(view, {seat.name: seat.email})[seat.name]
    for note in letter.notes:
        ctx.outbox.archive(view, seat.name, "notice", note, None)
    ctx.outbox.archive(view, seat.name, letter.kind, present.with_footer(letter.body, footer), None)
    mode, at = pace_of(ctx, view.id, seat.name)
    if mode == DAILY and ctx.store.pace.digest_due(address) is None:
        ctx.store.pace.add_digest(address, next_digest(now, at, deadlines.player_zone(seat)))


def held_lines(ctx: Context, view: GameView, name: str) -> list[str]:
    """The events held for ``name`` in ``view``'s game, in order, taken off the store."""
    rows = ctx.store.pace.take_held_of_seat(view.id, name)
    return [line for row in rows for line in event_lines(row.turn, row.events)]


def event_lines(turn: int, events: str) -> list[str]:
    """A held report's lines: its events, each with its turn (a report without events: its turn)."""
    lines = json.loads(events)
    return [Text("T{turn}: {event}", turn=turn, event=line) for line in lines] or [
        Text("T{turn}: the game moved on", turn=turn)]


def with_held(ctx: Context, view: GameView, letter: Letter) -> Letter:
    """``letter`` opened by what was held for its reader in this game (text and page)."""
    seat = view.player(letter.player or "")
    lines = held_lines(ctx, view, letter.player or "")
    if not lines or seat is None:
        return letter
    title = Text(HELD_TITLE, mode=pace_of(ctx, view.id, seat.name)[0].upper())
    said = [translate(line, letter.language) for line in (title, *lines)]  # in its reader's language
    block = "\n".join([said[0], *(f"  {line}" for line in said[1:])])
    page = None if letter.page is None else changed(letter.page, events=[title, *lines, *letter.page.events])
    reply_page = None if letter.reply_page is None else changed(
        letter.reply_page, events=[title, *lines, *letter.reply_page.events])
    return changed(letter, body=f"{block}\n\n{letter.body}", page=page, reply_page=reply_page)


def release_soon(ctx: Context, email: str) -> None:
    """What was held for ``email`` goes at the next tick, as a digest (the reader reads EACH again)."""
    address, now = settings_key(email), ctx.clock()
    if not ctx.store.pace.has_held(address):
        return
    due = ctx.store.pace.digest_due(address)
    if due is not None and due > now:
        ctx.store.pace.claim_digest(address, due)
        due = None
    if due is None:
        ctx.store.pace.add_digest(address, now)
