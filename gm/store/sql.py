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

import hashlib
import linecache
from pathlib import Path
from typing import Any, Callable


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


DECLARED: list[Prepared] = []  # every statement made, in order (write_texts compiles them ahead)


class Prepared:
    """One Core statement: built at first use, compiled once per dialect, run with a dict."""

    __slots__ = ("build", "statement", "compiled", "builds")

    def __init__(self, build: Callable[[Any, Any], Any], **builds: Callable[[Any, Any], Any]):
        self.build = build
        self.builds = builds  # dialect -> its own builder, where the statement differs (an upsert)
        self.statement: Any = None
        self.compiled: dict[str, tuple[str, dict[str, Any]]] = {}  # dialect -> (SQL, constants)
        DECLARED.append(self)

    def sql(self, dialect: str) -> tuple[str, dict[str, Any]]:
        """The statement's SQL text on this dialect, and the values of the constants it binds:
        compiled ahead (gm.store.sql_texts) where that is fresh, so SQLAlchemy is not loaded."""
        done = self.compiled.get(dialect)
        if done is None:
            done = self.compiled[dialect] = precompiled(self, dialect) or self.compile(dialect)
        return done

    def compile(self, dialect: str) -> tuple[str, dict[str, Any]]:
        """Compiled by SQLAlchemy, now."""
        import sqlalchemy

        from gm.store import tables

        if dialect in self.builds:
            statement = self.builds[dialect](sqlalchemy, tables)
        else:
            if self.statement is None:
                self.statement = self.build(sqlalchemy, tables)
            statement = self.statement
        callers = {b.key for b in iter_binds(statement) if b.required}  # given at each run
        # a constant IN list is spelled out here, once, as parameters of its own
        expanded = statement.compile(dialect=dialect_named(dialect)).construct_expanded_state(
            {key: None for key in callers})
        constants = {k: v for k, v in expanded.parameters.items() if k not in callers}
        return expanded.statement, constants

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


def prepared(build: Callable[[Any, Any], Any], **builds: Callable[[Any, Any], Any]) -> Prepared:
    """A statement built by ``build(sqlalchemy, gm.store.tables)`` at its first use; ``builds``:
    a dialect's own builder (``postgresql=...``), where its statement is not the same Core construct
    (an insert's ON CONFLICT comes from the dialect's own insert)."""
    return Prepared(build, **builds)


def whole_rows(sa: Any, table: Any) -> Any:
    """``SELECT * FROM table``: every column the store holds, as the hand-written SQL read a whole row
    (a store at an older schema step, while it is upgraded or in a test of one, lacks columns
    tables.py declares: state_packing before step 21, players.format in a store made at step 5)."""
    return sa.select(sa.literal_column("*")).select_from(table)


def upsert(table: str, *keys: str) -> Prepared:
    """SQLite's ``INSERT OR REPLACE`` of a whole row of ``table`` (parameters named as its columns),
    as each dialect's own ``INSERT ... ON CONFLICT (keys) DO UPDATE``: the same, where ``keys`` (the
    primary key) is the table's one unique constraint, as every column is given."""

    def build(dialect: str) -> Callable[[Any, Any], Any]:
        def statement(sa: Any, t: Any) -> Any:
            from importlib import import_module

            target = t.metadata.tables[table]
            row = import_module(f"sqlalchemy.dialects.{dialect}").insert(target).values(
                {c.name: sa.bindparam(c.name) for c in target.c})
            return row.on_conflict_do_update(index_elements=list(keys), set_={
                c.name: row.excluded[c.name] for c in target.c if c.name not in keys})
        return statement

    return prepared(build("sqlite"), postgresql=build("postgresql"))


# --- compiled ahead: `gm ingest` (one process per mail) runs statements without loading SQLAlchemy ---
# gm.store.sql_texts holds the SQL of every statement declared at import, compiled for both dialects
# by write_texts and kept by a fingerprint of what makes the statement: the source of its builders
# (and of the helpers and the values they use) and of gm.store.tables.  A statement changed since
# matches no fingerprint and is compiled by SQLAlchemy as before, never run stale;
# tests/store/test_sql_texts.py fails until the texts are written again.
TEXTS_MODULE = Path(__file__).with_name("sql_texts.py")
PLAIN = (str, int, float, bool, type(None))


