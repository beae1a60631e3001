"""Writes held back until the transaction commits: fewer statements, each a round trip saved.

A write whose result nobody reads at once is ``defer``red: its rows wait and
go just before the commit, a table's rows in one statement (a multi-row
INSERT, an UPDATE from a list of values) and, on PostgreSQL, every table's in
one statement (data-modifying WITH clauses: gm.store.postgres).  Each is the
back end's own SQL compiled ahead, so `gm ingest` never loads SQLAlchemy.
Nothing reads around them: a deferred write forgets what was remembered of
its table, and a statement naming a table with rows waiting writes them first.
A transaction that rolls back drops them with the rest.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable

from gm.store.sql import inserting, rows_inserted

if TYPE_CHECKING:
    from gm.store.reads import WatchedConnection

Statements = list[tuple[str, dict[str, Any]]]  # (the back end's own SQL, its parameters by name: gm.store.sql.bound)
Build = Callable[[list[tuple[Any, ...]]], Statements]  # the statements writing these rows, in order


class DeferredWrites:
    """The Store's rows waiting for the commit: ``defer`` and the flushes behind it."""

    deferred: dict[str, tuple[Any, Build, list[tuple[Any, ...]]]] | None = None  # table -> (kind, build, rows)
    waiting_names: re.Pattern[str] | None = None  # the tables with rows waiting, as words
    depth = 0
    kind = "?"  # the back end (Store.kind), whose SQL the statements are

    if TYPE_CHECKING:  # the Store's, of which this is a part
        @property
        def db(self) -> WatchedConnection: ...

        def _wrote(self, sql: str) -> None: ...

        def _storable_rows(self, table: str, columns: list[str],
                           rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]: ...

    def defer(self, table: str, kind: Any, build: Build, row: tuple[Any, ...]) -> None:
        """Write ``row`` to ``table`` with ``build``'s statements (given every row of this kind
        waiting, in order) before the next statement naming ``table``, or at the commit.  ``kind``:
        rows of another kind (another statement, other columns) are not built together: the rows
        waiting are written first.  Only inside a write transaction."""
        if not self.depth:
            raise RuntimeError("writes must run inside Store.write()")
        self._wrote(f"UPDATE {table}")  # what was remembered of the table is stale from here
        if self.deferred is None:
            self.deferred = {}
        waiting = self.deferred.get(table)
        if waiting is not None and waiting[0] != kind:
            self.flush_deferred()  # every table's, as before_statement
            waiting = None
        if waiting is None:
            self.deferred[table] = waiting = (kind, build, [])
            self.waiting_names = names_of(self.deferred)
        waiting[2].append(row)

    def defer_insert(self, table: str, values: dict[str, Any]) -> None:
        """Insert a row whose id nobody reads, with the table's other such rows of the same columns."""
        columns = tuple(values)
        self.defer(table, columns, lambda rows: self._insert_statements(table, columns, rows), tuple(values.values()))

    def _insert_statements(self, table: str, columns: tuple[str, ...], rows: list[tuple[Any, ...]]) -> Statements:
        """Multi-row INSERTs of these rows, in order: the single-row INSERT of gm.store.sql.inserting
        (declared by the module whose rows these are, so compiled ahead: gm ingest writes its rows
        here and must not import SQLAlchemy, tests/test_startup_imports.py), its VALUES repeated."""
        rows = self._storable_rows(table, list(columns), rows)
        statement = inserting(table, columns, returning=False)
        return [rows_inserted(statement, self.kind, chunk)
                for chunk in (rows[i:i + ROWS_AT_ONCE] for i in range(0, len(rows), ROWS_AT_ONCE))]

    def _before_statement(self, sql: str) -> None:
        """``sql`` is about to run: write first the rows waiting, if it names a table of theirs.
        Every table's, not only those it names: rows of one table may name rows of another waiting
        too (a report its outbox row: gm.store.postgres.add_outbox_row), and on PostgreSQL they go
        in one statement anyway."""
        if self.deferred and self.waiting_names is not None and self.waiting_names.search(sql):
            self.flush_deferred()

    def flush_deferred(self, table: str | None = None) -> None:
        """Write the rows waiting for ``table``, or for every table (in one run_deferred)."""
        if not self.deferred:
            return
        tables = [table] if table is not None else list(self.deferred)
        statements: Statements = []
        for name in tables:
            waiting = self.deferred.pop(name, None)
            if waiting is not None:
                statements += waiting[1](waiting[2])
        self.waiting_names = names_of(self.deferred)
        if statements:
            self._run_deferred(statements)

    def _run_deferred(self, statements: Statements) -> None:
        """Run these statements (in order); a back end may join them (gm.store.postgres)."""
        for sql, params in statements:
            self.db.execute(sql, params)

    def _drop_deferred(self) -> None:
        """The transaction began or rolled back: nothing waits."""
        self.deferred = None
        self.waiting_names = None


# Rows in one multi-row INSERT: within SQLite's oldest limit of parameters (999) for a table's
# columns, and far within PostgreSQL's (65,535).
ROWS_AT_ONCE = 60


def names_of(deferred: dict[str, Any] | None) -> re.Pattern[str] | None:
    return re.compile(r"\b(?:%s)\b" % "|".join(deferred), re.IGNORECASE) if deferred else None
