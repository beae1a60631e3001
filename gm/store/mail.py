"""Mail: inbound messages, the outbox, and the archive of what was sent (reports).

Its statements are SQLAlchemy Core constructs on gm.store.tables, compiled once per back end
(gm.store.sql) and ahead (gm/store/compiled_sql.py); a deferred write (gm.store.deferred) is the
back end's SQL of one (gm.store.sql.bound), which PostgreSQL's run_deferred joins into one
statement; PostgreSQL's sent_statements are its own SQL (gm.store.postgres).
"""

from __future__ import annotations

import time
from typing import Any, Iterable

from gm.core import addresses
from gm.store import delivery as delivery_sql
from gm.store.mailrows import ArchiveMarkRow, DueMail, HoldRow, InboxLine, MessageRow, OutboxRow
from gm.store.packing import has_pictures, pack_mail, pack_text, repack_mail, unpack_mail, unpack_text
from gm.store.reportrows import ReportRow, UntrimmedMail, report_row
from gm.store.repository import Repository
from gm.store.sql import Row, bound, constant, inserting, inserting_unless, prepared, single, updating


def seen(sa: Any, t: Any) -> Any:
    """SEEN: the message with the source key ``key``, or one with the Message-ID ``mid``, not a duplicate."""
    m = t.messages.c
    return sa.or_(m.source_key == sa.bindparam("key"), sa.and_(m.message_id == sa.bindparam("mid"),
                                                                 m.outcome != "duplicate"))


MESSAGE_COLUMNS = ("source_key", "message_id", "sender", "subject", "raw", "received", "game_id", "outcome",
                   "detail", "auth")
ADD_MESSAGE = inserting("messages", MESSAGE_COLUMNS)
NEW_MESSAGE = inserting_unless("messages", MESSAGE_COLUMNS, seen)  # unless SEEN: add_new_message
MESSAGE_OUTCOME = updating("messages", where=("id",), set=("outcome", "detail", "game_id"))
MESSAGE_AUTH = updating("messages", where=("id",), set=("auth",))
# queue_outbox's columns (PostgreSQL: with an id drawn ahead, deferred: gm.store.postgres.add_outbox_row)
OUTBOX_COLUMNS = ("message_id", "game_id", "turn", "kind", "recipient", "subject", "raw", "status", "next_attempt",
                  "created", "trimmed", "secret")
ADD_OUTBOX = inserting("outbox", OUTBOX_COLUMNS)
OUTBOX_DRAWN = inserting("outbox", ("id", *OUTBOX_COLUMNS), returning=False)
MARK_SENT = updating("outbox", where=("id",), set=("status", "sent", "attempts", "last_error"))
SENT_KEEPING = updating("outbox", where=("id",), set=("status", "sent", "attempts", "last_error", "raw"))
KEEP_FINISHED = updating("outbox", where=("id", "status"), set=("raw",))
MARK_FAILED = updating("outbox", where=("id",), set=("status", "attempts", "last_error"))
NOTE_ATTEMPT = {retry_at: updating("outbox", where=("id",), set=("attempts", "last_error", *(
    ("next_attempt",) if retry_at else ()))) for retry_at in (False, True)}
# report_values' columns, gm_version and digest only where given (``rendered``)
REPORT_COLUMNS = {rendered: ("game_id", "turn", "seq", "player", "kind", "body", "body_packing", "outbox_id", "created",
                             "audience", *(("gm_version", "digest") if rendered else ())) for rendered in (False, True)}
ADD_REPORT = {rendered: inserting("reports", columns) for rendered, columns in REPORT_COLUMNS.items()}
ARCHIVED_REPORT = {rendered: inserting("reports", columns, returning=False)  # archive_report's, deferred
                   for rendered, columns in REPORT_COLUMNS.items()}
