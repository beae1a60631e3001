"""The PostgreSQL DDL of a schema step, compiled by SQLAlchemy from gm.store.tables.

A step names its changes on PostgreSQL (gm.store.changes: NewTable, NewColumn, NewIndex, Portable);
this module makes each one PostgreSQL's SQL, with the types, defaults, keys and checks that
gm.store.tables declares, compiled by SQLAlchemy's DDL constructs for the postgresql dialect:

    NewTable   CREATE TABLE of the table's named columns: the primary key, uniques, references
               and checks among them (SQLAlchemy's CreateTable of a projection of the table)
    NewColumn  ALTER TABLE .. ADD COLUMN and SQLAlchemy's column specification (type, DEFAULT,
               NOT NULL), then the table's checks on that column; SQLAlchemy Core has no ALTER
               construct, and Alembic's op.add_column renders the same words, so it is not needed
    NewIndex   CREATE INDEX of the index by that name (its WHERE, if partial)
    Portable   the portable SQL as written (run through gm.store.sql.portable)

The constraints keep the names PostgreSQL gave the shipped DDL (players_pkey,
messages_source_key_key, players_game_id_fkey, states_state_packing_check): SQLAlchemy leaves
them unnamed, as the shipped steps did.  tests/store/test_pg_steps.py holds the result, after
every step, to the DDL PostgreSQL stores in the field ran.

Imported at migration time only (it imports SQLAlchemy): opening an up-to-date store never does.
"""

from __future__ import annotations

import re
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql.psycopg import PGDialect_psycopg

from gm.store import tables
from gm.store.changes import Change, NewColumn, NewIndex, NewTable, Portable

DIALECT = PGDialect_psycopg()


def statements(step: Any) -> list[tuple[str, bool]]:
    """A gm.store.schema.Step's PostgreSQL statements in order, each with whether it is portable
    SQL (Portable: run by the connection's ``execute`` with a dict) or PostgreSQL's own (``raw``)."""
    if step.sql.strip() and not step.postgresql:  # never a step run on SQLite alone
        raise ValueError(f"schema step {step.number} names no changes on PostgreSQL (Step.postgresql)")
    return [(change.sql, True) if isinstance(change, Portable) else (statement(change), False)
            for change in step.postgresql]


def statement(change: Change) -> str:
    """One change's DDL on PostgreSQL."""
    if isinstance(change, NewTable):
        create = sa.schema.CreateTable(projection(change), if_not_exists=change.if_not_exists)
        return str(create.compile(dialect=DIALECT)).strip()
    if isinstance(change, NewColumn):
        table = tables.metadata.tables[change.table]
        column = table.c[change.column]
        compiler = DIALECT.ddl_compiler(DIALECT, None)
        spec = " ".join([compiler.get_column_specification(column),
                         *(f"CHECK ({check.sqltext})" for check in checks_on(table, {change.column}))])
        return f"ALTER TABLE {compiler.preparer.format_table(table)} ADD COLUMN {spec}"
    if isinstance(change, NewIndex):
        index = next(ix for table in tables.metadata.tables.values() for ix in table.indexes
                     if ix.name == change.name)
        return str(sa.schema.CreateIndex(index).compile(dialect=DIALECT)).strip()
    raise TypeError(f"not a DDL change: {change!r}")


def projection(change: NewTable) -> sa.Table:
    """The table of gm.store.tables with only the named columns, in its own order (a copy)."""
    table = tables.metadata.tables[change.table]
    names = change.columns.split()
    unknown = set(names) - set(table.c.keys())
    if unknown:
        raise KeyError(f"{change.table} has no columns {sorted(unknown)} in gm.store.tables")
    columns = [copy(c) for c in table.columns if c.name in names]
    checks = [sa.CheckConstraint(str(check.sqltext)) for check in checks_on(table, set(names))]
    return sa.Table(table.name, sa.MetaData(), *columns, *checks)


def copy(column: sa.Column) -> sa.Column:
    """A column as declared in gm.store.tables, for another Table (its references point at the
    tables.py columns)."""
    extra: list[Any] = [sa.ForeignKey(fk.column) for fk in column.foreign_keys]
    if column.identity is not None:
        extra.append(sa.Identity(always=column.identity.always))
    default = column.server_default.arg if isinstance(column.server_default, sa.DefaultClause) else None
    return sa.Column(column.name, column.type, *extra, primary_key=column.primary_key,
                     nullable=column.nullable, unique=column.unique, server_default=default,
                     autoincrement=column.identity is not None)


def checks_on(table: sa.Table, columns: set[str]) -> list[sa.CheckConstraint]:
    """The table's checks whose words name one of ``columns``."""
    return [c for c in table.constraints if isinstance(c, sa.CheckConstraint)
            and set(re.findall(r"\w+", str(c.sqltext))) & columns]
