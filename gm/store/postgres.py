"""The PostgreSQL back end: a store on a database server that several daemons share.

Chosen by a postgresql:// URL as the store (config ``store:``).  psycopg 3,
in autocommit mode with explicit transactions, as the SQLite back end.  The
SQL is the store's SQLite-style SQL, translated by gm.store.dialect (the
portable subset is documented in gm.store).

Transactions.  ``write()`` runs BEGIN and then takes the store lock
(gm.store.pglocks): exclusively, the counterpart of SQLite's BEGIN IMMEDIATE,
or, for ``write(scoped=True)``, in shared mode, and then the transaction locks
the games and shared rows it changes, so daemons judge different games at the
same time.  A message, a timer step or an outbox claim is decided by the first
transaction to get there; the next sees it done.  A daemon that dies
mid-transaction leaves nothing: the server rolls back its transaction and
frees its locks.  Reads outside a transaction see the last committed state
(READ COMMITTED).

The outbox.  A sender claims the rows it sends with a session-level advisory
lock each (pg_try_advisory_lock: another daemon skips them), and gives them
back once they are marked; a daemon that dies loses its session and so its
claims at once, and another sends those rows again with the same Message-ID.

Schema version.  PostgreSQL has no user_version: the step a database is at is
the one row of ``gm_schema_version``.  The same steps (gm.store.schema) run,
translated, in one transaction under the writer lock.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gm.store import dialect, migrations, pglocks, schema
from gm.store.base import Store, is_url
from gm.store.errors import MigrationError, StoreConflict, StoreError

VERSION_TABLE = "gm_schema_version"
OUTBOX_LOCKS = "SELECT hashtext(current_schema() || ':outbox')"  # the first key of an outbox row's lock


class PgConnection:
    """The psycopg connection, taking the store's SQLite-style SQL (``execute(sql, params)``)."""

    def __init__(self, url: str, timeout: float):
        import psycopg  # only a store on a server needs it

        self.psycopg = psycopg
        self.url, self.timeout = url, timeout
        self.translator = dialect.Translator(self.primary_key)
        self.keys: dict[str, list[str]] = {}
        self.conn = self.connect()

    def connect(self) -> Any:
        try:
            return self.psycopg.connect(self.url, autocommit=True, row_factory=dialect.row_factory,
                                        connect_timeout=max(1, int(self.timeout)))
        except self.psycopg.Error as exc:
            raise StoreError(f"cannot connect to {redacted(self.url)}: {exc}") from exc

    def execute(self, sql: str, params: tuple | list = ()) -> Any:
        return self.raw(self.translator.sql(sql), dialect.params(params))

    def raw(self, sql: str, params: tuple = ()) -> Any:
        """PostgreSQL's own SQL, untranslated (catalog look-ups, locks)."""
        # A session that died (server restart, failover, idle cut) between transactions, or in
        # one whose failure was already raised, is replaced: nothing open on it is lost.
        dead = self.conn.broken
        idle = self.conn.info.transaction_status == self.psycopg.pq.TransactionStatus.IDLE
        if not dead:
            try:
                return self.conn.execute(sql, params)
            except self.psycopg.OperationalError as exc:
                if pglocks.is_conflict(exc):
                    raise StoreConflict(str(exc)) from exc
                if not (idle and self.conn.broken):
                    raise StoreError(f"database unavailable: {exc}") from exc
        self.conn.close()
        self.conn = self.connect()
        try:
            return self.conn.execute(sql, params)
        except self.psycopg.OperationalError as exc:
            raise StoreError(f"database unavailable: {exc}") from exc

    def executemany(self, sql: str, rows: list[tuple]) -> None:
        """One statement for many rows (psycopg sends them in one pipeline)."""
        try:
            with self.conn.cursor() as cursor:
                cursor.executemany(self.translator.sql(sql), [dialect.params(r) for r in rows])
        except self.psycopg.OperationalError as exc:
            raise StoreError(f"database unavailable: {exc}") from exc

    def primary_key(self, table: str) -> list[str]:
        if table not in self.keys:
            rows = self.conn.execute(
                "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid "
                "AND a.attnum = ANY(i.indkey) WHERE i.indrelid = to_regclass(%s) AND i.indisprimary "
                "ORDER BY array_position(i.indkey, a.attnum)", (table,)).fetchall()
            self.keys[table] = [r[0] for r in rows]
        return self.keys[table]

    def forget_schema(self) -> None:
        """The schema changed (a migration): look keys and columns up again."""
        self.keys.clear()
        self.translator.clear()

    def close(self) -> None:
        self.conn.close()


