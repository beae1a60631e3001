"""The PostgreSQL back end: a store on a database server that several daemons share.

psycopg 3 in autocommit mode with explicit transactions.  ``write()`` sends
BEGIN with its first statement and takes the store lock (gm.store.pglocks):
exclusively, as SQLite's BEGIN IMMEDIATE, or shared for a scoped write, which
then locks the games and rows it changes, so daemons judge different games at
once.  A daemon that dies mid-transaction leaves nothing: the server rolls it
back and frees its locks.  The outbox's claims are gm.store.pgoutbox's.  The
schema step a database is at is the one row of ``gm_schema_version``; the
steps' DDL is compiled by SQLAlchemy (gm.store.pgsteps).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from gm.store import gameload, mailboxhash, migrations, pglocks, pgrows, reads
from gm.store.base import Store, is_url
from gm.store.errors import MigrationError, StoreConflict, StoreError
from gm.store.gamerows import DeadlineRow, GameRow, StateRow
from gm.store.lines import LineRow
from gm.store.mailboxhash import mailbox_hash
from gm.store.mailrows import AddressStateRow
from gm.store.pglocks import PgLocks
from gm.store.pgoutbox import OUTBOX_LOCKS, SENT, PgOutbox
from gm.store.seatrows import SeatRow
from gm.store.sql import Shaped, bound, portable, renamed, single

VERSION_TABLE = "gm_schema_version"


class PgConnection:
    """The psycopg connection: ``raw`` for PostgreSQL's own SQL, ``execute`` for portable SQL."""

    kind = "postgresql"  # as Store.kind (a schema step's Python tells the back ends apart by it)

    def __init__(self, url: str, timeout: float):
        import psycopg  # only a store on a server needs it

        self.psycopg = psycopg
        self.url, self.timeout = url, timeout
        self.conn = self.connect()

    def connect(self) -> Any:
        try:
            return self.psycopg.connect(self.url, autocommit=True, row_factory=pgrows.row_factory,
                                        connect_timeout=max(1, int(self.timeout)))
        except self.psycopg.Error as exc:
            raise StoreError(f"cannot connect to {redacted(self.url)}: {exc}") from exc

    def execute(self, sql: str, params: tuple[Any, ...] | list[Any] | dict[str, Any] = ()) -> Any:
        """Portable SQL: with a dict, ``:name`` parameters, as SQLAlchemy's ``text()`` compiles them
        for psycopg (gm.store.sql.portable); SQLite runs the same text as written."""
        return self.raw(portable(sql), named(params))

    # Statements owed: sent with the next one, in one round trip (psycopg's pipeline mode), not
    # each on its own.  A write's BEGIN and its store lock go with its first statement, and its
    # rows written at the commit (``held``, gm.store.deferred) with the COMMIT: a transaction that
    # judges a mail waits for the server two times less, and one that ran nothing sends nothing.
    begin_owed: str | None = None  # BEGIN, not sent yet: nothing of the transaction has been
    before_next: str | None = None  # a statement owed before the next one (the write's store lock)
    held: list[tuple[str, Any]] | None = None  # statements kept for the COMMIT's round trip

    def raw(self, sql: str, params: tuple[Any, ...] | dict[str, Any] = ()) -> Any:
        """PostgreSQL's own SQL, untranslated (catalog look-ups, locks); what is owed first.  While
        statements are ``held``, kept for the COMMIT (their cursor is not read: None)."""
        if self.held is not None:
            self.held.append((sql, params))
            return None
        return self.run(sql, params, self.take_owed())

    def take_owed(self) -> list[tuple[str, Any]]:
        owed = []
        if self.begin_owed is not None:
            owed.append((self.begin_owed, ()))
            self.begin_owed = None
        if self.before_next is not None:
            owed.append((self.before_next, ()))
            self.before_next = None
        return owed

    def pay_owed(self) -> None:
        for sql, params in self.take_owed():
            self.run(sql, params)

    count = 0  # statements run on this connection
    round_trips = 0  # times it waited for the server (statements sent together wait once)

    def run(self, sql: str, params: tuple[Any, ...] | dict[str, Any], owed: Sequence[tuple[str, Any]] = ()) -> Any:
        """``sql`` after ``owed``, in one round trip; the cursor of ``sql``."""
        self.count += 1 + len(owed)
        self.round_trips += 1
        # A session that died (server restart, failover, idle cut) between transactions, or in
        # one whose failure was already raised, is replaced: nothing open on it is lost (a
        # transaction whose BEGIN is owed has sent nothing yet).
        dead = self.conn.broken
        idle = self.conn.info.transaction_status == self.psycopg.pq.TransactionStatus.IDLE
        if not dead:
            try:
                return self.send(sql, params, owed)
            except self.psycopg.OperationalError as exc:
                if pglocks.is_conflict(exc):
                    raise StoreConflict(str(exc)) from exc
                if not (idle and self.conn.broken):
                    raise StoreError(f"database unavailable: {exc}") from exc
        self.conn.close()
        self.conn = self.connect()
        try:
            return self.send(sql, params, owed)
        except self.psycopg.OperationalError as exc:
            if pglocks.is_conflict(exc):
                raise StoreConflict(str(exc)) from exc
            raise StoreError(f"database unavailable: {exc}") from exc

    def send(self, sql: str, params: tuple[Any, ...] | dict[str, Any], owed: Sequence[tuple[str, Any]]) -> Any:
        if not owed:
            return self.conn.execute(sql, params)
        with self.conn.pipeline():  # every result is read at its end: the first error is raised
            for before, args in owed:
                self.conn.execute(before, args)
            return self.conn.execute(sql, params)

    def executemany(self, sql: str, rows: list[dict[str, Any]]) -> None:
        """Portable SQL for many rows, each a dict (psycopg sends them in one pipeline)."""
        self.pay_owed()
        try:
            with self.conn.cursor() as cursor:
                cursor.executemany(portable(sql), [named(row) for row in rows])
        except self.psycopg.OperationalError as exc:
            raise StoreError(f"database unavailable: {exc}") from exc

    def close(self) -> None:
        self.conn.close()


