"""Daemon heartbeats and outages (gm.service.outgoing.outages), and the counts gm status shows.

Each statement is SQLAlchemy Core on gm.store.tables, compiled ahead into
gm/store/compiled_sql.py, so the daemon, which runs a few of them each tick, never
loads SQLAlchemy (tests/store/test_sql.py).
"""

from __future__ import annotations

import logging

from gm.store.gamerows import OrderMark, TimerRow
from gm.store.mailrows import DaemonRow, EventMark, MessageOutcome, OutageRow, ReportDeliveryRow
from gm.store.repository import Repository
from gm.store.sql import inserting, prepared, single

ADD_OUTAGE = inserting("outages", ("kind", "start", "finish", "applied"))

log = logging.getLogger(__name__)

BEAT = prepared(lambda sa, t: sa.update(t.daemons).where(t.daemons.c.daemon_id == sa.bindparam("me")).values(
    last_seen=sa.bindparam("now"), sending_down_since=sa.bindparam("down")))
FIRST_BEAT = prepared(lambda sa, t: sa.insert(t.daemons).values(
    daemon_id=sa.bindparam("me"), host=sa.bindparam("on"), pid=sa.bindparam("process"), started=sa.bindparam("at"),
    last_seen=sa.bindparam("now"), sending_down_since=sa.bindparam("down")))
DAEMON = prepared(lambda sa, t: sa.select(t.daemons).where(t.daemons.c.daemon_id == sa.bindparam("me")))
INBOX = prepared(lambda sa, t: sa.update(t.daemons).where(t.daemons.c.daemon_id == sa.bindparam("me")).values(
    inbox_handled=sa.bindparam("handled"), inbox_left=sa.bindparam("left"), backlog_since=sa.bindparam("since")))
LAST_HEARTBEAT = prepared(lambda sa, t: sa.select(sa.func.max(t.daemons.c.last_seen).label("at")))
FORGET = prepared(lambda sa, t: sa.delete(t.daemons).where(t.daemons.c.last_seen < sa.bindparam("before")))
TAKEOVER = prepared(lambda sa, t: sa.update(t.daemons).where(t.daemons.c.daemon_id == sa.bindparam("me")).values(
    took_over_from=sa.bindparam("dead"), took_over_at=sa.bindparam("now")))
DAEMONS = prepared(lambda sa, t: sa.select(t.daemons).order_by(t.daemons.c.started))
SENDING_DOWN = prepared(lambda sa, t: sa.select(sa.func.min(t.daemons.c.sending_down_since).label("since")).where(
    t.daemons.c.last_seen >= sa.bindparam("seen_after"), t.daemons.c.sending_down_since.is_not(None)))
NEWEST_TIMES = {f"{table}.{column}": prepared(lambda sa, t, table=table, column=column: sa.select(
    sa.func.max(t.metadata.tables[table].c[column]).label("at"))) for table, column in (
    ("games", "updated"), ("outbox", "created"), ("messages", "received"), ("daemons", "last_seen"))}
OUTBOX_COUNTS = prepared(lambda sa, t: sa.select(t.outbox.c.status, sa.func.count().label("n")).group_by(
    t.outbox.c.status))
OLDEST_QUEUED = prepared(lambda sa, t: sa.select(sa.func.min(t.outbox.c.created).label("at")).where(
    t.outbox.c.status == "queued"))
ERRORS_SINCE = prepared(lambda sa, t: sa.select(sa.func.count().label("n")).select_from(t.messages).where(
    t.messages.c.outcome == "error", t.messages.c.received >= sa.bindparam("since")))
NEXT_TIMERS = prepared(lambda sa, t: sa.select(t.timers.c.game_id, t.timers.c.due).order_by(
    t.timers.c.due, t.timers.c.game_id).limit(sa.bindparam("most")))
METRIC_MARKS = prepared(lambda sa, t: sa.select(*(
    sa.select(sa.func.max(table.c.id)).scalar_subquery().label(name)
    for name, table in (("messages", t.messages), ("orders", t.orders), ("events", t.delivery_events)))))
OUTCOMES_AFTER = prepared(lambda sa, t: sa.select(t.messages.c.id, t.messages.c.outcome).where(
    t.messages.c.id > sa.bindparam("after")).order_by(t.messages.c.id))
ORDERS_AFTER = prepared(lambda sa, t: sa.select(t.orders.c.id, t.orders.c.accepted).where(
    t.orders.c.id > sa.bindparam("after")).order_by(t.orders.c.id))
EVENTS_AFTER = prepared(lambda sa, t: sa.select(t.delivery_events.c.id, t.delivery_events.c.permanent).where(
    t.delivery_events.c.id > sa.bindparam("after")).order_by(t.delivery_events.c.id))
