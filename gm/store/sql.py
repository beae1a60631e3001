"""SQLAlchemy Core statements compiled once per dialect, run on the store's own driver connection.

A statement is a builder over gm.store.tables, ``prepared(lambda sa, t: ...)``, compiled at first
use into the dialect's SQL (``:name`` or psycopg's ``%(name)s``) and run with a dict on ``store.db``,
no SQLAlchemy Engine on the way.  ``bindparam`` names the caller's parameters, ``lists=`` its IN
lists, ``postgresql=`` a dialect's own builder; other constants are bound when compiled.

Compiled ahead: gm/store/compiled_sql.py holds every held statement's SQL on both dialects
(`python -m gm.store.sql`; tests/store/test_sql.py fails while it is stale), so that `gm ingest`,
run by the MTA once per mail, never imports SQLAlchemy.  It pays: loading it costs about 20 ms of
CPU, while importing SQLAlchemy and gm.store.tables costs about 450 ms, and an order mail's ingest
without the file took 0.65 s more CPU (median of 5 runs: 2.28 s against 1.63 s).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Protocol

DIALECTS = ("sqlite", "postgresql")
UNKNOWN = object()  # a statement's name, not yet looked for


def dialect_named(name: str) -> Any:
    """The SQLAlchemy dialect of a back end (Store.kind), with its driver's parameter style."""
    if name == "sqlite":
        from sqlalchemy.dialects.sqlite.pysqlite import SQLiteDialect_pysqlite

        return SQLiteDialect_pysqlite(paramstyle="named")
    if name == "postgresql":
        from sqlalchemy.dialects.postgresql.psycopg import PGDialect_psycopg
        from sqlalchemy.engine.interfaces import BindTyping

        dialect = PGDialect_psycopg(paramstyle="pyformat")  # type: ignore[no-untyped-call]
        dialect.bind_typing = BindTyping.NONE  # %(name)s as written, no ::VARCHAR: the server knows the column
        return dialect
    raise ValueError(f"no SQL dialect for a {name!r} store")


class Builder(Protocol):
    """A statement's builder: ``build(sqlalchemy, gm.store.tables)``, the Core statement."""

    def __call__(self, sa: Any, t: Any, /) -> Any: ...


class Row(Protocol):
    """A result row on either back end (sqlite3.Row, gm.store.pgrows.Row): a value by column name
    (case-insensitive) or by index; its column names; its values in order."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def keys(self) -> list[str]: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...


class Cursor(Protocol):
    """What running a statement gives on either back end (sqlite3's cursor, psycopg's)."""

    @property
    def rowcount(self) -> int: ...

    @property
    def lastrowid(self) -> int | None: ...

    @property
    def description(self) -> Any: ...  # the columns of its rows; None for a statement giving none

    def fetchone(self) -> Row | None: ...

    def fetchall(self) -> list[Row]: ...

    def __iter__(self) -> Iterator[Row]: ...

    def close(self) -> None: ...


def single(cursor: Cursor) -> Row:
    """The one row of a statement that always gives one (an aggregate without GROUP BY: COUNT, MAX)."""
    row = cursor.fetchone()
    if row is None:
        raise LookupError("an aggregate gave no row")
    return row


class Connection(Protocol):
    """The store's connection (gm.store.reads.WatchedConnection): portable SQL, or the back end's own."""

    def execute(self, sql: str, params: Any = ..., /) -> Cursor: ...

    def raw(self, sql: str, params: Any = ..., /) -> Cursor: ...


class Connected(Protocol):
    """A store a statement runs on: its back end's name (Store.kind) and its connection."""

    @property
    def kind(self) -> str: ...

    @property
    def db(self) -> Connection: ...


