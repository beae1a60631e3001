"""The SQLite store's connection through a SQLAlchemy Engine (spike of issue 33).

``SqlaConnection`` is what SqliteStore.db is when GM_STORE_ENGINE=sqlalchemy:
the same ``execute(sql, params)`` as sqlite3's connection, so the query
mixins run unchanged; a SQLite-style string goes through
``exec_driver_sql`` (no compiling: SQLAlchemy's thinnest path), a Core
construct (gm.store.tables) through ``execute``, compiled once into the
engine's compiled cache.  Rows come back readable by column name
(case-insensitive, as sqlite3.Row) and by index.

The connection is AUTOCOMMIT at the driver (pysqlite's isolation_level=None,
as SqliteStore has it): the store emits BEGIN IMMEDIATE and COMMIT itself, so
SQLite's locking stays exactly as it was.  One connection per Store (a Store
belongs to one thread): NullPool, so closing the store closes the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

from sqlalchemy import create_engine
from sqlalchemy.pool import NullPool

from gm.store.dialect import Row


class Cursor:
    """A result as sqlite3's cursor gives it: fetchone, fetchall, iteration, rowcount, lastrowid."""

    __slots__ = ("result", "index")

    def __init__(self, result: Any):
        self.result = result
        self.index = ({k.lower(): i for i, k in enumerate(result.keys())} if result.returns_rows else {})

    def fetchone(self) -> Row | None:
        row = self.result.fetchone()
        return None if row is None else Row(tuple(row), self.index)

    def fetchall(self) -> list[Row]:
        index = self.index
        return [Row(tuple(r), index) for r in self.result.fetchall()]

    def __iter__(self) -> Iterator[Row]:
        index = self.index
        for row in self.result:
            yield Row(tuple(row), index)

    def close(self) -> None:
        self.result.close()

    @property
    def rowcount(self) -> int:
        return self.result.rowcount

    @property
    def lastrowid(self) -> int:
        return self.result.lastrowid


class SqlaConnection:
    def __init__(self, path: Path, timeout: float):
        self.engine = create_engine(
            f"sqlite:///{path}", poolclass=NullPool,
            connect_args={"timeout": timeout, "isolation_level": None, "check_same_thread": False})
        self.conn = self.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        self.raw_sqlite = self.conn.connection.dbapi_connection  # the sqlite3 connection (tracing, backup)

    def execute(self, sql: Any, params: Any = ()) -> Cursor:
        if isinstance(sql, str):
            return Cursor(self.conn.exec_driver_sql(sql, tuple(params)))
        return Cursor(self.conn.execute(sql, params))

    def executemany(self, sql: str, rows: list[tuple]) -> None:
        if rows:
            self.conn.exec_driver_sql(sql, [tuple(r) for r in rows])

    def close(self) -> None:
        self.conn.close()
        self.engine.dispose()
