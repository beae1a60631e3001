"""Stores as an earlier gm left them, on either back end, for the migration tests.

``store_at(target, step)`` makes an empty store at schema step ``step``: this
gm's steps up to it, no further (a step never changes once shipped, so these
are the tables the gm of that step made).  ``onto_postgresql(path, url)``
puts a SQLite store made by an earlier gm (data/store_stepNN.sqlite,
make_fixture_stores.py) on PostgreSQL at the same step: the tables made by
the steps up to it, then every row of the file, stored as the PostgreSQL back
end stores them (a packed text as its UTF-8 bytes, as a PostgreSQL store
before steps 21-22 held it).  The rows are those that gm wrote; the tables are
made by this gm's steps, whose PostgreSQL DDL (compiled by SQLAlchemy,
gm.store.pgsteps) tests/store/test_pg_steps.py holds, step by step, to the
DDL the shipped steps ran (PostgreSQL stores made by old revisions cannot be
kept as files the way the SQLite ones are: the back end came in at step 4).
"""

from __future__ import annotations

import sqlite3
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Iterator

from gm.store import Store, schema


@contextmanager
def steps_up_to(step: int) -> Iterator[None]:
    """This gm knows the schema steps up to ``step`` only, meanwhile."""
    kept = schema.STEPS
    schema.STEPS = [s for s in kept if s.number <= step]
    try:
        yield
    finally:
        schema.STEPS = kept


def store_at(target: str | Path, step: int) -> None:
    """Make an empty store at schema step ``step`` (a SQLite file or a PostgreSQL URL)."""
    with steps_up_to(step):
        Store(target).close()


def onto_postgresql(path: Path, url: str) -> int:
    """Every row of the SQLite store at ``path``, in a new PostgreSQL store at its step; returns the step."""
    with closing(sqlite3.connect(path)) as lite:
        step = lite.execute("PRAGMA user_version").fetchone()[0]
        tables = [r[0] for r in lite.execute("SELECT name FROM sqlite_master WHERE type = :type "
                                             "AND name NOT LIKE :own", {"type": "table", "own": "sqlite_%"})]
        with steps_up_to(step):
            store = Store(url)
            try:
                missing = set(tables) - set(store.table_names())
                assert not missing, f"tables the step-{step} steps do not make: {missing}"
                with store.write():
                    for table in store.table_names():
                        cursor = lite.execute(f"SELECT * FROM {table}")
                        rows = cursor.fetchall()
                        if rows:  # the rows a Python step made (step 32's secret) are the copy's
                            store.db.execute(f"DELETE FROM {table}", {})
                            store.insert_many(table, [d[0] for d in cursor.description], rows)
                        store.ids_restored(table)
            finally:
                store.close()
    return step