class Prepared:
    """One Core statement: built at first use, compiled once per dialect, run with a dict."""

    __slots__ = ("build", "statement", "compiled", "name", "builders", "lists", "spelled")

    def __init__(self, build: Builder, lists: tuple[str, ...] = (), **builders: Builder):
        self.build = build
        self.statement: Any = None
        self.compiled: dict[str, tuple[str, dict[str, Any]]] = {}  # dialect -> (SQL, constants)
        self.name: Any = UNKNOWN
        self.builders = builders  # dialect -> its own builder, where its statement differs
        self.lists = lists  # the caller's expanding parameters
        self.spelled: dict[tuple[Any, ...], str] = {}  # (dialect, each list's length) -> the SQL spelled out

    def sql(self, dialect: str) -> tuple[str, dict[str, Any]]:
        """The statement's SQL text on this dialect, and the values of the constants it binds."""
        done = self.compiled.get(dialect)
        if done is None:
            if self.name is UNKNOWN:
                self.name = name_of(self)
            ahead = ahead_of_time().get(self.name, {}).get(dialect) if self.name else None
            done = (ahead[0], dict(ahead[1])) if ahead is not None else self.compile(dialect)
            self.compiled[dialect] = done
        return done

    def built(self, dialect: str) -> Any:
        """The Core statement on this dialect (its own builder's, if it has one)."""
        import sqlalchemy

        from gm.store import tables

        own = self.builders.get(dialect)
        if own is not None:
            return own(sqlalchemy, tables)
        if self.statement is None:
            self.statement = self.build(sqlalchemy, tables)
        return self.statement

    def compile(self, dialect: str, lists: dict[str, list[Any]] | None = None) -> tuple[str, dict[str, Any]]:
        """The SQL text compiled now by SQLAlchemy (imported here), and the constants' values;
        each of the caller's lists spelled out for one item (``lists``: for these items)."""
        statement = self.built(dialect)
        binds = list(iter_binds(statement))
        callers = {b.key for b in binds if b.required}  # given at each run
        expanding = {b.key for b in binds if b.required and b.expanding}
        if expanding != set(self.lists):
            raise ValueError(f"the lists named {sorted(self.lists)} are not the statement's {sorted(expanding)}")
        values = {key: [None] for key in expanding} | (lists or {})
        compiled = statement.compile(dialect=dialect_named(dialect))
        # and those a traversal does not reach (the rows of a multi-row INSERT's VALUES)
        callers |= {key for key, b in compiled.binds.items() if b.required}
        # a constant IN list is spelled out here, once, as parameters of its own
        expanded = compiled.construct_expanded_state({key: values.get(key) for key in callers})
        given = callers | {name for key in expanding for name in expanded.parameter_expansion.get(key, ())}
        return expanded.statement, {k: v for k, v in expanded.parameters.items() if k not in given}

    def spell_out(self, dialect: str, sql: str, params: dict[str, Any]) -> str:
        """``sql`` with each list in ``params`` spelled out, one parameter an item (``name_1...``)."""
        lists = {name: list(params.pop(name)) for name in self.lists}
        shape = (dialect, *(len(items) for items in lists.values()))
        done = self.spelled.get(shape)
        if done is None:
            if not all(lists.values()):  # SQLAlchemy's empty IN, a condition of its own per dialect
                done = self.compile(dialect, lists)[0]
            else:
                done = sql
                for name, items in lists.items():
                    done = re.sub(re.escape(mark(dialect, f"{name}_1")) + r"(?!\w)", ", ".join(
                        mark(dialect, f"{name}_{i}") for i in range(1, len(items) + 1)), done)
            self.spelled[shape] = done
        for name, items in lists.items():
            params.update({f"{name}_{i}": item for i, item in enumerate(items, 1)})
        return done

    def run(self, store: Connected, **params: Any) -> Cursor:
        """Run on the store's connection (inside its transaction, if one is open); the cursor."""
        kind = store.kind
        sql, constants = self.compiled.get(kind) or self.sql(kind)
        if self.lists:
            sql = self.spell_out(kind, sql, params)
        if constants:
            params.update(constants)  # their names (status_1, ...) are never a caller's
        if kind == "postgresql":  # PostgreSQL's own SQL (not portable text); booleans as 0/1
            return store.db.raw(sql, {k: int(v) if isinstance(v, bool) else v for k, v in params.items()})
        return store.db.execute(sql, params)


PORTABLE: dict[str, str] = {}  # portable text -> PostgreSQL's


def portable(sql: str) -> str:
    """Portable SQL with ``:name`` parameters (the text SQLite runs as written) as psycopg takes it:
    compiled by SQLAlchemy's ``text()`` (``%(name)s``, a literal % doubled), once a text.  For SQL
    written by hand outside the store's statements (tests, one-off tools, the schema steps'
    Python): the store's own statements are Core, compiled ahead."""
    done = PORTABLE.get(sql)
    if done is None:
        import sqlalchemy

        done = PORTABLE[sql] = str(sqlalchemy.text(sql).compile(dialect=dialect_named("postgresql")))
    return done


def mark(dialect: str, name: str) -> str:
    """A parameter as the dialect's driver style writes it."""
    return f"%({name})s" if dialect == "postgresql" else f":{name}"