MESSAGE_BY_KEY = prepared(lambda sa, t: sa.select(t.messages).where(t.messages.c.source_key == sa.bindparam("key")))
# the source key's row first, else the first by this Message-ID
MESSAGE_SEEN = prepared(lambda sa, t: sa.select(t.messages).where(seen(sa, t)).order_by(
    sa.case((t.messages.c.source_key == sa.bindparam("key"), sa.literal_column("0")), else_=sa.literal_column("1")),
    t.messages.c.id).limit(1))
STORED_KEYS = prepared(lambda sa, t: sa.select(t.messages.c.source_key).where(
    t.messages.c.source_key.in_(sa.bindparam("keys", expanding=True))), lists=("keys",))
MESSAGE = prepared(lambda sa, t: sa.select(t.messages).where(t.messages.c.id == sa.bindparam("row")))
HELD_MESSAGES = prepared(lambda sa, t: sa.select(t.messages).where(
    t.messages.c.outcome == "held", t.messages.c.game_id == sa.bindparam("game")).order_by(t.messages.c.id))


def inbox(sa: Any, t: Any, only_failed: bool) -> Any:
    m = t.messages.c
    query = sa.select(m.id, m.sender, m.subject, m.received, m.outcome, m.detail, m.game_id)
    return (query.where(m.outcome == "error") if only_failed else query).order_by(m.id.desc()).limit(
        sa.bindparam("most"))


INBOX = {only_failed: prepared(lambda sa, t, only_failed=only_failed: inbox(sa, t, only_failed))
         for only_failed in (False, True)}


def sent_untrimmed(sa: Any, t: Any) -> Any:
    """Sent mail not yet trimmed, by the partial index outbox_untrimmed."""
    o = t.outbox.c
    return sa.select(o.id, o.raw, sa.exists().where(t.reports.c.outbox_id == o.id).label("archived")).where(
        o.trimmed == constant(sa, 0), o.status == constant(sa, "sent"),
        o.sent < sa.bindparam("before")).order_by(o.sent).limit(sa.bindparam("most"))


def sent_untrimmed_sqlite(sa: Any, t: Any) -> Any:
    """sent_untrimmed, its index named: without ANALYZE's figures SQLite's planner takes
    outbox_queue by status, reading every sent mail's row past its bytes (the tick, every pass);
    SQLAlchemy writes no INDEXED BY for SQLite."""
    return sa.text(
        "SELECT outbox.id, outbox.raw, EXISTS (SELECT * FROM reports WHERE reports.outbox_id = outbox.id) AS archived "
        "FROM outbox INDEXED BY outbox_untrimmed WHERE outbox.trimmed = 0 AND outbox.status = 'sent' "
        "AND outbox.sent < :before ORDER BY outbox.sent LIMIT :most")


SENT_UNTRIMMED = prepared(sent_untrimmed_sqlite, postgresql=sent_untrimmed)
KEEP_TRIMMED = prepared(lambda sa, t: sa.update(t.outbox).where(
    t.outbox.c.id == sa.bindparam("row"), t.outbox.c.status == "sent", t.outbox.c.trimmed == 0).values(
    raw=sa.bindparam("packed"), trimmed=1))


def due(sa: Any, t: Any, skipping: bool) -> Any:
    """The queued rows due by ``now``, oldest first (but those in ``skip``, where ``skipping``)."""
    o = t.outbox.c
    query = sa.select(o.id, o.recipient, o.raw, o.attempts, o.secret).where(
        o.status == "queued", o.next_attempt <= sa.bindparam("now"))
    if skipping:
        query = query.where(o.id.not_in(sa.bindparam("skip", expanding=True)))
    return query.order_by(o.id).limit(sa.bindparam("most"))


DUE = {skipping: prepared(lambda sa, t, skipping=skipping: due(sa, t, skipping), lists=("skip",) if skipping else ())
       for skipping in (False, True)}
BLANK_SECRET = prepared(lambda sa, t: sa.update(t.outbox).where(
    t.outbox.c.id == sa.bindparam("row"), t.outbox.c.secret == 1).values(
    raw=sa.bindparam("packed"), subject=sa.bindparam("title"), trimmed=1))