def precompiled(statement: Prepared, dialect: str) -> tuple[str, dict[str, Any]] | None:
    from gm.store.sql_texts import TEXTS

    entry = TEXTS.get(fingerprint(statement) or "")
    return None if entry is None or dialect not in entry else entry[dialect]


def fingerprint(statement: Prepared) -> str | None:
    """What makes ``statement``, without SQLAlchemy; None where a value it uses has no stable form."""
    parts = [tables_digest()]
    for dialect, build in (("", statement.build), *sorted(statement.builds.items())):
        source = source_of(build, 2)
        if source is None:
            return None
        parts.append(f"{dialect}:{source}")
    return hashlib.sha1("\n".join(parts).encode()).hexdigest()


DIGESTS: dict[str, str] = {}


def tables_digest() -> str:
    """The tables, and how a statement is compiled (dialect_named, Prepared.compile): this module."""
    if "tables" not in DIGESTS:
        DIGESTS["tables"] = hashlib.sha1(b"".join(Path(__file__).with_name(name).read_bytes()
                                                  for name in ("tables.py", "sql.py"))).hexdigest()
    return DIGESTS["tables"]


def source_of(function: Any, depth: int) -> str | None:
    """A function's own source (from the positions of its code, so not its line number), the values
    it closes over or defaults to, and the plain values and functions of its module it names."""
    code = getattr(function, "__code__", None)
    if code is None:
        return None
    lines = linecache.getlines(code.co_filename)
    codes, names, spans = [code], [], []
    while codes:
        each = codes.pop()
        names += each.co_names
        codes += [c for c in each.co_consts if hasattr(c, "co_positions")]
        spans += [(p[0], p[2], p[1], p[3]) for p in each.co_positions() if None not in p]
    if not lines or not spans:
        return None
    (first, col, _, _), (_, _, last, end) = min(spans), max(spans, key=lambda s: (s[2], s[3]))
    text = b"".join(line.encode() for line in lines[first - 1:last])
    text = text[col:len(text) - len(lines[last - 1].encode()) + end]
    values = [*(function.__defaults__ or ()), *(function.__kwdefaults__ or {}).items(),
              *(cell.cell_contents for cell in function.__closure__ or ())]
    used = []
    for name in dict.fromkeys(names):
        value = function.__globals__.get(name, ...)
        if isinstance(value, PLAIN):
            used.append((name, value))
        elif depth and hasattr(value, "__code__"):
            source = source_of(value, depth - 1)
            if source is None:
                return None
            used.append((name, source))
    if not all(plain(v) for v in values):
        return None
    return f"{function.__module__}\n{text.decode()}\n{values!r}\n{used!r}"


def plain(value: Any) -> bool:
    if isinstance(value, (list, tuple, frozenset, set)):
        return all(plain(v) for v in value)
    if isinstance(value, dict):
        return all(plain(k) and plain(v) for k, v in value.items())
    return isinstance(value, PLAIN)


def compiled_texts() -> dict[str, dict[str, tuple[str, dict[str, Any]]]]:
    """fingerprint -> dialect -> (SQL, constants) of every statement declared so far (import gm.store
    first: its modules declare them at import)."""
    texts = {}
    for statement in DECLARED:
        key = fingerprint(statement)
        if key is not None:
            texts[key] = {dialect: statement.compile(dialect) for dialect in ("sqlite", "postgresql")}
    return texts


def write_texts() -> None:
    """Compile every statement declared so far ahead, into gm.store.sql_texts: after changing one,
    tables.py or this module, ``python -c 'import gm.store, gm.store.sql as s; s.write_texts()'``."""
    lines = ['"""SQL compiled ahead by gm.store.sql.write_texts: do not edit; write it again."""',
             "# ruff: noqa: E501", "", "TEXTS = {"]
    for key, texts in sorted(compiled_texts().items()):
        lines.append(f"    {key!r}: {{")
        lines += [f"        {dialect!r}: ({sql!r}, {constants!r})," for dialect, (sql, constants) in texts.items()]
        lines.append("    },")
    lines.append("}")
    TEXTS_MODULE.write_text("\n".join(lines) + "\n")
