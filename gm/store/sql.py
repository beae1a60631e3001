"""SQLAlchemy Core statements compiled once per dialect, run on the store's own driver connection.

A statement is declared with the tables of gm.store.tables and compiled, at its first use on a
back end, into that dialect's SQL text: SQLite's with ``:name`` parameters (sqlite3's "named"
style), PostgreSQL's with ``%(name)s`` (psycopg's "pyformat").  The text is kept, and each run
hands it and a dict of parameters to the store's connection (``store.db``: sqlite3, or psycopg
past gm.store.dialect's translator, which this SQL needs no more), as the hand-written SQL goes:
no SQLAlchemy Engine or Connection on the way, so a statement costs what the driver costs.

Nothing here imports SQLAlchemy until a statement is first run: gm's start-up never loads it
(tests/test_startup_imports.py).  So a statement is given as a function of the SQLAlchemy module
and gm.store.tables, building it when it is first needed::

    DAEMON = prepared(lambda sa, t: sa.select(t.daemons).where(t.daemons.c.daemon_id == sa.bindparam("id")))
    DAEMON.run(store, id="host:1:ab").fetchone()

Constants in a statement (``== 0``, ``.in_(("a", "b"))``) are bound at compile time and passed
along with every run; parameters named with ``bindparam`` are the caller's.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable


def dialect_named(name: str) -> Any:
    """The SQLAlchemy dialect of a back end (Store.kind), with its driver's parameter style."""
    if name == "sqlite":
        from sqlalchemy.dialects.sqlite.pysqlite import SQLiteDialect_pysqlite

        return SQLiteDialect_pysqlite(paramstyle="named")
    if name == "postgresql":
        from sqlalchemy.dialects.postgresql.psycopg import PGDialect_psycopg

        from sqlalchemy.engine.interfaces import BindTyping

        dialect = PGDialect_psycopg(paramstyle="pyformat")
        dialect.bind_typing = BindTyping.NONE  # %(name)s as written, no ::VARCHAR: the server knows the column
        return dialect
    raise ValueError(f"no SQL dialect for a {name!r} store")


class Prepared:
    """One Core statement: built at first use, compiled once per dialect, run with a dict."""

    __slots__ = ("build", "statement", "compiled")

    def __init__(self, build: Callable[[Any, Any], Any]):
        self.build = build
        self.statement: Any = None
        self.compiled: dict[str, tuple[str, dict[str, Any]]] = {}  # dialect -> (SQL, constants)

    def sql(self, dialect: str) -> tuple[str, dict[str, Any]]:
        """The statement's SQL text on this dialect, and the values of the constants it binds."""
        done = self.compiled.get(dialect)
        if done is None:
            if self.statement is None:
                import sqlalchemy

                from gm.store import tables

                self.statement = self.build(sqlalchemy, tables)
            compiled = self.statement.compile(dialect=dialect_named(dialect))
            callers = {b.key for b in iter_binds(self.statement) if b.required}  # given at each run
            # and those a traversal does not reach (the rows of a multi-row INSERT's VALUES)
            callers |= {key for key, b in compiled.binds.items() if b.required}
            # a constant IN list is spelled out here, once, as parameters of its own
            expanded = compiled.construct_expanded_state({key: None for key in callers})
            constants = {k: v for k, v in expanded.parameters.items() if k not in callers}
            done = self.compiled[dialect] = (expanded.statement, constants)
        return done

    def run(self, store: Any, **params: Any) -> Any:
        """Run on the store's connection (inside its transaction, if one is open); the cursor."""
        kind = store.kind
        sql, constants = self.compiled.get(kind) or self.sql(kind)
        if constants:
            params.update(constants)  # their names (status_1, ...) are never a caller's
        if kind == "postgresql":  # PostgreSQL's own SQL, past the translator; booleans as 0/1
            return store.db.raw(sql, {k: int(v) if isinstance(v, bool) else v for k, v in params.items()})
        return store.db.execute(sql, params)


def iter_binds(statement: Any) -> Any:
    """Every bound parameter in a statement."""
    from sqlalchemy.sql import visitors
    from sqlalchemy.sql.elements import BindParameter

    return (node for node in visitors.iterate(statement) if isinstance(node, BindParameter))


def prepared(build: Callable[[Any, Any], Any]) -> Prepared:
    """A statement built by ``build(sqlalchemy, gm.store.tables)`` at its first use."""
    return Prepared(build)


def table_named(sa: Any, t: Any, name: str, columns: Iterable[str] = ()) -> Any:
    """The table ``name`` as gm.store.tables declares it; where it lacks one of ``columns`` (a
    store at an older schema step: tests/store/old_stores.py fills those), the bare names given."""
    table = t.metadata.tables.get(name)
    columns = tuple(columns)
    if table is not None and all(c in table.c for c in columns):
        return table
    return sa.table(name, *(sa.column(c) for c in columns))
