"""The SQLite back end: one connection to a file, its transactions.

Standard-library sqlite3 in WAL mode, the embedded default.  Every write
happens inside ``store.write()``, which opens the transaction with ``BEGIN
IMMEDIATE`` so that the read-modify-write of a game state can never
interleave with another process (the daemon and a GM's CLI) and lose an
update; the threads of one process (the judge and the sender) queue for
that lock first come, first served (gm.store.gate).  Opening a store brings
the database's schema up to date (gm.store.migrations).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from gm.core import filemodes
from gm.store import migrations
from gm.store.base import Store, is_url
from gm.store.errors import StoreError
from gm.store.gate import GateTimeout, gate_for
from gm.store.sql import single


class SqliteStore(Store):
    kind = "sqlite"

    @classmethod
    def handles(cls, target: str | Path) -> bool:
        return not is_url(target)

    def __init__(self, path: str | Path, timeout: float = 30.0, create: bool = True):
        self.path = Path(path)
        if not create and not (self.path.is_file() and self.path.stat().st_size > 0):
            # gm ingest (run by an MTA from anywhere) must never start a fresh, empty store
            raise StoreError(f"no store at {self.path.absolute()} (gm init or gm new makes one)")
        # Made here, 0600 (0660 in a shared data folder: gm.core.filemodes), before SQLite opens it:
        # SQLite makes its -wal and -shm files with the database file's own mode.
        try:
            filemodes.create_file(self.path)
        except OSError as exc:
            raise StoreError(f"cannot create {self.path}: {exc}") from exc
        # isolation_level=None: we issue BEGIN ourselves, never implicitly.
        self.db = sqlite3.connect(str(self.path), timeout=timeout, isolation_level=None)
        self.db.row_factory = sqlite3.Row
        self.depth = 0
        self.claimed: set[int] = set()  # the outbox rows this connection's sender holds (claim_outbox)
        self.relaxed = False  # this transaction commits without fsync (write(durable=False))
        self.timeout = timeout
        self.gate = gate_for(self.path)  # this process's writers to the file take turns (gm.store.gate)
        self._open_repositories()
        try:
            if migrations.current_step(self.db) == 0 and not self.table_names():
                # a new file (before WAL mode writes its header): the pages that trimmed sent mail
                # frees can go back to the file system (release_free_pages)
                self.db.execute("PRAGMA auto_vacuum=INCREMENTAL")
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

    # --- transactions (Store.write) -------------------------------------------------------
    def begin(self, durable: bool) -> None:
        try:
            self.gate.acquire(self.timeout)
        except GateTimeout as exc:
            raise StoreError(f"database busy: {exc}") from exc
        try:
            if not durable:
                self.db.execute("PRAGMA synchronous=NORMAL")
                self.relaxed = True
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            self._end()
            raise StoreError(f"database busy or unavailable: {exc}") from exc
        except BaseException:
            self._end()
            raise

    def commit(self) -> None:
        try:
            self.db.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            self.db.execute("ROLLBACK")
            raise StoreError(f"commit failed: {exc}") from exc
        finally:
            self._end()

    def rollback(self) -> None:
        try:
            self.db.execute("ROLLBACK")
        finally:
            self._end()

    def _end(self) -> None:
        """The transaction is over, or never began: normal sync again, the next writer's turn."""
        try:
            self._restore_sync()
        finally:
            self.gate.release()

    def _restore_sync(self) -> None:
        if self.relaxed:
            self.relaxed = False
            self.db.execute("PRAGMA synchronous=FULL")

    def _begin_snapshot(self) -> None:
        # A deferred BEGIN: in WAL mode a reader holds its snapshot from its first read on, and
        # neither waits for a writer nor holds one up.
        self.db.execute("BEGIN")

    def _end_snapshot(self) -> None:
        self.db.execute("COMMIT")

    def release_free_pages(self, most: int) -> int:
        """Up to ``most`` free pages given back to the file system (PRAGMA incremental_vacuum), in
        a short write of their own.  A file without auto_vacuum=INCREMENTAL (made by an earlier gm)
        keeps its free pages for later rows; VACUUM gives them back (docs/operators/server.md)."""
        free = int(single(self.db.execute("PRAGMA freelist_count"))[0])
        if not free or int(single(self.db.execute("PRAGMA auto_vacuum"))[0]) != 2:
            return 0
        pages = min(free, most)
        with self.write(durable=False):  # lost in an OS crash only, and then given back again
            for _ in range(pages):  # a page a step, and Python's sqlite3 steps a pragma once
                self.db.execute("PRAGMA incremental_vacuum(1)")
        return pages

    @property
    def schema_version(self) -> int:
        """The schema step this database is at (PRAGMA user_version)."""
        return migrations.user_version(self.db)

    def table_names(self) -> list[str]:
        return [r[0] for r in self.db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid")]