def constant(sa: Any, value: Any) -> Any:
    """A constant written into the SQL text, not bound: a partial index (outbox_untrimmed,
    delivery_events_unsettled) serves a query that states its condition with the same constants,
    which a prepared statement's generic plan on PostgreSQL (psycopg prepares one run five
    times) cannot tell of a parameter."""
    return sa.literal(value, literal_execute=True)


def iter_binds(statement: Any) -> Any:
    """Every bound parameter in a statement."""
    from sqlalchemy.sql import visitors
    from sqlalchemy.sql.elements import BindParameter

    return (node for node in visitors.iterate(statement) if isinstance(node, BindParameter))


def prepared(build: Builder, lists: tuple[str, ...] = (), **builders: Builder) -> Prepared:
    """A statement built by ``build(sqlalchemy, gm.store.tables)`` at its first use; ``lists``: the
    caller's expanding parameters; ``builders``: a dialect's own (``postgresql=...``), where its
    statement differs."""
    return Prepared(build, lists, **builders)


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
            target = t.metadata.tables[table]
            row = insert_of(dialect)(target).values({c.name: sa.bindparam(c.name) for c in target.c})
            return row.on_conflict_do_update(index_elements=list(keys), set_={
                c.name: row.excluded[c.name] for c in target.c if c.name not in keys})
        return statement

    return prepared(build("sqlite"), postgresql=build("postgresql"))


def insert_of(dialect: str) -> Callable[[Any], Any]:
    """The dialect's own ``insert`` (SQLite's, PostgreSQL's): the one with ON CONFLICT."""
    from importlib import import_module

    insert: Callable[[Any], Any] = import_module(f"sqlalchemy.dialects.{dialect}").insert
    return insert


def table_named(sa: Any, t: Any, name: str, columns: Iterable[str] = ()) -> Any:
    """The table ``name`` as gm.store.tables declares it; where it lacks one of ``columns`` (a
    store at an older schema step: tests/store/old_stores.py fills those), the bare names given."""
    table = t.metadata.tables.get(name)
    columns = tuple(columns)
    if table is not None and all(c in table.c for c in columns):
        return table
    return sa.table(name, *(sa.column(c) for c in columns))


def name_of(statement: Prepared) -> str | None:
    """``module:NAME`` (or ``module:NAME[key]``) of a statement held at module level, else None: in
    the module its builder comes from, else (a statement made by a helper here: upsert) the first
    of gm.store's modules, by name, that holds it, as held_statements names it."""
    home = sys.modules.get(statement.build.__module__)
    found = held_in(home, statement) if home is not None else None
    if found is None:
        for name in sorted(n for n in sys.modules if n.startswith("gm.store.") and n != home_name(home)):
            found = held_in(sys.modules[name], statement)
            if found is not None:
                break
    return found


def home_name(module: Any) -> str | None:
    return module.__name__ if module is not None else None


def held_in(module: Any, statement: Prepared) -> str | None:
    for name, value in vars(module).items():
        if value is statement:
            return f"{module.__name__}:{name}"
        if isinstance(value, dict):
            for key, held in value.items():
                if held is statement:
                    return f"{module.__name__}:{name}[{key}]"
    return None


Compiled = dict[str, dict[str, tuple[str, dict[str, Any]]]]  # name -> dialect -> (SQL, constants)
AHEAD: Compiled | None = None


def ahead_of_time() -> Compiled:
    """gm/store/compiled_sql.py's statements: name -> dialect -> (SQL, constants)."""
    global AHEAD
    if AHEAD is None:
        try:
            from gm.store.compiled_sql import STATEMENTS
        except ImportError:  # not written yet: every statement is compiled at its first run
            STATEMENTS = {}
        AHEAD = STATEMENTS
    return AHEAD


def held_statements() -> Iterator[tuple[str, Prepared]]:
    """Every statement held at module level in gm.store's modules (imported here), by name (name_of):
    first those built in the module that holds them, then those a helper made (by the module's name)."""
    import importlib
    import pkgutil

    modules = [importlib.import_module(f"gm.store.{info.name}")
               for info in sorted(pkgutil.iter_modules([str(Path(__file__).parent)]), key=lambda i: i.name)
               if info.name != "compiled_sql"]
    seen: set[int] = set()
    for own in (True, False):
        for module in modules:
            for name, value in sorted(vars(module).items()):
                held = value.items() if isinstance(value, dict) else [(None, value)]
                for key, statement in held:
                    if not isinstance(statement, Prepared) or id(statement) in seen:
                        continue
                    if (statement.build.__module__ == module.__name__) != own:
                        continue
                    seen.add(id(statement))
                    yield f"{module.__name__}:{name}" + ("" if key is None else f"[{key}]"), statement