SENT_SINCE = prepared(lambda sa, t: sa.select(sa.func.count().label("n")).select_from(t.outbox).where(
    t.outbox.c.status == "sent", t.outbox.c.sent >= sa.bindparam("since")))
OPEN_OUTAGE = prepared(lambda sa, t: sa.select(t.outages).where(
    t.outages.c.kind == sa.bindparam("what"), t.outages.c.finish.is_(None)).order_by(t.outages.c.id))
OPEN_OUTAGE_SINCE = prepared(lambda sa, t: sa.select(sa.func.min(t.outages.c.start).label("since")).where(
    t.outages.c.finish.is_(None)))
CLOSE_OUTAGE = prepared(lambda sa, t: sa.update(t.outages).where(t.outages.c.id == sa.bindparam("outage")).values(
    finish=sa.bindparam("ended")))
OUTAGES_TO_APPLY = prepared(lambda sa, t: sa.select(t.outages).where(
    t.outages.c.finish.is_not(None), t.outages.c.applied == 0).order_by(t.outages.c.start))
OUTAGE_APPLIED = prepared(lambda sa, t: sa.update(t.outages).where(t.outages.c.id == sa.bindparam("outage")).values(
    applied=1))
OUTAGES = prepared(lambda sa, t: sa.select(t.outages).order_by(t.outages.c.id))
UNSENT_REPORTS = prepared(lambda sa, t: sa.select(t.outbox.c.recipient).where(
    t.outbox.c.game_id == sa.bindparam("game"), t.outbox.c.turn == sa.bindparam("number"),
    t.outbox.c.kind.in_(("report", "welcome")), t.outbox.c.status.in_(("queued", "held"))))
REPORT_DELIVERIES = prepared(lambda sa, t: sa.select(
    t.outbox.c.recipient, t.outbox.c.status, t.outbox.c.sent, t.outbox.c.attempts).where(
    t.outbox.c.game_id == sa.bindparam("game"), t.outbox.c.turn == sa.bindparam("number"),
    t.outbox.c.kind.in_(("report", "welcome")), t.outbox.c.status.in_(("queued", "held", "sent"))))
GAMES_DUE_BY = prepared(lambda sa, t: sa.select(t.deadlines.c.game_id).join(
    t.games, t.games.c.id == t.deadlines.c.game_id).where(
    t.games.c.status == "active", t.deadlines.c.due.is_not(None), t.deadlines.c.due <= sa.bindparam("by"),
    t.deadlines.c.grace_done == 0).order_by(t.deadlines.c.game_id))


class Daemons(Repository):
    """Daemons' heartbeats and outages."""

    def beat(self, daemon_id: str, host: str, pid: int, started: float, now: float,
             sending_down_since: float | None) -> None:
        """This daemon's heartbeat: it ran at ``now`` (inside a write).  An update where its row
        exists, so the inbox figures of its last poll (record_inbox) stay."""
        self._require_tx()
        if not BEAT.run(self.store, me=daemon_id, now=now, down=sending_down_since).rowcount:
            FIRST_BEAT.run(self.store, me=daemon_id, on=host, process=pid, at=started, now=now, down=sending_down_since)

    def daemon_row(self, daemon_id: str) -> DaemonRow | None:
        return DaemonRow.maybe(DAEMON.run(self.store, me=daemon_id).fetchone())

    def record_inbox(self, daemon_id: str, handled: int, left: int, backlog_since: float | None) -> None:
        """What this daemon's last poll handled and left in the inbox (inside a write)."""
        self._require_tx()
        INBOX.run(self.store, me=daemon_id, handled=handled, left=left, since=backlog_since)

    def last_heartbeat(self) -> float | None:
        """When any daemon last ran, or None where none ever did."""
        row = LAST_HEARTBEAT.run(self.store).fetchone()
        return None if row is None or row["at"] is None else float(row["at"])

    def forget_daemons(self, before: float) -> None:
        """Drop the rows of daemons not seen since ``before`` (inside a write)."""
        self._require_tx()
        FORGET.run(self.store, before=before)

    def note_takeover(self, me: str, claimed_before: set[str], now: float) -> str | None:
        """``me`` claimed unsent mail still marked as claimed by these daemons: a living sender
        unmarks what it lets go of, so each of them died holding it (killed, its host or its
        session gone).  One is recorded, at ``now``, as the daemon ``me`` took over from."""
        if not claimed_before:
            return None
        dead = sorted(claimed_before)
        with self.store.write(scoped=True):  # this daemon's own row
            TAKEOVER.run(self.store, me=me, dead=dead[-1], now=now)
        log.warning("daemon %s took over the mail daemon %s had claimed and not sent", me, ", ".join(dead))
        return dead[-1]

    def daemon_rows(self) -> list[DaemonRow]:
        return DaemonRow.every(DAEMONS.run(self.store).fetchall())

    def sending_down_since(self, seen_after: float) -> float | None:
        """The earliest time a daemon seen after ``seen_after`` says its SMTP server went down."""
        row = SENDING_DOWN.run(self.store, seen_after=seen_after).fetchone()
        return None if row is None or row["since"] is None else float(row["since"])

    def add_outage(self, kind: str, start: float, finish: float | None) -> int:
        return self.store.insert_row(ADD_OUTAGE, kind=kind, start=start, finish=finish, applied=0)

    def open_outage(self, kind: str) -> OutageRow | None:
        """The outage of this kind that still lasts, if any."""
        return OutageRow.maybe(OPEN_OUTAGE.run(self.store, what=kind).fetchone())

    def open_outage_since(self) -> float | None:
        """When the earliest outage that still lasts began, or None."""
        row = OPEN_OUTAGE_SINCE.run(self.store).fetchone()
        return None if row is None or row["since"] is None else float(row["since"])

    def close_outage(self, outage_id: int, finish: float) -> None:
        self._require_tx()
        CLOSE_OUTAGE.run(self.store, outage=outage_id, ended=finish)

    def outages_to_apply(self) -> list[OutageRow]:
        """Outages that are over and whose deadlines have not moved yet, oldest first."""
        return OutageRow.every(OUTAGES_TO_APPLY.run(self.store).fetchall())

    def mark_outage_applied(self, outage_id: int) -> None:
        self._require_tx()
        OUTAGE_APPLIED.run(self.store, outage=outage_id)

    def outage_rows(self) -> list[OutageRow]:
        return OutageRow.every(OUTAGES.run(self.store).fetchall())

    def games_due_by(self, finish: float) -> list[str]:
        """Active games whose deadline (not yet past its grace) is at or before ``finish``."""
        return [r["game_id"] for r in GAMES_DUE_BY.run(self.store, by=finish).fetchall()]