KEEP_SENT_COPY = prepared(lambda sa, t: sa.update(t.outbox).where(
    t.outbox.c.id == sa.bindparam("row"), t.outbox.c.status == "sent").values(raw=sa.bindparam("packed")))
OUTBOX_ALL = prepared(lambda sa, t: sa.select(t.outbox).order_by(t.outbox.c.id))
OUTBOX_RECENT = prepared(lambda sa, t: sa.select(t.outbox).where(sa.or_(
    t.outbox.c.status != "sent", t.outbox.c.sent >= sa.bindparam("since"))).order_by(t.outbox.c.id))
SENT_COUNT = prepared(lambda sa, t: sa.select(sa.func.count().label("n")).select_from(t.outbox).where(
    t.outbox.c.game_id == sa.bindparam("game"), t.outbox.c.status == "sent"))
ERROR_REPLIES = prepared(lambda sa, t: sa.select(sa.func.count().label("n")).select_from(t.outbox).where(
    t.outbox.c.kind == "error", t.outbox.c.recipient == sa.bindparam("to"),
    t.outbox.c.created >= sa.bindparam("since")))


REPLIES = prepared(lambda sa, t: sa.select(sa.func.count().label("n")).select_from(t.outbox).where(
    t.outbox.c.kind.in_(sa.bindparam("kinds", expanding=True)), t.outbox.c.created >= sa.bindparam("since")),
    lists=("kinds",))
# The recipients LIKE ``pattern`` (gm.core.addresses.key_patterns), keyed by the caller.
REPLY_RECIPIENTS = prepared(lambda sa, t: sa.select(t.outbox.c.recipient).where(
    t.outbox.c.kind.in_(sa.bindparam("kinds", expanding=True)), t.outbox.c.created >= sa.bindparam("since"),
    sa.func.lower(t.outbox.c.recipient).like(sa.bindparam("pattern"))), lists=("kinds",))


def reports_rows(sa: Any, t: Any) -> Any:
    """Every column of reports, as the store has them (``*``): the archive is read by the gm of
    today in tests of a store an older gm left (tests/service/play/test_empty_turns.py: at step 14, before
    gm_version, digest and body_packing), as it was before this SQL was Core."""
    return sa.select(sa.literal_column("*")).select_from(t.reports)


def reports_where(sa: Any, t: Any, *conditions: Any) -> Any:
    """Reports rows of the game ``game`` meeting these conditions, in the order sent."""
    return reports_rows(sa, t).where(t.reports.c.game_id == sa.bindparam("game"), *conditions).order_by(
        t.reports.c.id)


REPORTS_OF = {(by_turn, by_kind): prepared(lambda sa, t, by_turn=by_turn, by_kind=by_kind: reports_where(
    sa, t, *([t.reports.c.turn == sa.bindparam("turn")] if by_turn else []),
    *([t.reports.c.kind == sa.bindparam("kind")] if by_kind else [])))
    for by_turn in (False, True) for by_kind in (False, True)}
TURN_REPORTS = prepared(lambda sa, t: reports_rows(sa, t).where(
    t.reports.c.game_id == sa.bindparam("game"), t.reports.c.kind == "report").order_by(
    t.reports.c.seq, t.reports.c.id))
GM_PRESS = prepared(lambda sa, t: reports_where(sa, t, t.reports.c.kind == "press", t.reports.c.player.is_(None)))
PUBLIC_PRESS = prepared(lambda sa, t: reports_where(
    sa, t, t.reports.c.kind == "press", t.reports.c.player.is_(None), t.reports.c.audience == "all",
    t.reports.c.turn >= sa.bindparam("first")))
PLAYER_REPORTS = prepared(lambda sa, t: reports_rows(sa, t).where(
    t.reports.c.game_id == sa.bindparam("game"), t.reports.c.player == sa.bindparam("player"),
    t.reports.c.kind.in_(("report", "press"))).order_by(t.reports.c.turn, t.reports.c.id))