def compiled_ahead() -> Compiled:
    """What gm/store/compiled_sql.py should hold: every held statement compiled on both dialects."""
    return {name: {dialect: statement.compile(dialect) for dialect in DIALECTS}
            for name, statement in held_statements()}


def write_compiled(path: Path | None = None) -> Path:
    path = path or Path(__file__).with_name("compiled_sql.py")
    lines = ['"""Generated by `python -m gm.store.sql` from the statements of gm.store: do not edit.', "",
             "Each statement's SQL on each dialect, and the constants it binds.  Committed because it pays:",
             "`gm ingest` of an order mail reads it in about 20 ms of CPU; without it, importing SQLAlchemy",
             "and compiling the statements at first use took 0.65 s more (median of 5 runs; gm.store.sql).",
             '"""', "",
             "from typing import Any", "",
             "STATEMENTS: dict[str, dict[str, tuple[str, dict[str, Any]]]] = {"]
    for name, dialects in compiled_ahead().items():
        lines.append(f"    {name!r}: {{")
        for dialect, (sql, constants) in dialects.items():
            lines.append(f"        {dialect!r}: ({sql!r},")
            lines.append(f"            {constants!r}),")
        lines.append("    },")
    lines.append("}")
    path.write_text("\n".join(lines) + "\n")
    return path


if __name__ == "__main__":  # the module's own copy (not __main__'s) knows gm.store's statements
    from gm.store import sql

    print(sql.write_compiled())


# --- statements made from names: a table and its columns (Store.insert_row, Store.update_rows) ---
class Shaped(Prepared):
    """An INSERT or UPDATE made from a table's name and column names (inserting, updating): the
    table it writes, for what a back end does by table (gm.store.pgrows.storable)."""

    __slots__ = ("table", "columns")
    table: str
    columns: tuple[str, ...]


# shape -> (the statement,): one statement a shape, whether a module declares it (compiled ahead, by
# the module's name for it) or a generic caller makes it at run time; a 1-tuple, so that name_of
# finds a declared one where its module holds it, not here
SHAPED: dict[tuple[Any, ...], tuple[Shaped]] = {}


def shaped(key: tuple[Any, ...], table: str, columns: tuple[str, ...], build: Callable[[Any, Any], Any],
           **builders: Callable[[Any, Any], Any]) -> Shaped:
    done = SHAPED.get(key)
    if done is None:
        statement = Shaped(build, (), **builders)
        statement.table, statement.columns = table, columns
        done = SHAPED[key] = (statement,)
    return done[0]


def inserting(table: str, columns: Iterable[str], returning: bool = True) -> Shaped:
    """``INSERT INTO table (columns) VALUES (:column, ...)``, a parameter named as each column; on
    PostgreSQL ``RETURNING`` the table's identity column, where it has one and ``returning`` (the new
    row's id: SQLite's is the cursor's lastrowid).  ``returning=False``: the single row that
    rows_inserted repeats for many."""
    columns = tuple(columns)

    def build(returns: bool) -> Callable[[Any, Any], Any]:
        def statement(sa: Any, t: Any) -> Any:
            target = table_named(sa, t, table, columns)
            insert = sa.insert(target).values({c: sa.bindparam(c) for c in columns})
            identity = getattr(target, "autoincrement_column", None)
            # inline: no RETURNING of the key but the one asked for (PostgreSQL's compiler adds one)
            return insert.returning(identity) if returns and identity is not None else insert.inline()
        return statement

    return shaped(("insert", table, columns, returning), table, columns, build(False),
                  postgresql=build(returning))


def updating(table: str, where: Iterable[str], set: Iterable[str]) -> Shaped:  # noqa: A002 (SQL's word)
    """``UPDATE table SET column = :column ... WHERE column = :column AND ...``: the rows whose
    ``where`` columns equal the parameters named so, their ``set`` columns to those named so."""
    where, set = tuple(where), tuple(set)
    if not where or not set or {*where} & {*set}:
        raise ValueError(f"UPDATE {table}: a column both set and matched, or none of either")

    def build(sa: Any, t: Any) -> Any:
        target = table_named(sa, t, table, (*where, *set))
        return sa.update(target).where(*(target.c[c] == sa.bindparam(c) for c in where)).values(
            {c: sa.bindparam(c) for c in set})

    return shaped(("update", table, where, set), table, (*where, *set), build)


