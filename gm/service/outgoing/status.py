"""``gm status``: how the running gm is doing, and whether that is healthy (the health check).

Read-only: the daemons' heartbeat rows (a ``gm run --once`` from cron beats too), the outbox,
bouncing addresses, the timers ahead, and incoming mail whose handling failed.  Unhealthy (a
reason per line in ``problems``): no beat within ``status_beat_seconds``, the oldest queued mail
older than ``status_outbox_seconds``, any failed mail, any error in the last hour.
"""

from __future__ import annotations

from pathlib import Path

from gm.service.context import Context
from gm.service.outgoing import delivery_state

ERROR_WINDOW = 3600.0  # errors counted over the last hour
DEADLINES_SHOWN = 5


def unread_maildir(inbox: Path | None) -> int | None:
    """Mail waiting in the inbox Maildir's new/ (None: no Maildir inbox configured)."""
    if inbox is None:
        return None
    new = Path(inbox) / "new"
    return sum(1 for _ in new.iterdir()) if new.is_dir() else 0


def gather(ctx: Context) -> dict:
    """Everything ``gm status`` shows, as plain data (``--json`` prints it as is)."""
    store, config, now = ctx.store, ctx.config, ctx.clock()
    last = store.last_heartbeat()
    counts = store.outbox_counts()
    oldest = store.oldest_queued()
    errors = store.errors_since(now - ERROR_WINDOW)
    status = {
        "now": now,
        "daemons": [{"daemon_id": r["daemon_id"], "host": r["host"], "pid": r["pid"],
                     "started": r["started"], "last_seen": r["last_seen"],
                     "alive": now - r["last_seen"] <= config.status_beat_seconds,
                     # the dead daemon whose claimed, unsent mail this one sent (failover)
                     "took_over_from": r["took_over_from"], "took_over_at": r["took_over_at"]}
                    for r in store.daemon_rows()],
        "last_beat": last,
        "inbox_unread": unread_maildir(config.inbox) if config.imap is None else None,
        "outbox": {"queued": counts.get("queued", 0), "held": counts.get("held", 0),
                   "failed": counts.get("failed", 0), "sent": counts.get("sent", 0),
                   "oldest_queued": oldest},
        "bouncing": [row["address"] for row in delivery_state.bouncing(ctx)],
        "next_deadlines": [{"game_id": r["game_id"], "due": r["due"]}
                           for r in store.next_timers(DEADLINES_SHOWN)],
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
    status["problems"] = problems
    status["healthy"] = not problems
    return status