def archive_marks(sa: Any, t: Any) -> Any:
    g, s, r, p = t.games, t.states.alias("s"), t.reports.alias("r"), t.players.alias("p")
    return sa.select(
        g.c.id, g.c.status,
        sa.select(sa.func.max(s.c.seq)).where(s.c.game_id == g.c.id).scalar_subquery().label("last_seq"),
        sa.select(sa.func.max(r.c.id)).where(r.c.game_id == g.c.id, r.c.kind.in_(("report", "press", "notice")))
        .scalar_subquery().label("last_report"),
        sa.select(sa.func.count()).select_from(p).where(p.c.game_id == g.c.id).scalar_subquery().label("seats_taken"),
    ).order_by(g.c.created, g.c.id)


ARCHIVE_MARKS = prepared(archive_marks)


class Inbox(Repository):
    """Messages received and what became of each."""

    def message_seen(self, source_key: str, message_id: str | None) -> MessageRow | None:
        """The stored message with this source key, else with this Message-ID (not a duplicate)."""
        if not message_id:
            return MessageRow.maybe(MESSAGE_BY_KEY.run(self.store, key=source_key).fetchone())
        # one statement for both
        return MessageRow.maybe(MESSAGE_SEEN.run(self.store, key=source_key, mid=message_id).fetchone())

    def add_new_message(self, source_key: str, message_id: str | None, sender: str | None,
                        subject: str | None, raw: bytes, received: float, outcome: str, detail: str = "",
                        read_game: tuple[str, str] | None = None) -> int | None:
        """add_message, unless message_seen would find one (then None, and nothing is stored): one
        statement for the look-up and the insert, the common case of a mail never seen.
        ``read_game``: (game, sender), Store.read_game's, done too (on PostgreSQL in the same statement)."""
        values = dict(source_key=source_key, message_id=message_id, sender=sender, subject=subject, raw=raw,
                      received=received, game_id=None, outcome=outcome, detail=detail, auth=None)
        return self.store.insert_unless(NEW_MESSAGE, {**values, "key": source_key, "mid": message_id or None},
                                        read_game)

    def stored_source_keys(self, keys: list[str]) -> set[str]:
        """Which of these source keys a stored message has (judged, by this daemon or another)."""
        if not keys:
            return set()
        return {r["source_key"] for r in STORED_KEYS.run(self.store, keys=keys).fetchall()}

    def add_message(self, source_key: str, message_id: str | None, sender: str | None,
                    subject: str | None, raw: bytes, received: float, outcome: str,
                    detail: str = "", game_id: str | None = None, auth: str | None = None) -> int:
        """Store an inbound message; returns its row id.  ``raw``: the copy to keep (its secrets
        masked, gm.mail.redact); ``auth``: a mail set aside, the seat it authenticated as."""
        return self.store.insert_row(ADD_MESSAGE, source_key=source_key, message_id=message_id,
                                     sender=sender, subject=subject, raw=raw, received=received,
                                     game_id=game_id, outcome=outcome, detail=detail, auth=auth)

    def set_message_outcome(self, row_id: int, outcome: str, detail: str,
                            game_id: str | None) -> None:
        """Record what became of an inbound message (at the transaction's end: gm.store.deferred)."""
        self.store.defer("messages", "outcome", lambda rows: [  # a row's last outcome only: one statement may not
            bound(MESSAGE_OUTCOME, self.store.kind, dict(outcome=o, detail=d, game_id=g, id=i))  # change it twice
            for o, d, g, i in {r[3]: r for r in rows}.values()], (outcome, detail, game_id, row_id))

    def message(self, row_id: int) -> MessageRow | None:
        """One stored inbound message by its row id."""
        return MessageRow.maybe(MESSAGE.run(self.store, row=row_id).fetchone())

    def hold_message(self, row_id: int, auth: str) -> None:
        """Keep with a mail held during a lock-out whom it authenticated as (its outcome 'held'
        is recorded as any outcome is: set_message_outcome)."""
        self.store.update_rows(MESSAGE_AUTH, id=row_id, auth=auth)

    def held_messages(self, game_id: str) -> list[MessageRow]:
        """The mails of a game held during a lock-out and not judged yet, oldest first."""
        return MessageRow.every(HELD_MESSAGES.run(self.store, game=game_id).fetchall())

    def inbox_listing(self, only_failed: bool = False, limit: int = 50) -> list[InboxLine]:
        """Received mail, newest first, for ``gm inbox``; ``only_failed``: the ones set aside."""
        return InboxLine.every(INBOX[bool(only_failed)].run(self.store, most=limit).fetchall())


