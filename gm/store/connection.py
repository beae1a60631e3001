"""The Store: one SQLite connection, its transactions, and the generic helpers.

Standard-library sqlite3 in WAL mode.  Every write happens inside
``store.write()``, which opens the transaction with ``BEGIN IMMEDIATE`` so
that the read-modify-write of a game state can never interleave with another
process (the daemon and a GM's CLI) and lose an update.  Opening a store
brings the database's schema up to date (gm.store.migrations).

The named queries live in the mixins (games, turns, mail, service); the
generic ``one/all/insert/update`` stay for tests and one-off tools.
"""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from gm.store import migrations
from gm.store.delivery import DeliveryQueries
from gm.store.errors import StoreError
from gm.store.games import GameQueries
from gm.store.mail import MailQueries
from gm.store.selfservice import SelfServiceQueries
from gm.store.service import ServiceQueries
from gm.store.turns import TurnQueries


class Store(GameQueries, TurnQueries, MailQueries, ServiceQueries, SelfServiceQueries, DeliveryQueries):
    def __init__(self, path: str | Path, timeout: float = 30.0):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: we issue BEGIN ourselves, never implicitly.
        self.db = sqlite3.connect(str(self.path), timeout=timeout, isolation_level=None)
        self.db.row_factory = sqlite3.Row
        self._depth = 0
        try:
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.execute(f"PRAGMA busy_timeout={int(timeout * 1000)}")
            migrations.migrate(self.db)
        except sqlite3.Error as exc:
            self.db.close()
            raise StoreError(f"cannot open {self.path}: {exc}") from exc
        except BaseException:
            self.db.close()
            raise

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def write(self, durable: bool = True) -> Iterator[sqlite3.Connection]:
        """One write transaction (BEGIN IMMEDIATE); nested uses join the outer one.

        ``durable=False`` skips the fsync at commit (WAL with synchronous=NORMAL):
        the transaction still survives the process being killed, and only an
        operating-system crash or power cut can undo it.  For records whose loss
        merely repeats work, such as "this mail was sent" (a resend carries the
        same Message-ID); never for anything that records what a player did.
        """
        if self._depth:
            self._depth += 1
            try:
                yield self.db
            finally:
                self._depth -= 1
            return
        if not durable:
            self.db.execute("PRAGMA synchronous=NORMAL")
        try:
            try:
                self.db.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                raise StoreError(f"database busy or unavailable: {exc}") from exc
            self._depth = 1
            try:
                yield self.db
            except BaseException:
                self._depth = 0
                self.db.execute("ROLLBACK")
                raise
            else:
                self._depth = 0
                try:
                    self.db.execute("COMMIT")
                except sqlite3.OperationalError as exc:
                    self.db.execute("ROLLBACK")
                    raise StoreError(f"commit failed: {exc}") from exc
        finally:
            if not durable:
                self.db.execute("PRAGMA synchronous=FULL")

    @property
    def in_transaction(self) -> bool:
        return self._depth > 0

    @property
    def schema_version(self) -> int:
        """The schema step this database is at (PRAGMA user_version)."""
        return migrations.user_version(self.db)

    # --- generic reads and writes ---------------------------------------------------
    def one(self, sql: str, *args: Any) -> sqlite3.Row | None:
        return self.db.execute(sql, args).fetchone()

    def all(self, sql: str, *args: Any) -> list[sqlite3.Row]:
        return self.db.execute(sql, args).fetchall()

    def _require_tx(self) -> None:
        if not self._depth:
            raise RuntimeError("writes must run inside Store.write()")

    def insert(self, table: str, **values: Any) -> int:
        self._require_tx()
        cols = ", ".join(values)
        marks = ", ".join("?" for _ in values)
        cur = self.db.execute(f"INSERT INTO {table} ({cols}) VALUES ({marks})", tuple(values.values()))
        return int(cur.lastrowid)

    def update(self, table: str, where: dict[str, Any], **values: Any) -> int:
        self._require_tx()
        sets = ", ".join(f"{k} = ?" for k in values)
        cond = " AND ".join(f"{k} = ?" for k in where)
        cur = self.db.execute(
            f"UPDATE {table} SET {sets} WHERE {cond}", (*values.values(), *where.values())
        )
        return cur.rowcount
