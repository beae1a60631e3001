"""An out-of-office reply from a seat gm waits for: kept for the GM, and the seat told of ABSENCE.

gm never answers a robot (gm.service.intake.gate; RFC 3834), yet a player whose mailbox says
"away until the 20th" may miss a turn an ABSENCE would have saved.  An auto-reply (not a
bounce, a list's mail or gm's own: gm.mail.robots.away_reply) from an address seated where a
game waits for that seat's orders is kept (away_notices: when, its subject cut short) for
`gm players`; where a deadline or a clock runs for the seat (what an ABSENCE acts on), its
registered address is mailed, at most once a week across its games, which games wait and how
to send ABSENCE.  The From is only a claim: the mail goes to the registered address and quotes
nothing of the reply, and nothing else changes (no absence is declared, no deadline moves).
It all happens in the mail's one transaction.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.text import Text
from gm.core import times
from gm.core.addresses import mailbox_key
from gm.core.model import GameView, Seat, Status
from gm.mail.redact import mask_text
from gm.service.outgoing import delivery_state
from gm.service.people import mailcommands
from gm.service.table import clockdue, deadlines, games
from gm.store.gamerows import AwayNoticeRow

if TYPE_CHECKING:
    from gm.service.context import Context
    from gm.service.intake.case import MailCase

WEEK = 7 * 86400.0  # an address is told of its away replies at most this often
SUBJECT_KEPT = 120  # characters of an away reply's subject kept for the GM
TEMPLATE = "away_seen"  # templates/mail/away_seen.txt.j2
TITLE = Text("Your away message: games wait for your orders")


def note(case: MailCase) -> str | None:
    """Keep an away reply from a seat that owes orders, and tell its registered address (once a
    week at most); what was done, for the mail's record, or None when no game waits for it."""
    ctx, inbound = case.ctx, case.inbound
    if not inbound.away or not inbound.sender:
        return None
    delivery_state.lock_for_address(ctx, inbound.sender)  # its games, then its rows: one order
    waiting = awaited_seats(ctx, inbound.sender)
    if not waiting:
        return None
    address = waiting[0][1].email  # the registered address: the From only matched it
    key = mailbox_key(address)
    kept = {(r.game_id, r.player): r for r in ctx.store.timers.away_notices_at(key)}
    told = max((r.last_told for r in kept.values() if r.last_told is not None), default=None)
    now = case.now
    at_stake = [(view, seat) for view, seat in waiting if absence_counts(ctx, view)]
    told_now = bool(at_stake) and (told is None or now - told >= WEEK) and tell(ctx, address, at_stake, now)
    subject = mask_text(inbound.subject)[:SUBJECT_KEPT]  # kept as the mail is: its secrets masked
    for view, seat in waiting:
        before = kept.get((view.id, seat.name))
        last_told = now if told_now else (before.last_told if before is not None else None)
        ctx.store.timers.save_away_notice(AwayNoticeRow(key, view.id, seat.name, now, subject, last_told))
    seats = ", ".join(f"{seat.name} in {view.id}" for view, seat in waiting)
    return f"away reply kept ({seats})" + ("; its address told of ABSENCE" if told_now else "")


def awaited_seats(ctx: Context, address: str) -> list[tuple[GameView, Seat]]:
    """Each seat registered to ``address`` (any case) in a running game that waits for its orders
    now (gm.service.table.deadlines.missing_now), with its game."""
    views: dict[str, GameView] = {}
    found = []
    for row in ctx.store.seats.player_seats_at(address):
        if row.status != Status.ACTIVE:
            continue
        if row.game_id not in views:
            views[row.game_id] = games.load(ctx.store, row.game_id)
        view = views[row.game_id]
        seat = view.player(row.name)
        if seat is not None and row.name in deadlines.missing_now(ctx.store, view):
            found.append((view, seat))
    return found


def absence_counts(ctx: Context, view: GameView) -> bool:
    """An ABSENCE would change something in the game: a deadline runs for its turn, or a clock
    (RULINGS G10), which an absence stops.  Without either, a wait costs the player nothing."""
    return deadlines.due_time(ctx.store, view) is not None or clockdue.replaces_deadline(view)


def tell(ctx: Context, address: str, waiting: list[tuple[GameView, Seat]], now: float) -> bool:
    """Mail ``address`` that gm saw an away message, which games wait for it and how to send
    ABSENCE; False if the mail being handled may queue no more there (outbox's bound)."""
    zone = deadlines.player_zone(waiting[0][1])
    waits = [{"id": view.id, "name": seat.name, "turn": view.turn,
              "deadline": deadlines.deadline_text(ctx.store, view, now, deadlines.player_zone(seat))}
             for view, seat in waiting]
    absence = next(c for c in mailcommands.COMMANDS if c.word == "ABSENCE")
    body = ctx.outbox.render(TEMPLATE, seen=times.format_stamp(now, zone), games=waits,
                             absence=absence, weekly=times.format_span(WEEK))
    return ctx.outbox.queue(address, TITLE, body, kind="notice") is not None