class Outbox(Repository):
    """Mail queued, claimed and sent, and the delivery holds on it."""

    def queue_outbox(self, message_id: str, recipient: str, subject: str, raw: bytes, *,
                     kind: str, now: float, game_id: str | None = None,
                     turn: int | None = None, not_before: float | None = None,
                     status: str = "queued", secret: bool = False) -> int:
        """Queue a composed mail for sending now (or from ``not_before``); returns its outbox id.

        ``status`` 'held': kept, not sent, while its address bounces (gm.service.outgoing.holding).
        ``secret``: it carries a password or a code (outbox.secret)."""
        return self.add_outbox_row(dict(zip(OUTBOX_COLUMNS, (  # in OUTBOX_COLUMNS' order, as OUTBOX_DRAWN's
            message_id, game_id, turn, kind, recipient, subject, pack_mail(raw), status, max(now, not_before or now),
            now, 0 if has_pictures(raw) else 1, int(secret)))))

    def add_outbox_row(self, values: dict[str, Any]) -> int:
        """Insert an outbox row; its id.  (PostgreSQL: with an id drawn ahead, at the commit.)"""
        return self.store.insert_row(ADD_OUTBOX, **values)

    def sent_untrimmed(self, before: float, limit: int) -> list[UntrimmedMail]:
        """The mail sent before ``before`` that may still hold pictures, oldest first;
        ``archived``: its words are kept in ``reports`` too (the rows naming its id)."""
        rows = SENT_UNTRIMMED.run(self.store, before=before, most=limit).fetchall()
        return [UntrimmedMail(row["id"], unpack_mail(row["raw"]), bool(row["archived"])) for row in rows]

    def keep_trimmed(self, outbox_id: int, raw: bytes) -> None:
        """Keep ``raw`` as the stored copy of a sent mail, with nothing more to leave out."""
        self._require_tx()
        KEEP_TRIMMED.run(self.store, packed=pack_mail(raw), row=outbox_id)

    def outbox_due(self, now: float, limit: int, skip: Iterable[int] = ()) -> list[DueMail]:
        """The queued mail due by ``now``, oldest first, but the rows ``skip`` names."""
        skip = sorted(skip)
        if skip:
            rows = DUE[True].run(self.store, now=now, skip=skip, most=limit).fetchall()
        else:
            rows = DUE[False].run(self.store, now=now, most=limit).fetchall()
        return [DueMail(row["id"], row["recipient"], unpack_mail(row["raw"]), row["raw"], row["attempts"],
                        row["secret"]) for row in rows]

    def claim_outbox(self, now: float, limit: int) -> list[DueMail]:
        """The mail due by ``now`` (as outbox_due) that this sender, and no other, may send now.

        Give every claimed row back with release_outbox() once it is marked (or not
        tried).  SQLite: one host, one sender, so every due row this connection has not
        claimed already (a sender claims more while it sends: gm.runtime.delivery.flush); a
        store shared by several daemons (gm.store.postgres) holds each row for the claiming session.
        """
        rows = self.outbox_due(now, limit, self.store.claimed)
        self.store.claimed |= {row.id for row in rows}
        return rows

    def release_outbox(self, rows: list[Any]) -> None:
        """Claimed rows are done with (marked sent or failed, or not tried): others may take them.
        ``rows``: the claimed records, or anything giving their ids as ``row["id"]``."""
        self.store.claimed -= {row["id"] for row in rows}

    def mark_sent(self, outbox_id: int, at: float, attempts: int) -> None:
        """A mail went out at ``at`` (``attempts``: the count including this one)."""
        self.store.update_rows(MARK_SENT, id=outbox_id, status="sent", sent=at, attempts=attempts, last_error=None)

    def mark_sent_keeping(self, outbox_id: int, at: float, attempts: int, raw: bytes,
                          due: DueMail | None = None) -> None:
        """mark_sent and keep_sent_copy in one statement, with the other rows marked so in this
        transaction (deferred: gm.store.deferred); ``due``: the row as outbox_due gave it, when
        ``raw`` differs from it in the header alone (its packed body is reused: repack_mail)."""
        packed = pack_mail(raw) if due is None else repack_mail(due.packed, due.raw, raw)
        self.store.defer("outbox", "sent", self.sent_statements, (outbox_id, at, attempts, packed))

    def sent_statements(self, rows: list[tuple[Any, ...]]) -> list[tuple[str, dict[str, Any]]]:
        """The statements marking (id, sent, attempts, packed raw) outbox rows sent (mark_sent_keeping)."""
        return [bound(SENT_KEEPING, self.store.kind, dict(id=oid, status="sent", sent=at, attempts=attempts,
                                                          last_error=None, raw=raw))
                for oid, at, attempts, raw in rows]

    def blank_secret(self, outbox_id: int, raw: bytes, subject: str) -> None:
        """Keep ``raw`` (its body blanked, gm.mail.redact.blank) as the copy of a sent mail that
        carried a secret; only a row marked secret is ever blanked."""
        self._require_tx()
        BLANK_SECRET.run(self.store, packed=pack_mail(raw), title=subject, row=outbox_id)

    def keep_finished(self, outbox_id: int, raw: bytes) -> bytes:
        """Keep ``raw`` as a queued mail, finished by its sender (gm.service.outgoing.later); the
        bytes stored."""
        self._require_tx()
        packed = pack_mail(raw)
        self.store.update_rows(KEEP_FINISHED, id=outbox_id, status="queued", raw=packed)
        return packed

    def keep_sent_copy(self, outbox_id: int, raw: bytes) -> None:
        """Keep ``raw`` (its reply token masked) as the copy of a mail just sent."""
        self._require_tx()
        KEEP_SENT_COPY.run(self.store, packed=pack_mail(raw), row=outbox_id)

    def mark_failed(self, outbox_id: int, attempts: int, error: str) -> None:
        """The server refused a mail for good: it is not tried again."""
        self.store.update_rows(MARK_FAILED, id=outbox_id, status="failed", attempts=attempts, last_error=error)

    def note_attempt(self, outbox_id: int, attempts: int, error: str,
                     next_attempt: float | None = None) -> None:
        """A mail was not sent this time; it stays queued (retried at ``next_attempt`` if given)."""
        values = {"attempts": attempts, "last_error": error}
        if next_attempt is not None:
            values["next_attempt"] = next_attempt
        self.store.update_rows(NOTE_ATTEMPT[next_attempt is not None], id=outbox_id, **values)

    def outbox_listing(self, include_delivered: bool = False) -> list[OutboxRow]:
        """The outbox for ``gm outbox``: unsent mail and mail sent in the last day (or all)."""
        if include_delivered:
            return OutboxRow.every(OUTBOX_ALL.run(self.store).fetchall())
        return OutboxRow.every(OUTBOX_RECENT.run(self.store, since=time.time() - 86400).fetchall())

    def sent_count(self, game_id: str) -> int:
        """How many mails of a game have been sent."""
        return int(single(SENT_COUNT.run(self.store, game=game_id))["n"])

    def error_replies_since(self, address: str, since: float) -> int:
        """How many error replies were queued to ``address`` since ``since`` (rate limit)."""
        return int(single(ERROR_REPLIES.run(self.store, to=address, since=since))["n"])

    def replies_since(self, kinds: tuple[str, ...], since: float, address: str | None = None) -> int:
        """How many mails of these kinds were queued since ``since`` (to ``address``'s mailbox, if
        given: every spelling of it counts, gm.core.addresses.mailbox_key).  The recipients are
        compared here, not in SQL: the rows of an hour of capped kinds are few (the caps bound
        them), and the one rule stays in one function, changed without rewriting stored rows."""
        if address is None:
            return int(single(REPLIES.run(self.store, kinds=kinds, since=since))["n"])
        key = addresses.mailbox_key(address)
        return sum(addresses.mailbox_key(row["recipient"]) == key for pattern in addresses.key_patterns(key)
                   for row in REPLY_RECIPIENTS.run(self.store, kinds=kinds, since=since, pattern=pattern))

    def hold(self, scope: str) -> HoldRow | None:
        return HoldRow.maybe(delivery_sql.HOLD.run(self.store, scope=scope).fetchone())

    def holds(self) -> list[HoldRow]:
        return HoldRow.every(delivery_sql.HOLDS.run(self.store).fetchall())

    def add_hold(self, scope: str, since: float, reason: str, words: str, refusal: str,
                 next_probe: float) -> bool:
        """Start holding ``scope``; False (nothing changed) if it is held already."""
        if self.hold(scope) is not None:
            return False
        most = delivery_sql.MAX_WORDS
        self.store.insert_row(delivery_sql.ADD_HOLD, scope=scope, since=since, reason=reason[:most], words=words[:most],
                              refusal=refusal, next_probe=next_probe)
        return True

    def probe_refused(self, scope: str, probes: int, next_probe: float, words: str) -> None:
        self.store.update_rows(delivery_sql.HOLD_PROBED, scope=scope, probes=probes, next_probe=next_probe,
                               words=words[:delivery_sql.MAX_WORDS])

    def hold_told(self, scope: str) -> None:
        self.store.update_rows(delivery_sql.HOLD_TOLD, scope=scope, told=1)

    def end_hold(self, scope: str) -> bool:
        return delivery_sql.END_HOLD.run(self.store, scope=scope).rowcount > 0

    def hold_queued(self, address: str) -> int:
        """Hold every queued message to ``address`` (any case; it bounces); returns how many."""
        # By status first (the outbox_queue index): few rows are queued or held at any time.
        return delivery_sql.HOLD_QUEUED.run(self.store, address=address.lower()).rowcount

    def release_held(self, address: str, now: float) -> int:
        """Queue again every held message to ``address`` (any case), due now; returns how many."""
        return delivery_sql.RELEASE_HELD.run(self.store, now=now, address=address.lower()).rowcount

    def release_scope(self, scope: str, now: float) -> int:
        """Make the queued mail a hold kept waiting due now (scope 'sender': all of it)."""
        if scope == "sender":
            return delivery_sql.HURRY[False].run(self.store, now=now).rowcount
        pattern = "%@" + scope.partition(":")[2].lower()
        return delivery_sql.HURRY[True].run(self.store, now=now, pattern=pattern).rowcount

    def listen_queued(self) -> bool:
        """Be told, on this connection, of mail queued in the outbox by any process sharing the
        store (wait_queued); False where the back end cannot tell (SQLite: one daemon, whose own
        judge nudges its sender)."""
        return False

    def wait_queued(self, timeout: float) -> bool:
        """After listen_queued: wait up to ``timeout`` seconds for mail queued; whether some was."""
        raise NotImplementedError


