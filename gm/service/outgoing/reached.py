"""A turn's time counts from when its report reached the player, not from when gm queued it.

While the report of the open turn has not been handed on to an owing player's mail server
(queued, held, being retried), the deadline does not pass for anyone: nobody is marked late,
adjudicated without orders or forfeited for a turn they have not been told of.  Once it has,
the deadline is at least what the game's deadline option gives counted from that delivery
(``due_after(deadline, delivered)``): exactly the time the player would have had, had the
report gone out at once, however long it waited.  A lag of under a minute moves nothing.

An address that soft-fails or bounces is the player's mailbox refusing, not gm's server: its
wait is the bouncing policy's (gm.service.play.timers.holdable, bounded), never this one's,
or a player could stall a game by making her own mail fail.
"""

from __future__ import annotations

from games.text import Text
from gm.core import times
from gm.core.model import GameView
from gm.service.context import Context
from gm.service.outgoing import reports
from gm.service.outgoing.delivery_state import OK
from gm.service.table import deadlines
from gm.store.gamerows import DeadlineRow
from gm.store.mailrows import ReportDeliveryRow

SLACK = 60.0  # a report handed on within this of its deadline's start moves nothing


def due_by_delivery(ctx: Context, view: GameView, row: DeadlineRow, owing: list[str]) -> float | None:
    """The deadline as the report's delivery to the ``owing`` players allows: None while one of
    them still waits for it; else the latest of ``row``'s deadline and the deadline option
    counted from the last delivery that had to wait."""
    store = ctx.store
    waits = late_deliveries(store.metrics.report_deliveries(view.id, view.turn))
    last = None
    for name in owing:
        player = view.player(name)
        address = player.email.lower() if player is not None else None
        if address not in waits or not mailbox_ok(ctx, address):
            continue  # reached them at the first try (or none made); or the bouncing policy's
        if waits[address] is None:
            return None
        last = waits[address] if last is None else max(last, waits[address])
    conf = deadlines.settings(store, view.id)
    due = row.due
    if last is None or row.set_by != "option" or not conf["deadline"]:
        return due  # a deadline the GM set is a moment, not a length: it only waits
    owed = deadlines.absent_until(store, view.id, view.rules.to_move(view.state),
                                  times.due_after(conf["deadline"], last))
    return owed if owed > due + SLACK else due


def late_deliveries(rows: list[ReportDeliveryRow]) -> dict[str, float | None]:
    """Per address (lower case), a report that gm tried and could not hand on at once: None while
    it still waits (held, or queued after a failed try), else when it was handed on at last.
    A report handed on at its first try is on time, however long after it was queued (cron's
    cadence is not an outage); one not tried yet waits for no one (the sender has not run: a
    daemon that was stopped is an outage of its own, gm.service.outgoing.outages)."""
    out: dict[str, float | None] = {}
    for row in rows:
        address = row.recipient.lower()
        if row.status == "sent":
            sent = row.sent  # set on every sent row (Outbox.mark_sent)
            at = float(sent) if row.attempts > 1 and sent is not None else 0.0  # 0: reached at once, moves nothing
            prior = out.get(address)
            out[address] = at if prior is None else min(prior, at)
        elif (row.status == "held" or row.attempts > 0) and address not in out:
            out[address] = None
    return out


def mailbox_ok(ctx: Context, address: str) -> bool:
    row = ctx.store.delivery.address_state(address)
    return row is None or row.state == OK


def move(ctx: Context, view: GameView, due: float, now: float) -> list[str]:
    """The deadline moves to ``due``, because the turn's report reached a player late: tell them all."""
    store = ctx.store
    store.timers.update_deadline(view.id, due=due)
    reports.notice(ctx, view, list(view.seated_names), lambda zone: [
        Text("gm's report of turn {turn} reached a player late (gm could not hand it on to the "
             "mail server at once).", turn=view.turn),
        Text("The turn's time counts from when it arrived: the deadline moves to {due}.",
             due=times.format_due(due, now, zone))], Text("Deadline moved"))
    store.history.log(view.id, view.turn, "deadline", "moved",
                      f"to {times.format_stamp(due)}: the turn's report reached a player late", now)
    return [f"{view.id}: deadline moved to {times.format_stamp(due)} (report delivered late)"]
