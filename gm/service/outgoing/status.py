"""``gm status``: how the running gm is doing, and whether that is healthy (the health check).

Read-only: the daemons' heartbeat rows (a ``gm run --once`` from cron beats too) with the inbox
backlog each daemon's last poll left (InboxBacklog writes it), the outbox, bouncing addresses, the
timers ahead, and incoming mail whose handling failed.  Unhealthy (a reason per line in
``problems``): no beat within ``status_beat_seconds``, a live daemon whose every poll has ended
with mail left in the inbox for longer than ``status_inbox_seconds`` (it falls behind, or cannot
move what it read), the oldest queued mail older than ``status_outbox_seconds``, any failed mail,
any error in the last hour.
"""

from __future__ import annotations

from pathlib import Path

from gm.service.context import Context
from gm.service.outgoing import delivery_state
from gm.store.mailrows import DaemonRow

ERROR_WINDOW = 3600.0  # errors counted over the last hour
DEADLINES_SHOWN = 5


def unread_maildir(inbox: Path | None) -> int | None:
    """Mail waiting in the inbox Maildir's new/ (None: no Maildir inbox configured).  gm moves
    each message it handled to cur/ and never reads cur/ (a file a mail reader put there is not
    gm's to handle); a name starting with a dot is no message."""
    if inbox is None:
        return None
    new = Path(inbox) / "new"
    return sum(1 for path in new.iterdir() if not path.name.startswith(".")) if new.is_dir() else 0


class InboxBacklog:
    """A daemon's inbox backlog after each poll, in its heartbeat row: how many messages the poll
    handled and how many it left in the inbox, and since when every poll has left some.  Written
    only when the figures change: an idle daemon polling an empty inbox writes nothing."""

    def __init__(self, daemon_id: str):
        self.daemon_id = daemon_id
        self.written: tuple[int, int] | None = None

    def record(self, ctx: Context, handled: int, left: int) -> None:
        if self.written == (handled, left):
            return
        store = ctx.store
        with store.write(scoped=True):  # this daemon's own row: no other writes it
            row = store.daemons.daemon_row(self.daemon_id)
            if row is None:  # no beat yet (the store was down): the next poll writes it
                return
            since = row.backlog_since if row.backlog_since is not None else ctx.clock()
            store.daemons.record_inbox(self.daemon_id, handled, left, since if left else None)
        self.written = (handled, left)


def daemon_status(row: DaemonRow, now: float, config) -> dict:
    return {"daemon_id": row.daemon_id, "host": row.host, "pid": row.pid, "started": row.started,
            "last_seen": row.last_seen, "alive": now - row.last_seen <= config.status_beat_seconds,
            "inbox_handled": row.inbox_handled, "inbox_left": row.inbox_left,
            "backlog_since": row.backlog_since,
            # the dead daemon whose claimed, unsent mail this one sent (failover)
            "took_over_from": row.took_over_from, "took_over_at": row.took_over_at}


def gather(ctx: Context) -> dict:
    """Everything ``gm status`` shows, as plain data (``--json`` prints it as is)."""
    store, config, now = ctx.store, ctx.config, ctx.clock()
    last = store.daemons.last_heartbeat()
    counts = store.metrics.outbox_counts()
    oldest = store.metrics.oldest_queued()
    errors = store.metrics.errors_since(now - ERROR_WINDOW)
    status = {
        "now": now,
        "daemons": [daemon_status(r, now, config) for r in store.daemons.daemon_rows()],
        "last_beat": last,
        "inbox_unread": unread_maildir(config.inbox) if config.imap is None else None,
        "outbox": {"queued": counts.get("queued", 0), "held": counts.get("held", 0),
                   "failed": counts.get("failed", 0), "sent": counts.get("sent", 0),
                   "oldest_queued": oldest},
        "bouncing": [row["address"] for row in delivery_state.bouncing(ctx)],
        "next_deadlines": [{"game_id": r.game_id, "due": r.due}
                           for r in store.metrics.next_timers(DEADLINES_SHOWN)],
        "errors_last_hour": errors,
    }
    problems = []
    if last is None:
        problems.append("no daemon has ever run (no heartbeat)")
    elif now - last > config.status_beat_seconds:
        problems.append(f"no daemon beat for {int(now - last)} s (limit {int(config.status_beat_seconds)} s)")
    if oldest is not None and now - oldest > config.status_outbox_seconds:
        problems.append(f"the oldest queued mail waits {int(now - oldest)} s "
                        f"(limit {int(config.status_outbox_seconds)} s)")
    if status["outbox"]["failed"]:
        problems.append(f"{status['outbox']['failed']} outgoing mail failed for good")
    if errors:
        problems.append(f"{errors} incoming mail ended in an error in the last hour")
    # The inbox is one, whichever daemon looked: the figures of the live daemon that beat last.
    polled = [d for d in status["daemons"] if d["alive"] and d["inbox_left"] is not None]
    latest = max(polled, key=lambda d: d["last_seen"]) if polled else None
    status["inbox_backlog"] = None if latest is None else {
        "left": latest["inbox_left"], "handled": latest["inbox_handled"], "since": latest["backlog_since"]}
    since = None if latest is None else latest["backlog_since"]
    if since is not None and now - since > config.status_inbox_seconds:
        problems.append(f"mail has been left in the inbox after every poll for {int(now - since)} s "
                        f"(limit {int(config.status_inbox_seconds)} s)")
    status["problems"] = problems
    status["healthy"] = not problems
    return status