class Reports(Repository):
    """Reports: what each turn told each player, and the press."""

    @staticmethod
    def report_body(row: Row) -> str:
        """The text of a reports row as sent (its body, by the packing recorded beside it)."""
        return unpack_text(row["body"], row["body_packing"])

    def _unpacked(self, rows: list[Row]) -> list[ReportRow]:
        """Reports rows as records whose body is the text as sent (stored compressed when long)."""
        return [report_row(row, self.report_body(row)) for row in rows]

    def add_report(self, game_id: str, turn: int, seq: int, player: str | None, kind: str,
                   body: str, outbox_id: int | None, created: float, audience: str | None = None,
                   gm_version: str | None = None, digest: str | None = None) -> int:
        """Archive a text sent to ``player`` (None: the GM's copy); returns its id.  ``audience``:
        who a press message went to (gm.service.play.press: all, players or gm); ``gm_version``
        and ``digest``: the version that rendered a report and what it shows (gm.core.digest)."""
        values = report_values(game_id, turn, seq, player, kind, body, outbox_id, created, audience, gm_version, digest)
        return self.store.insert_row(ADD_REPORT["digest" in values], **values)

    def archive_report(self, game_id: str, turn: int, seq: int, player: str | None, kind: str,
                       body: str, outbox_id: int | None, created: float, audience: str | None = None,
                       gm_version: str | None = None, digest: str | None = None) -> None:
        """add_report, its id not wanted: written with the transaction's other reports, in one
        statement at its end (gm.store.deferred)."""
        values = report_values(game_id, turn, seq, player, kind, body, outbox_id, created, audience, gm_version, digest)
        self.store.defer_insert("reports", values)

    def reports_of(self, game_id: str, turn: int | None = None,
                   kind: str | None = None) -> list[ReportRow]:
        """A game's archived texts in the order sent, of one turn and/or kind if given."""
        given = {name: value for name, value in (("turn", turn), ("kind", kind)) if value is not None}
        statement = REPORTS_OF[turn is not None, kind is not None]
        return self._unpacked(statement.run(self.store, game=game_id, **given).fetchall())

    def turn_reports(self, game_id: str) -> list[ReportRow]:
        """A game's turn reports (kind 'report') by state seq, then as sent (the site)."""
        return self._unpacked(TURN_REPORTS.run(self.store, game=game_id).fetchall())

    def gm_press(self, game_id: str) -> list[ReportRow]:
        """The GM's copies of a game's press, in the order sent."""
        return self._unpacked(GM_PRESS.run(self.store, game=game_id).fetchall())

    def archive_marks(self) -> list[ArchiveMarkRow]:
        """Every game (oldest first) with what its archive page and index line show changed by:
        status, newest state seq, newest report, press or notice archived, seats taken (an
        open game's seats fill with no state or report).  The live archive renders again only
        the games whose marks differ from those it rendered."""
        return ArchiveMarkRow.every(ARCHIVE_MARKS.run(self.store).fetchall())

    def public_press(self, game_id: str, first_turn: int = 0) -> list[ReportRow]:
        """The archive's copies of a game's press to everyone (audience 'all') from turn
        ``first_turn`` on, in the order sent: what public views show."""
        known, since = self.store.already_read("reports", ("public_press", game_id))  # (turn, rows): Store.read_game's
        if known and since[0] <= first_turn:
            return self._unpacked([row for row in since[1] if row["turn"] >= first_turn])
        return self._unpacked(PUBLIC_PRESS.run(self.store, game=game_id, first=first_turn).fetchall())

    def player_reports(self, game_id: str, player: str) -> list[ReportRow]:
        """The reports and press a player was sent, by turn (a player's history)."""
        return self._unpacked(PLAYER_REPORTS.run(self.store, game=game_id, player=player).fetchall())


def report_values(game_id: str, turn: int, seq: int, player: str | None, kind: str, body: str,
                  outbox_id: int | None, created: float, audience: str | None, gm_version: str | None,
                  digest: str | None) -> dict[str, Any]:
    """A reports row's columns, its body packed (gm.store.packing)."""
    # named only when given, so the words of an earlier gm (tests) still fit its schema
    rendered = {"gm_version": gm_version, "digest": digest} if gm_version or digest else {}
    packed, packing = pack_text(body)
    return dict(game_id=game_id, turn=turn, seq=seq, player=player, kind=kind, body=packed, body_packing=packing,
                outbox_id=outbox_id, created=created, audience=audience, **rendered)