class Metrics(Repository):
    """Counts and marks for gm status and the metrics."""

    def newest_time(self) -> tuple[float, str] | None:
        """The newest time the store holds, and the column that holds it (None: an empty store)."""
        found = [(float(row["at"]), column) for column, statement in NEWEST_TIMES.items()
                 if (row := statement.run(self.store).fetchone()) is not None and row["at"] is not None]
        return max(found) if found else None

    def outbox_counts(self) -> dict[str, int]:
        """How many outbox rows are in each status (queued, held, sent, failed)."""
        return {r["status"]: int(r["n"]) for r in OUTBOX_COUNTS.run(self.store).fetchall()}

    def oldest_queued(self) -> float | None:
        """When the oldest mail still waiting to be sent (queued) was queued, or None."""
        row = OLDEST_QUEUED.run(self.store).fetchone()
        return None if row is None or row["at"] is None else float(row["at"])

    def errors_since(self, since: float) -> int:
        """Incoming mail whose handling failed (outcome error) received at or after ``since``."""
        row = ERRORS_SINCE.run(self.store, since=since).fetchone()
        return 0 if row is None else int(row["n"])

    def next_timers(self, limit: int) -> list[TimerRow]:
        """The soonest timers (game_id, due), soonest first."""
        return TimerRow.every(NEXT_TIMERS.run(self.store, most=limit).fetchall())

    def metric_marks(self) -> dict[str, int]:
        """The newest row ids of messages, orders and delivery events (0 where none)."""
        row = single(METRIC_MARKS.run(self.store))
        return {key: int(row[key] or 0) for key in ("messages", "orders", "events")}

    def message_outcomes_after(self, row_id: int) -> list[MessageOutcome]:
        return MessageOutcome.every(OUTCOMES_AFTER.run(self.store, after=row_id).fetchall())

    def orders_after(self, row_id: int) -> list[OrderMark]:
        """The id of each order after ``row_id`` and whether it was accepted, in order."""
        return OrderMark.every(ORDERS_AFTER.run(self.store, after=row_id).fetchall())

    def delivery_events_after(self, row_id: int) -> list[EventMark]:
        return EventMark.every(EVENTS_AFTER.run(self.store, after=row_id).fetchall())

    def sent_since(self, since: float) -> int:
        row = SENT_SINCE.run(self.store, since=since).fetchone()
        return 0 if row is None else int(row["n"])

    def unsent_report_recipients(self, game_id: str, turn: int) -> set[str]:
        """Addresses (lower case) a report of this turn (the welcome, for the first) is still waiting
        to reach: queued or held."""
        return {r["recipient"].lower() for r in UNSENT_REPORTS.run(self.store, game=game_id, number=turn).fetchall()}

    def report_deliveries(self, game_id: str, turn: int) -> list[ReportDeliveryRow]:
        """The reports of this turn (the welcome, for the first) not trimmed: recipient, status,
        when handed on (sent) and after how many tries (attempts)."""
        return ReportDeliveryRow.every(REPORT_DELIVERIES.run(self.store, game=game_id, number=turn).fetchall())