def bound(statement: Prepared, dialect: str, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The statement's SQL on this dialect and its parameters (with its constants; on PostgreSQL
    booleans as 0/1), to run later, or joined with others (gm.store.deferred)."""
    sql, constants = statement.compiled.get(dialect) or statement.sql(dialect)
    if dialect == "postgresql":
        params = {k: int(v) if isinstance(v, bool) else v for k, v in params.items()}
    return sql, {**params, **constants} if constants else params


ROWS_SQL: dict[tuple[Any, ...], tuple[str, list[list[str]]]] = {}  # (statement, dialect, rows) -> (SQL, names a row)


def rows_inserted(statement: Shaped, dialect: str, rows: list[tuple[Any, ...]]) -> tuple[str, dict[str, Any]]:
    """One multi-row INSERT of ``rows`` (values in ``statement.columns``' order) from the compiled
    single-row INSERT of ``inserting(..., returning=False)``: its VALUES group repeated, each row's
    parameters renamed apart (``column__<row>``), as SQLAlchemy's own "insertmanyvalues" does."""
    key = (statement, dialect, len(rows))
    done = ROWS_SQL.get(key)
    if done is None:
        sql, constants = statement.compiled.get(dialect) or statement.sql(dialect)
        head, group = sql.rsplit(" VALUES ", 1)
        groups, names = [], []
        for i in range(len(rows)):
            text, renames = renamed(group, dialect, f"__{i}")
            groups.append(text)
            names.append([renames[c] for c in statement.columns])
        done = ROWS_SQL[key] = (f"{head} VALUES {', '.join(groups)}", names)
    sql, names = done
    params = {name: value for row_names, row in zip(names, rows) for name, value in zip(row_names, row)}
    if dialect == "postgresql":
        params = {k: int(v) if isinstance(v, bool) else v for k, v in params.items()}
    return sql, params


def renamed(sql: str, dialect: str, suffix: str) -> tuple[str, dict[str, str]]:
    """``sql`` with each parameter ``name`` written ``name<suffix>``, and the names so changed: one
    pass over the text, no regular expression (psycopg's ``%(name)s``, a literal % doubled; sqlite3's
    ``:name``, in SQL compiled by SQLAlchemy, where a colon begins nothing else outside a literal)."""
    out: list[str] = []
    names: dict[str, str] = {}
    i, start, n = 0, 0, len(sql)
    postgres = dialect == "postgresql"
    while i < n:
        c = sql[i]
        if c == "'":  # a string literal, as written (a doubled quote inside is two literals in a row)
            i = sql.index("'", i + 1) + 1
            continue
        if postgres and c == "%":
            if sql.startswith("%%", i):
                i += 2
                continue
            if sql.startswith("%(", i):
                end = sql.index(")s", i)
                name = sql[i + 2:end]
                names[name] = name + suffix
                out.append(sql[start:i])
                out.append(f"%({name}{suffix})s")
                i = start = end + 2
                continue
        elif not postgres and c == ":" and i + 1 < n and (sql[i + 1].isalnum() or sql[i + 1] == "_"):
            end = i + 1
            while end < n and (sql[end].isalnum() or sql[end] == "_"):
                end += 1
            name = sql[i + 1:end]
            names[name] = name + suffix
            out.append(sql[start:i])
            out.append(f":{name}{suffix}")
            i = start = end
            continue
        i += 1
    out.append(sql[start:])
    return "".join(out), names


def inserting_unless(table: str, columns: Iterable[str], exists: Callable[[Any, Any], Any]) -> Shaped:
    """``INSERT INTO table (columns) SELECT :column, ... WHERE NOT EXISTS (SELECT * FROM table WHERE
    exists(sa, t))``: one row, unless a row meets the condition (its own parameters); on PostgreSQL
    ``RETURNING`` the identity column (Store.insert_unless)."""
    columns = tuple(columns)

    def build(returns: bool) -> Callable[[Any, Any], Any]:
        def statement(sa: Any, t: Any) -> Any:
            target = table_named(sa, t, table, columns)
            row = sa.select(*(sa.bindparam(c) for c in columns)).where(~sa.exists().where(exists(sa, t)))
            insert = sa.insert(target).from_select(list(columns), row)
            identity = getattr(target, "autoincrement_column", None)
            return insert.returning(identity) if returns and identity is not None else insert.inline()
        return statement

    return shaped(("insert_unless", table, columns, exists), table, columns, build(False), postgresql=build(True))
