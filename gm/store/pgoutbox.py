"""The outbox of a PostgreSQL store, shared by several senders (PostgreSQL's own SQL).

A sender claims the rows it sends with a session-level advisory lock each
(pg_try_advisory_lock: another daemon skips them), taken while the claim
row-locks them (FOR NO KEY UPDATE SKIP LOCKED), and gives them back once they
are marked (in the "sent" UPDATE's own statement, gm.store.postgres.run_deferred).
A daemon that dies loses its session and so its claims at once; another sends
those rows again with the same Message-ID.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from gm.store import gameload
from gm.store.errors import StoreError
from gm.store.mail import Outbox
from gm.store.mailrows import DueMail, HoldRow
from gm.store.packing import unpack_mail
from gm.store.sql import single

if TYPE_CHECKING:
    from gm.store.daemons import Daemons
    from gm.store.repository import Stored

    class PgStored(Stored, Protocol):
        """A PostgreSQL store, as its outbox uses it (gm.store.postgres, which imports this)."""

        outbox_ids: list[int]  # ids drawn ahead for this transaction's outbox rows
        daemons: Daemons

SENT = "UPDATE outbox SET status = 'sent'"  # sent_statements' UPDATE begins so
OUTBOX_LOCKS = "SELECT hashtext(current_schema() || ':outbox')"  # the first key of an outbox row's lock
# What an INSERT into outbox notifies, at its commit (gm.runtime.queuedwatch): a channel of this
# schema's own (a name within PostgreSQL's 63 bytes, whatever the schema's)
QUEUED_CHANNEL = "SELECT 'gm_outbox_' || md5(current_schema())"
CLAIM_PAST = 500  # rows held by other senders a claim looks past (claim_outbox)


class PgOutbox(Outbox):
    """The outbox's claims, its "sent" UPDATE and its notifications, in PostgreSQL's own SQL."""

    __slots__ = ("holds_with_claim",)
    store: PgStored

    def __init__(self, store: Any) -> None:
        super().__init__(store)
        # (statements run then, the holds read by the claim)
        self.holds_with_claim: tuple[int, list[HoldRow]] | None = None

    def claim_outbox(self, now: float, limit: int) -> list[DueMail]:
        """The due rows this session could lock and that are still queued once locked (as outbox_due).

        One statement: the due rows, each row-locked for the statement (FOR NO KEY UPDATE SKIP
        LOCKED: a row another sender is marking sent, its UPDATE not yet committed, is skipped; one
        marked sent and committed since the statement began is seen so, and left out), then its
        outbox lock tried (the LIMIT keeps it from being tried on rows past it).  A sender lets go
        of its outbox lock once its "sent" UPDATE has run (sent_statements), before that commits:
        the row lock the UPDATE holds until then keeps another claim off the row.  The same
        statement reads the holds, for the holds() that follows (gm.runtime.refusals.gate).

        The outer LIMIT stops the scan (and the locking) once ``limit`` rows are claimed; the inner
        one lets it pass up to CLAIM_PAST rows other senders hold, which would otherwise fill a
        small claim and leave this sender nothing (gm.runtime.delivery.PER_LANE)."""
        due = ("SELECT id, recipient, raw, attempts, secret, claimed_by FROM (SELECT id, recipient, raw, attempts, "
               "secret, claimed_by FROM outbox WHERE status = 'queued' AND next_attempt <= %s "
               "AND NOT id = ANY(%s::bigint[]) ORDER BY id LIMIT %s "
               f"FOR NO KEY UPDATE SKIP LOCKED) AS due WHERE pg_try_advisory_lock(({OUTBOX_LOCKS}), id::int) LIMIT %s")
        holds = 'SELECT row_number() OVER (ORDER BY since, scope) AS "#holds", * FROM holds'
        # rows this session holds already (a sender claims more while it sends): its advisory locks
        # would be taken again, not refused
        held = sorted(self.store.claimed)
        if self.store.claimant is None:
            sql = (f'SELECT * FROM (SELECT id AS "#claim", * FROM ({due}) AS d) AS claim '
                   f"FULL JOIN ({holds}) AS h ON false")
            args: tuple[Any, ...] = (now, held, limit + CLAIM_PAST, limit)
        else:  # noting this daemon as the rows' claimant (and who claimed them before)
            sql = (f"WITH d AS ({due}), c AS (UPDATE outbox o SET claimed_by = %s FROM d WHERE o.id = d.id "
                   "RETURNING o.id, o.recipient, o.raw, o.attempts, o.secret, d.claimed_by) "
                   f'SELECT * FROM (SELECT id AS "#claim", * FROM c) AS claim FULL JOIN ({holds}) AS h ON false')
            args = (now, held, limit + CLAIM_PAST, limit, self.store.claimant)
        cursor = self.store.db.raw(sql, args)
        sets = gameload.split([c.name for c in cursor.description], cursor.fetchall(), ("claim", "holds"))
        self.holds_with_claim = (self.store.db.count, HoldRow.every(sets["holds"]))
        rows = sets["claim"]
        self.store.claimed |= {r["id"] for r in rows}
        claimant = self.store.claimant
        if claimant is not None:
            self.store.daemons.note_takeover(claimant, {r["claimed_by"] for r in rows} - {None, claimant}, now)
        # as outbox_due: ``packed``, raw as stored, lets the sent copy reuse its packed body
        return [DueMail(r["id"], r["recipient"], unpack_mail(r["raw"]), bytes(r["raw"]), r["attempts"], r["secret"])
                for r in rows]

    def holds(self) -> list[HoldRow]:
        """As the claim read them, when nothing ran on this connection since: the holds the claimed
        rows are checked against (gm.runtime.refusals.gate) cost no statement of their own."""
        seen, self.holds_with_claim = self.holds_with_claim, None
        if seen is not None and seen[0] == self.store.db.count and not self.store.depth:
            return seen[1]
        return super().holds()

    def release_outbox(self, rows: list[Any]) -> None:
        ids = [r["id"] for r in rows if r["id"] in self.store.claimed]
        self.store.claimed -= set(ids)
        if not ids or self.store.db.conn.broken:  # let go of already (marked sent), or a dead session's
            return
        # Let go of by a living sender, an unsent row is claimed by nobody: a claimant found on it
        # later died holding it (note_takeover).
        forget = ("WITH unclaimed AS (UPDATE outbox SET claimed_by = NULL WHERE id = ANY(%s) "
                  "AND status <> 'sent' AND claimed_by = %s) " if self.store.claimant else "")
        args = (ids, self.store.claimant, ids) if self.store.claimant else (ids,)
        self.store.db.raw(f"{forget}SELECT pg_advisory_unlock(({OUTBOX_LOCKS}), id::int) "
                          "FROM unnest(%s::bigint[]) AS id", args)

    def sent_statements(self, rows: list[tuple[Any, ...]]) -> list[tuple[str, dict[str, Any]]]:
        """One UPDATE from a list of values, whatever the number of rows (each row once: its last)."""
        rows = list({row[0]: row for row in rows}.values())
        ids, sent, attempts, raw = map(list, zip(*rows))
        return [(SENT + ", sent = v.sent, attempts = v.attempts, last_error = NULL, raw = v.raw FROM "
                 "unnest(%(ids)s::bigint[], %(sent)s::double precision[], %(attempts)s::bigint[], %(raw)s::bytea[]) "
                 "AS v(id, sent, attempts, raw) WHERE outbox.id = v.id",
                 {"ids": ids, "sent": sent, "attempts": attempts, "raw": raw})]


    def add_outbox_row(self, values: dict[str, Any]) -> int:
        """With an id drawn ahead, the row waits for the commit (gm.store.deferred), in the same
        statement as the reports naming it; else inserted now, for the id it is given."""
        if not self.store.outbox_ids:
            return super().add_outbox_row(values)
        outbox_id = self.store.outbox_ids.pop(0)
        self.store.defer_insert("outbox", {"id": outbox_id, **values})
        return outbox_id


    def listen_queued(self) -> bool:
        self.store.db.raw(f'LISTEN "{single(self.store.db.raw(QUEUED_CHANNEL))[0]}"')
        return True

    def wait_queued(self, timeout: float) -> bool:
        try:
            return any(True for _ in self.store.db.conn.notifies(timeout=timeout, stop_after=1))
        except self.store.db.psycopg.Error as exc:
            raise StoreError(f"database unavailable: {exc}") from exc
