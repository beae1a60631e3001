"""Daemon heartbeats and outages (gm.service.outgoing.outages): how long gm was away or could not send."""

from __future__ import annotations

import logging
import sqlite3

log = logging.getLogger(__name__)


class DaemonQueries:
    """Mixed into Store: ``daemons`` (one heartbeat row per running daemon) and ``outages``."""

    def beat(self, daemon_id: str, host: str, pid: int, started: float, now: float,
             sending_down_since: float | None) -> None:
        """This daemon's heartbeat: it ran at ``now`` (inside a write).  An update where its row
        exists, so the inbox figures of its last poll (record_inbox) stay."""
        self._require_tx()
        if not self.update("daemons", {"daemon_id": daemon_id}, last_seen=now, sending_down_since=sending_down_since):
            self.db.execute("INSERT INTO daemons (daemon_id, host, pid, started, last_seen, sending_down_since) "
                            "VALUES (?, ?, ?, ?, ?, ?)", (daemon_id, host, pid, started, now, sending_down_since))

    def daemon_row(self, daemon_id: str) -> sqlite3.Row | None:
        return self.one("SELECT * FROM daemons WHERE daemon_id = ?", daemon_id)

    def record_inbox(self, daemon_id: str, handled: int, left: int, backlog_since: float | None) -> None:
        """What this daemon's last poll handled and left in the inbox (inside a write)."""
        self._require_tx()
        self.update("daemons", {"daemon_id": daemon_id}, inbox_handled=handled, inbox_left=left,
                    backlog_since=backlog_since)

    def last_heartbeat(self) -> float | None:
        """When any daemon last ran, or None where none ever did."""
        row = self.one("SELECT max(last_seen) AS at FROM daemons")
        return None if row is None or row["at"] is None else float(row["at"])

    def forget_daemons(self, before: float) -> None:
        """Drop the rows of daemons not seen since ``before`` (inside a write)."""
        self._require_tx()
        self.db.execute("DELETE FROM daemons WHERE last_seen < ?", (before,))

    def note_takeover(self, me: str, claimed_before: set[str], now: float) -> str | None:
        """``me`` claimed unsent mail still marked as claimed by these daemons: a living sender
        unmarks what it lets go of, so each of them died holding it (killed, its host or its
        session gone).  One is recorded, at ``now``, as the daemon ``me`` took over from."""
        if not claimed_before:
            return None
        dead = sorted(claimed_before)
        with self.write(scoped=True):  # this daemon's own row
            self.db.execute("UPDATE daemons SET took_over_from = ?, took_over_at = ? WHERE daemon_id = ?",
                            (dead[-1], now, me))
        log.warning("daemon %s took over the mail daemon %s had claimed and not sent", me, ", ".join(dead))
        return dead[-1]

    def daemon_rows(self) -> list[sqlite3.Row]:
        return self.all("SELECT * FROM daemons ORDER BY started")

    def sending_down_since(self, seen_after: float) -> float | None:
        """The earliest time a daemon seen after ``seen_after`` says its SMTP server went down."""
        row = self.one("SELECT min(sending_down_since) AS since FROM daemons WHERE last_seen >= ? "
                       "AND sending_down_since IS NOT NULL", seen_after)
        return None if row is None or row["since"] is None else float(row["since"])

    # --- gm doctor: the clock did not go back behind what the store holds ---------------------
    NEWEST_TIMES = {"games.updated": "SELECT max(updated) AS at FROM games",
                    "outbox.created": "SELECT max(created) AS at FROM outbox",
                    "messages.received": "SELECT max(received) AS at FROM messages",
                    "daemons.last_seen": "SELECT max(last_seen) AS at FROM daemons"}

    def newest_time(self) -> tuple[float, str] | None:
        """The newest time the store holds, and the column that holds it (None: an empty store)."""
        found = [(float(row["at"]), column) for column, sql in self.NEWEST_TIMES.items()
                 if (row := self.one(sql)) is not None and row["at"] is not None]
        return max(found) if found else None

    # --- gm status --------------------------------------------------------------------------
    def outbox_counts(self) -> dict[str, int]:
        """How many outbox rows are in each status (queued, held, sent, failed)."""
        return {r["status"]: int(r["n"]) for r in self.all("SELECT status, count(*) AS n FROM outbox GROUP BY status")}

    def oldest_queued(self) -> float | None:
        """When the oldest mail still waiting to be sent (queued) was queued, or None."""
        row = self.one("SELECT min(created) AS at FROM outbox WHERE status = 'queued'")
        return None if row is None or row["at"] is None else float(row["at"])

    def errors_since(self, since: float) -> int:
        """Incoming mail whose handling failed (outcome error) received at or after ``since``."""
        row = self.one("SELECT count(*) AS n FROM messages WHERE outcome = 'error' AND received >= ?", since)
        return 0 if row is None else int(row["n"])

    def next_timers(self, limit: int) -> list[sqlite3.Row]:
        """The soonest timers (game_id, due), soonest first."""
        return self.all("SELECT game_id, due FROM timers ORDER BY due, game_id LIMIT ?", limit)

    # --- metrics (gm.runtime.metrics): what happened since the marks it last saw ----------
    def metric_marks(self) -> dict[str, int]:
        """The newest row ids of messages, orders and delivery events (0 where none)."""
        row = self.one("SELECT (SELECT max(id) FROM messages) AS messages, (SELECT max(id) FROM orders) AS orders, "
                       "(SELECT max(id) FROM delivery_events) AS events")
        return {key: int(row[key] or 0) for key in ("messages", "orders", "events")}

    def message_outcomes_after(self, row_id: int) -> list[sqlite3.Row]:
        return self.all("SELECT id, outcome FROM messages WHERE id > ? ORDER BY id", row_id)

    def orders_after(self, row_id: int) -> list[sqlite3.Row]:
        return self.all("SELECT id, accepted FROM orders WHERE id > ? ORDER BY id", row_id)

    def delivery_events_after(self, row_id: int) -> list[sqlite3.Row]:
        return self.all("SELECT id, permanent FROM delivery_events WHERE id > ? ORDER BY id", row_id)

    def sent_since(self, since: float) -> int:
        row = self.one("SELECT count(*) AS n FROM outbox WHERE status = 'sent' AND sent >= ?", since)
        return 0 if row is None else int(row["n"])

    # --- outages ----------------------------------------------------------------------------
    def add_outage(self, kind: str, start: float, finish: float | None) -> int:
        return self.insert("outages", kind=kind, start=start, finish=finish, applied=0)

    def open_outage(self, kind: str) -> sqlite3.Row | None:
        """The outage of this kind that still lasts, if any."""
        return self.one("SELECT * FROM outages WHERE kind = ? AND finish IS NULL ORDER BY id", kind)

    def open_outage_since(self) -> float | None:
        """When the earliest outage that still lasts began, or None."""
        row = self.one("SELECT min(start) AS since FROM outages WHERE finish IS NULL")
        return None if row is None or row["since"] is None else float(row["since"])

    def close_outage(self, outage_id: int, finish: float) -> None:
        self._require_tx()
        self.db.execute("UPDATE outages SET finish = ? WHERE id = ?", (finish, outage_id))

    def outages_to_apply(self) -> list[sqlite3.Row]:
        """Outages that are over and whose deadlines have not moved yet, oldest first."""
        return self.all("SELECT * FROM outages WHERE finish IS NOT NULL AND applied = 0 ORDER BY start")

    def mark_outage_applied(self, outage_id: int) -> None:
        self._require_tx()
        self.db.execute("UPDATE outages SET applied = 1 WHERE id = ?", (outage_id,))

    def outage_rows(self) -> list[sqlite3.Row]:
        return self.all("SELECT * FROM outages ORDER BY id")

    def unsent_report_recipients(self, game_id: str, turn: int) -> set[str]:
        """Addresses (lower case) a report of this turn (the welcome, for the first) is still waiting
        to reach: queued or held."""
        rows = self.all("SELECT recipient FROM outbox WHERE game_id = ? AND turn = ? AND kind IN "
                        "('report', 'welcome') AND status IN ('queued', 'held')", game_id, turn)
        return {r["recipient"].lower() for r in rows}

    def games_due_by(self, finish: float) -> list[str]:
        """Active games whose deadline (not yet past its grace) is at or before ``finish``."""
        return [r["game_id"] for r in self.all(
            "SELECT d.game_id FROM deadlines d JOIN games g ON g.id = d.game_id WHERE g.status = 'active' "
            "AND d.due IS NOT NULL AND d.due <= ? AND d.grace_done = 0 ORDER BY d.game_id", finish)]
