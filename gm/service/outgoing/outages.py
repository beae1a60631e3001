"""Deadlines that wait for gm: while gm cannot send, or is not running, no deadline expires.

An outage is a row of ``outages``: ``sending`` (the sender cannot reach the SMTP server, or
the queue is held by a refusal of gm's own sender), opened and closed by ticks; or
``stopped`` (no heartbeat for a few ticks before a daemon started), recorded whole by that
daemon.  A deadline step falling inside an outage waits (gm.service.play.timers asks
``postponed``); ``settle`` then moves it by the outage's length and tells the players, once
per game and outage, in the transaction that marks the outage applied.  Nobody is
forfeited while a turn's report has not reached them (gm.service.outgoing.reached).
`gm run --once` counts one failed connection as the server down; cron's own gaps between
runs are never an outage.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
from games.text import Text
from gm.core.value import valueclass

from gm.core import times
from gm.core.model import GameView
from gm.store.gamerows import DeadlineRow
from gm.service.outgoing import calendar, holding, reports
from gm.service.table import deadlines, games
from gm.service.context import Context

log = logging.getLogger(__name__)

AWAY_TICKS = 4  # a heartbeat older than this many ticks: no daemon was running
AWAY_AT_LEAST = 60.0  # ... and never less than this (seconds): a slow pass is not an outage
FORGET_AFTER = 7 * 86400.0  # heartbeat rows of daemons gone this long are dropped
DAEMON_ROWS = "daemons"  # the lock of the heartbeat rows, for a beat (store.locks.lock_shared)
SENDING, STOPPED = "sending", "stopped"


@valueclass(frozen=True)
class DaemonIdentity:
    """Who writes a heartbeat row: host and pid, and a random part (threads, pid reuse)."""

    daemon_id: str
    host: str
    pid: int
    started: float

    @classmethod
    def new(cls, now: float) -> "DaemonIdentity":
        host, pid = socket.gethostname(), os.getpid()
        return cls(f"{host}:{pid}:{secrets.token_hex(4)}", host, pid, now)


def away_after(ctx: Context) -> float:
    """How old the newest heartbeat may be before gm counts as not having run."""
    return max(AWAY_TICKS * ctx.config.tick_seconds, AWAY_AT_LEAST)


def heartbeat(ctx: Context, me: DaemonIdentity, sending_down_since: float | None,
              look_for_gap: bool = True) -> float | None:
    """Write this daemon's heartbeat; first, if no daemon ran for a while, record that outage.

    Returns the length of the gap found, or None.  The daemon looks for a gap at its first beat
    and at its first after the store was unreachable, never for `gm run --once` (cron's schedule
    is not an outage) nor after its own long pass over a backlog (work, not an outage).
    """
    store, now = ctx.store, ctx.clock()
    gap = None
    # Store-wide only where it looks for a gap: an outage it finds moves every game's deadlines.
    # A plain beat changes the daemons' rows alone, so it locks them alone: several daemons'
    # beats must not stop every daemon's judging once a tick each.
    with store.write(scoped=not look_for_gap):
        store.locks.lock_shared(DAEMON_ROWS)
        last = store.daemons.last_heartbeat()
        # A gap inside a sending outage that still lasts is part of it: counted once, when it ends.
        if (look_for_gap and last is not None and now - last > away_after(ctx)
                and store.daemons.open_outage_since() is None):
            gap = now - last
            store.daemons.add_outage(STOPPED, last, now)
            log.warning("gm was not running from %s to %s (%s): deadlines in between move",
                        times.format_stamp(last), times.format_stamp(now), times.format_span(gap))
        store.daemons.forget_daemons(now - FORGET_AFTER)
        store.daemons.beat(me.daemon_id, me.host, me.pid, me.started, now, sending_down_since)
        store.locks.hold_alive(me.daemon_id)  # for as long as this connection lives (gm.runtime.slices)
    return gap


def unavailable_since(ctx: Context) -> float | None:
    """Since when gm cannot send, or None while it can: the earliest of its sources.

    Sources: a running daemon's sender thread that finds the SMTP server unreachable (its
    heartbeat row), and the queue held by a refusal of gm's own sender
    (gm.service.outgoing.holding.sending_blocked_since).
    """
    found = [ctx.store.daemons.sending_down_since(ctx.clock() - away_after(ctx)), holding.sending_blocked_since(ctx)]
    known = [at for at in found if at is not None]
    return min(known) if known else None


def postponed(ctx: Context, step: float) -> bool:
    """Does a deadline step at ``step`` wait, because it falls inside an outage that still lasts?"""
    since = ctx.store.daemons.open_outage_since()
    return since is not None and step >= since


def settle(ctx: Context) -> list[str]:
    """Open or close the sending outage as things stand; move the deadlines of every outage
    that is over.  Called first by every tick."""
    store, now = ctx.store, ctx.clock()
    since = unavailable_since(ctx)
    done: list[str] = []
    if not outage_news(ctx, since):  # the common tick: read without a lock, nothing to write
        return done
    with store.write():  # store-wide: an outage over moves the deadlines of every game in it
        current = store.daemons.open_outage(SENDING)
        if since is not None and current is None:
            store.daemons.add_outage(SENDING, since, None)
            log.warning("gm cannot send since %s: deadlines wait", times.format_stamp(since))
        elif since is None and current is not None:
            store.daemons.close_outage(current.id, now)
            log.warning("gm can send again after %s: deadlines that fell inside move",
                        times.format_span(now - current.start))
        for outage in store.daemons.outages_to_apply():
            assert outage.finish is not None  # outages_to_apply: those over only
            done += apply(ctx, outage.kind, outage.start, outage.finish)
            store.daemons.mark_outage_applied(outage.id)
    return done


def outage_news(ctx: Context, since: float | None) -> bool:
    """Whether settle has something to write, as a read outside any lock sees it (settle reads
    it all again under the store's lock): a sending outage to open or to close, or one over whose
    deadlines have not moved yet."""
    current = ctx.store.daemons.open_outage(SENDING)
    return (since is None) != (current is None) or bool(ctx.store.daemons.outages_to_apply())


def step_time(ctx: Context, view: GameView, row: DeadlineRow) -> float | None:
    """When the turn's next deadline step is due: the deadline, or (late) the end of grace."""
    if row.due is None:
        return None
    if not row.late:
        return row.due
    if view.rules.simultaneous or row.grace_done:
        return None
    return row.due + times.parse_duration(deadlines.settings(ctx.store, view.id)["grace"] or "0")


def apply(ctx: Context, kind: str, start: float, finish: float) -> list[str]:
    """Move each deadline step that fell inside the outage by its length; tell the players."""
    store, now = ctx.store, ctx.clock()
    length = finish - start
    done: list[str] = []
    for game_id in store.daemons.games_due_by(finish):
        view = games.load(store, game_id)
        if view.status != "active" or view.rules.is_over(view.state):
            continue
        row = deadlines.current(store, view)
        step = step_time(ctx, view, row)
        if step is None or not start <= step <= finish:
            continue
        due = row.due + length
        store.timers.update_deadline(game_id, due=due)
        deadlines.schedule(store, view)
        why = Text("gm could not send mail") if kind == SENDING else Text("gm was not running")
        span = times.format_span(length)
        reports.notice(ctx, view, list(view.seated_names), lambda zone: [
            Text("{why} from {start} to {finish} ({span}).", why=why, start=times.format_stamp(start, zone),
                 finish=times.format_stamp(finish, zone), span=span),
            Text("The deadline of turn {turn} moves by {span}, to {due}.", turn=view.turn, span=span,
                 due=times.format_due(due, now, zone))],
            Text("Deadline moved"), calendars=calendar.for_seated(ctx, view))
        store.history.log(game_id, view.turn, "deadline", "moved",
                          f"to {times.format_stamp(due)}: {why} for {span}", now)
        log.warning("%s: deadline of turn %s moved by %s to %s (%s)", game_id, view.turn, span,
                    times.format_stamp(due), why)
        done.append(f"{game_id}: deadline moved by {span} ({why})")
    return done


def unreached(ctx: Context, view: GameView, names: list[str]) -> list[str]:
    """Of ``names``, the players this turn's report has not reached yet (queued or held)."""
    waiting = ctx.store.metrics.unsent_report_recipients(view.id, view.turn)
    out = []
    for name in names:
        player = view.player(name)
        if player is not None and player.email.lower() in waiting:
            out.append(name)
    return out