def redacted(url: str) -> str:
    """The URL without its password, for messages."""
    head, sep, tail = url.partition("@")
    if not sep or ":" not in head.split("//", 1)[-1]:
        return url
    scheme, _, user = head.partition("//")
    return f"{scheme}//{user.split(':', 1)[0]}:***@{tail}"


class PostgresStore(Store):
    kind = "postgresql"

    @classmethod
    def handles(cls, target: str | Path) -> bool:
        return is_url(target)

    def __init__(self, url: str, timeout: float = 30.0, create: bool = True):
        self.path = url
        self.timeout = timeout
        self.depth = 0
        self.identity: dict[str, str | None] = {}
        self.db = PgConnection(url, timeout)
        try:
            if not create and self.version_row() is None:  # gm ingest never starts a fresh store
                raise StoreError(f"no gm store in {redacted(url)} (gm init or gm new makes one)")
            self.migrate()
        except BaseException:
            self.db.close()
            raise

    # --- transactions (Store.write) -------------------------------------------------------
    def begin(self, durable: bool) -> None:
        self.db.raw("BEGIN")
        self.store_wide = not self.scoped
        self.games_held: set[str] = set()
        try:
            if not durable:
                self.db.raw("SET LOCAL synchronous_commit = off")
            pglocks.lock_store(self.db.raw, shared=self.scoped)
        except BaseException:
            self.rollback()
            raise

    def lock_games(self, *game_ids: str) -> None:
        wanted = {g for g in game_ids if g} - self.games_held
        if not self.store_wide and wanted:
            pglocks.lock_names(self.db.raw, "game", wanted)
            self.games_held |= wanted

    def try_lock_games(self, *game_ids: str) -> bool:
        wanted = {g for g in game_ids if g} - self.games_held
        if self.store_wide or not wanted:
            return True
        if not pglocks.try_lock_names(self.db.raw, "game", wanted):
            return False
        self.games_held |= wanted
        return True

    def lock_shared(self, *names: str) -> None:
        if not self.store_wide:
            pglocks.lock_names(self.db.raw, "shared", [n for n in names if n])

    def lock_store(self) -> None:
        if not self.store_wide:
            pglocks.lock_store(self.db.raw, shared=False)
            self.store_wide = True

    def try_lock_message(self, *keys: str | None, game: str | None = None) -> bool:
        game = None if self.store_wide else game
        if not pglocks.claim_message(self.db.raw, [k for k in keys if k], game):
            return False
        if game:
            self.games_held.add(game)
        return True

    def commit(self) -> None:
        try:
            self.db.raw("COMMIT")
        except StoreError:
            raise  # the session died: the server rolled the transaction back
        except self.db.psycopg.Error as exc:
            self.rollback()
            raise StoreError(f"commit failed: {exc}") from exc

    def rollback(self) -> None:
        if self.db.conn.closed or self.db.conn.broken:
            return  # the server already dropped the transaction with the connection
        self.db.raw("ROLLBACK")

    def begin_snapshot(self) -> None:
        # REPEATABLE READ: every statement sees the snapshot of the first; no advisory lock, so the
        # daemons' writes go on meanwhile.
        self.db.raw("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")

    def end_snapshot(self) -> None:
        if not (self.db.conn.closed or self.db.conn.broken):
            self.db.raw("COMMIT")

    # --- the schema ---------------------------------------------------------------------------
    def version_row(self) -> int | None:
        """The step in gm_schema_version, or None where there is no such table yet."""
        if self.db.raw("SELECT to_regclass(%s)", (VERSION_TABLE,)).fetchone()[0] is None:
            return None
        row = self.db.raw(f"SELECT version FROM {VERSION_TABLE}").fetchone()
        return 0 if row is None else int(row[0])

    @property
    def schema_version(self) -> int:
        return self.version_row() or 0

    def migrate(self) -> list[int]:
        """Run the steps this database still needs, all in one transaction under the writer lock."""
        if not migrations.steps_after(self.schema_version):
            return []
        with self.write():
            version = self.version_row()
            if version is None:
                self.db.raw(f"CREATE TABLE {VERSION_TABLE} (version BIGINT NOT NULL)")
                self.db.raw(f"INSERT INTO {VERSION_TABLE} (version) VALUES (0)")
                version = 0
            steps = migrations.steps_after(version)
            for step in steps:
                try:
                    for statement in schema.statements(step.sql):
                        self.db.execute(statement)
                    self.db.forget_schema()
                    if step.apply is not None:
                        step.apply(self.db)
                except self.db.psycopg.Error as exc:
                    raise MigrationError(f"schema step {step.number} ({step.name}) failed: {exc}") from exc
            if steps:
                self.db.raw(f"UPDATE {VERSION_TABLE} SET version = %s", (steps[-1].number,))
        self.db.forget_schema()
        self.identity.clear()
        return [s.number for s in steps]

    def table_names(self) -> list[str]:
        rows = self.db.raw("SELECT c.relname FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace "
                           "AND c.relkind = 'r' AND c.relname <> %s ORDER BY c.oid", (VERSION_TABLE,))
        return [r[0] for r in rows]

    # --- rows ------------------------------------------------------------------------------
    def identity_column(self, table: str) -> str | None:
        """The column numbered by the database (an INTEGER PRIMARY KEY in the schema), if any."""
        if table not in self.identity:
            row = self.db.raw("SELECT attname FROM pg_attribute WHERE attrelid = to_regclass(%s) "
                              "AND attidentity <> ''", (table,)).fetchone()
            self.identity[table] = None if row is None else row[0]
        return self.identity[table]

    def insert(self, table: str, **values: Any) -> int:
        self._require_tx()
        cols = ", ".join(values)
        marks = ", ".join("?" for _ in values)
        key = self.identity_column(table)
        returning = f" RETURNING {key}" if key else ""
        args = tuple(dialect.storable(table, c, v) for c, v in values.items())
        row = self.db.execute(f"INSERT INTO {table} ({cols}) VALUES ({marks}){returning}", args)
        return int(row.fetchone()[0]) if key else 0

    def storable_rows(self, table: str, columns: list[str], rows: list[tuple]) -> list[tuple]:
        return [tuple(dialect.storable(table, c, v) for c, v in zip(columns, row)) for row in rows]

    def ids_restored(self, table: str) -> None:
        key = self.identity_column(table)
        if key:
            self.db.raw(f"SELECT setval(pg_get_serial_sequence(%s, %s), GREATEST(max({key}), 1), "
                        f"max({key}) IS NOT NULL) FROM {table}", (table, key))

    # --- the outbox, shared by several senders ----------------------------------------
    def claim_outbox(self, now: float, limit: int) -> list:
        """The due rows this session could lock and that are still queued once locked."""
        due = self.outbox_due(now, limit)
        if not due:
            return []
        ids = [r["id"] for r in due]
        locked = {r[0] for r in self.db.raw(
            f"SELECT id FROM unnest(%s::bigint[]) AS id WHERE pg_try_advisory_lock(({OUTBOX_LOCKS}), id::int)",
            (ids,))}
        # Locked now, but another sender may have marked a row sent just before letting it go.
        if self.claimant is None:
            still = {r[0] for r in self.db.raw("SELECT id FROM outbox WHERE id = ANY(%s) AND status = 'queued'",
                                               (list(locked),))}
        else:  # the same look, noting this daemon as the rows' claimant (and who claimed them before)
            rows = self.db.raw("UPDATE outbox o SET claimed_by = %s FROM outbox prev WHERE o.id = prev.id "
                               "AND o.id = ANY(%s) AND o.status = 'queued' RETURNING o.id, prev.claimed_by",
                               (self.claimant, list(locked))).fetchall()
            still = {r[0] for r in rows}
            self.note_takeover(self.claimant, {r[1] for r in rows if r[1] not in (None, self.claimant)}, now)
        self.release_outbox([r for r in due if r["id"] in locked - still])
        return [r for r in due if r["id"] in still]

    def release_outbox(self, rows: list) -> None:
        if not rows or self.db.conn.broken:  # a dead session's locks went with it
            return
        ids = [r["id"] for r in rows]
        # Let go of by a living sender, an unsent row is claimed by nobody: a claimant found on it
        # later died holding it (note_takeover).
        forget = ("WITH unclaimed AS (UPDATE outbox SET claimed_by = NULL WHERE id = ANY(%s) "
                  "AND status <> 'sent' AND claimed_by = %s) " if self.claimant else "")
        args = (ids, self.claimant, ids) if self.claimant else (ids,)
        self.db.raw(f"{forget}SELECT pg_advisory_unlock(({OUTBOX_LOCKS}), id::int) FROM unnest(%s::bigint[]) AS id",
                    args)