def named(params: tuple[Any, ...] | list[Any] | dict[str, Any]) -> dict[str, Any]:
    """Portable SQL's parameters, by name (booleans as 0/1, as SQLite stores them); positional
    ones are SQLite's dialect, which nothing translates any more."""
    if not isinstance(params, dict):
        if params:
            raise TypeError("PostgreSQL takes portable SQL: :name parameters with a dict, not ?")
        return {}
    return {k: int(v) if isinstance(v, bool) else v for k, v in params.items()}


def redacted(url: str) -> str:
    """The URL without its password, for messages."""
    head, sep, tail = url.partition("@")
    if not sep or ":" not in head.split("//", 1)[-1]:
        return url
    scheme, _, user = head.partition("//")
    return f"{scheme}//{user.split(':', 1)[0]}:***@{tail}"


class PostgresStore(Store):
    kind = "postgresql"
    _outbox_kind = PgOutbox
    _locks_kind = PgLocks

    @classmethod
    def handles(cls, target: str | Path) -> bool:
        return is_url(target)

    def __init__(self, url: str, timeout: float = 30.0, create: bool = True):
        self.path = url
        self.timeout = timeout
        self.depth = 0
        self.identity: dict[str, str | None] = {}
        self.claimed: set[int] = set()  # the outbox rows this session holds the lock of (claim_outbox)
        # Of those, the rows whose locks the open transaction's "sent" UPDATE lets go of (run_deferred):
        # held again should the transaction not commit.
        self.letting_go: set[int] = set()
        self.db = PgConnection(url, timeout)
        self._open_repositories()
        try:
            if not create and self._version_row() is None:  # gm ingest never starts a fresh store
                raise StoreError(f"no gm store in {redacted(url)} (gm init or gm new makes one)")
            self.migrate()
            # the mailbox secret, read now outside any transaction: never among a write's statements
            if migrations.latest() >= mailboxhash.SINCE_STEP:
                mailboxhash.secret_of(self)
        except BaseException:
            self.db.close()
            raise

    # --- transactions (Store.write) -------------------------------------------------------
    def begin(self, durable: bool) -> None:
        self.outbox_ids: list[int] = []  # ids drawn in an earlier transaction may be used by none
        # BEGIN goes with the transaction's first statement, in its round trip (PgConnection.take_owed)
        self.db.begin_owed = "BEGIN"
        lock = pglocks.store_lock(shared=self.scoped, relaxed=not durable)
        if self.scoped:  # taken by the transaction's first statement: the claim of a mail takes it itself
            self.db.before_next = lock
            return
        try:  # held from the start, with the BEGIN: a store-wide write shuts every other out at once
            self.db.raw(lock)
        except BaseException:
            self.rollback()
            raise

    def read_game(self, game_id: str, sender: str) -> None:
        if self.depth:  # nothing is remembered outside a write transaction
            self._remember_game(self.db.raw(*gameload.statement(game_id, mailbox_hash(self, sender))), game_id, sender)

    def _remember_game(self, cursor: Any, game_id: str, sender: str) -> list[Any]:
        """Remember the sets of read_game's statement (run by ``cursor``); the rows of its
        "inserted" set, if it has one (insert_unless)."""
        sets = gameload.split([c.name for c in cursor.description], cursor.fetchall(), (*gameload.SETS, "inserted"))
        self.outbox_ids = [r["id"] for r in sets["outbox_ids"]]
        remember = self.remember_written
        remember("games", ("id", game_id), GameRow.maybe(next(iter(sets["games"]), None)))
        remember("states", ("latest", game_id), StateRow.maybe(next(iter(sets["states"]), None)))
        remember("players", ("game", game_id), SeatRow.every(sets["players"]))
        remember("timers", ("due", game_id), next(iter(sets["timers"]), None))
        remember("deadlines", ("game", game_id), DeadlineRow.maybe(next(iter(sets["deadlines"]), None)))
        remember("game_settings", ("game", game_id), {r["key"]: r["value"] for r in sets["game_settings"]})
        remember("observers", ("of", game_id, True), [r["email"] for r in sets["observers"]])
        remember("conditional_lines", ("game", game_id), LineRow.every(sets["conditional_lines"]))
        remember("mail_threads", ("game", game_id), {r["address"]: r["root"] for r in sets["mail_threads"]})
        remember("seat_paces", ("game", game_id),
                 {r["player"]: (r["mail_pace"], r["mail_at"]) for r in sets["seat_paces"]})
        if sets["states"]:  # the press from the turn before the newest state's on
            remember("reports", ("public_press", game_id), (sets["states"][0]["turn"] - 1, sets["press"]))
        remember(("players", "credential_locks"), ("locks_until", game_id, sender), sets["locks"])
        columns = {name: i - 1 for name, i in sets["addresses"][0].index.items() if i} if sets["addresses"] else {}
        for row in sets["addresses"]:  # as read_address_states: a row, or None (no row for it)
            if any((p["email"] or "").lower() == row["#key"] for p in sets["players"]):
                # an address the database lower-cases as Python does (read_address_states' key)
                remember("addresses", ("address", row["#key"]),
                         None if row["address"] is None else AddressStateRow.of(pgrows.Row(tuple(row)[1:], columns)))
        return sets["inserted"]

    def _flush_at_commit(self) -> None:
        """The rows written at the commit go in the COMMIT's round trip (PgConnection.held)."""
        self.db.held = []
        try:
            self.flush_deferred()
        except BaseException:
            self.db.held = None
            raise

    def commit(self) -> None:
        held: list[tuple[str, Any]] = self.db.held or []
        self.db.held = None
        if self.db.begin_owed is not None and not held:
            self.db.begin_owed = self.db.before_next = None  # it ran nothing: nothing to send
            return
        *writes, (last, last_params) = [*held, ("COMMIT", ())]
        try:
            self.db.run(last, last_params, [*self.db.take_owed(), *writes])
        except StoreError:
            self._let_go_undone()
            raise  # the session died: the server rolled the transaction back
        except self.db.psycopg.Error as exc:
            self.rollback()
            if writes:  # a row written at the commit was refused: as it would have been before it
                raise
            raise StoreError(f"commit failed: {exc}") from exc
        self.letting_go = set()

    def _let_go_undone(self) -> None:
        """The transaction that let go of some claimed rows' locks did not commit: those rows are
        still queued, and counted as claimed again, so that release_outbox lets go of them.  The
        pipelined commit (flush_at_commit) may have stopped before the UPDATE letting go ran,
        leaving the locks held by this session with no record of them: no other sender could
        claim those rows while the session lived.  Where it ran, the unlock that release_outbox
        sends again finds nothing to let go of."""
        self.claimed |= self.letting_go
        self.letting_go = set()

    def rollback(self) -> None:
        self._let_go_undone()
        self.db.held = None
        if self.db.begin_owed is not None:  # nothing was sent: nothing to undo
            self.db.begin_owed = self.db.before_next = None
            return
        self.db.before_next = None
        if self.db.conn.closed or self.db.conn.broken:
            return  # the server already dropped the transaction with the connection
        self.db.raw("ROLLBACK")

    def _begin_snapshot(self) -> None:
        # REPEATABLE READ: every statement sees the snapshot of the first; no advisory lock, so the
        # daemons' writes go on meanwhile.
        self.db.raw("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")

    def _end_snapshot(self) -> None:
        if not (self.db.conn.closed or self.db.conn.broken):
            self.db.raw("COMMIT")

    # --- the schema ---------------------------------------------------------------------------
    def _version_row(self) -> int | None:
        """The step in gm_schema_version, or None where there is no such table yet."""
        if single(self.db.raw("SELECT to_regclass(%s)", (VERSION_TABLE,)))[0] is None:
            return None
        row = self.db.raw(f"SELECT version FROM {VERSION_TABLE}").fetchone()
        return 0 if row is None else int(row[0])

    @property
    def schema_version(self) -> int:
        return self._version_row() or 0

    def migrate(self) -> list[int]:
        """Run the steps this database still needs, all in one transaction under the writer lock."""
        if not migrations.steps_after(self.schema_version):
            return []
        from gm.store import pgsteps  # SQLAlchemy compiles the steps' DDL: loaded only to migrate

        with self.write():
            version = self._version_row()
            if version is None:
                self.db.raw(f"CREATE TABLE {VERSION_TABLE} (version BIGINT NOT NULL)")
                self.db.raw(f"INSERT INTO {VERSION_TABLE} (version) VALUES (0)")
                version = 0
            steps = migrations.steps_after(version)
            for step in steps:
                try:
                    for statement, portable in pgsteps.statements(step):
                        if portable:
                            self.db.execute(statement, {})
                        else:
                            self.db.raw(statement)
                    if step.apply is not None:
                        step.apply(self.db)
                except self.db.psycopg.Error as exc:
                    raise MigrationError(f"schema step {step.number} ({step.name}) failed: {exc}") from exc
            if steps:
                self.db.raw(f"UPDATE {VERSION_TABLE} SET version = %s", (steps[-1].number,))
        self.identity.clear()
        return [s.number for s in steps]

    def table_names(self) -> list[str]:
        rows = self.db.raw("SELECT c.relname FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace "
                           "AND c.relkind = 'r' AND c.relname <> %s ORDER BY c.oid", (VERSION_TABLE,))
        return [r[0] for r in rows]

    # --- rows ------------------------------------------------------------------------------
    def _identity_column(self, table: str) -> str | None:
        """The column numbered by the database (an INTEGER PRIMARY KEY in the schema), if any."""
        if table not in self.identity:
            row = self.db.raw("SELECT attname FROM pg_attribute WHERE attrelid = to_regclass(%s) "
                              "AND attidentity <> ''", (table,)).fetchone()
            self.identity[table] = None if row is None else row[0]
        return self.identity[table]

    def insert_row(self, statement: Shaped, **values: Any) -> int:
        self._require_tx()
        cursor = statement.run(self, **self._storable(statement.table, values))
        return int(single(cursor)[0]) if cursor.description else 0  # RETURNING its identity, if any

    @staticmethod
    def _storable(table: str, values: dict[str, Any]) -> dict[str, Any]:
        """Values as PostgreSQL's columns take them (gm.store.pgrows.storable: a packed column's text)."""
        return {c: pgrows.storable(table, c, v) for c, v in values.items()}

    def insert_unless(self, statement: Shaped, values: dict[str, Any],
                      read_game: tuple[str, str] | None = None) -> int | None:
        self._require_tx()
        values = self._storable(statement.table, values)
        if read_game is None:
            row = statement.run(self, **values).fetchone()
            return None if row is None else int(row[0])
        # the game read as one more set of the same statement: the insert's id, if it made a row
        # (its snapshot is taken after the claim's locks, as a statement of its own would be);
        # one parameter style, psycopg's %(name)s, and no name shared (gameload's are its own)
        insert, params = bound(statement, self.kind, values)
        load, load_params = gameload.statement(read_game[0], mailbox_hash(self, read_game[1]))
        sql = (f"WITH inserted AS ({insert}) {load} "
               f'FULL JOIN (SELECT 1 AS "#inserted", * FROM inserted) AS i ON false')
        inserted = self._remember_game(self.db.raw(sql, {**params, **load_params}), *read_game)
        return int(inserted[0][0]) if inserted else None

    def _run_deferred(self, statements: list[tuple[str, dict[str, Any]]]) -> None:
        """One statement for each table's first, its second...: the first ones as data-modifying
        WITH clauses of the last.  They see one snapshot and none reads what another writes: each
        writes another table (gm.store.deferred), and a row they refer to was written before.  The
        clauses run in no set order, so a table's second statement (more rows than one INSERT
        takes, whose ids must follow the first's) goes in the next one.  Each statement is
        PostgreSQL's own SQL with %(name)s parameters; joined, each clause's are renamed apart."""
        batches: list[list[tuple[str, dict[str, Any]]]] = []
        tables: set[str] = set()
        for sql, params in statements:
            written = reads.WRITTEN_TABLE.match(sql)
            assert written is not None, sql  # a statement deferred writes a table
            table = written.group(1).lower()
            if not batches or table in tables:
                batches.append([])
                tables = set()
            batches[-1].append((sql, params))
            tables.add(table)
        for batch in batches:
            sent = [params["ids"] for sql, params in batch if sql.startswith(SENT)]
            letting_go = sorted({i for i in (sent[0] if sent else ()) if i in self.claimed})
            if len(batch) == 1 and not letting_go:
                self.db.raw(*batch[0])
                continue
            parts: list[str] = []
            joined: dict[str, Any] = {}
            for i, (sql, params) in enumerate(batch):
                text, names = renamed(sql, self.kind, f"__w{i}")
                parts.append(text)
                joined.update((names.get(name, name + f"__w{i}"), value) for name, value in params.items())
            if letting_go:  # the rows marked sent are let go of once marked (claim_outbox), in the same statement
                clauses = [f"sent AS ({part} RETURNING outbox.id)" if sql.startswith(SENT) else f"w{i} AS ({part})"
                           for i, (part, (sql, _)) in enumerate(zip(parts, batch))]
                joined["letting_go"] = letting_go
                self.db.raw("WITH " + ", ".join(clauses) + f" SELECT pg_advisory_unlock(({OUTBOX_LOCKS}), id::int) "
                            "FROM sent WHERE id = ANY(%(letting_go)s)", joined)
                self.claimed -= set(letting_go)
                self.letting_go |= set(letting_go)
                continue
            *clauses, last = parts
            self.db.raw("WITH " + ", ".join(f"w{i} AS ({part})" for i, part in enumerate(clauses)) + " " + last,
                        joined)

    def _storable_rows(self, table: str, columns: list[str], rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
        return [tuple(pgrows.storable(table, c, v) for c, v in zip(columns, row)) for row in rows]

    def ids_restored(self, table: str) -> None:
        key = self._identity_column(table)
        if key:
            self.db.raw(f"SELECT setval(pg_get_serial_sequence(%s, %s), GREATEST(max({key}), 1), "
                        f"max({key}) IS NOT NULL) FROM {table}", (table, key))

