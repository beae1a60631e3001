"""A schema step's DDL on PostgreSQL, compiled by SQLAlchemy from gm.store.tables.

    NewTable   CREATE TABLE of the table as it was at the step (the columns no later step added),
               with its keys, uniques, references and checks among them
    NewColumn  ALTER TABLE .. ADD COLUMN with SQLAlchemy's column specification and the table's
               checks on it (SQLAlchemy Core has no ALTER construct)
    NewIndex   CREATE INDEX of the index by that name (its WHERE, if partial)
    Portable   the portable SQL as written (run through gm.store.sql.portable)

Constraints stay unnamed, so PostgreSQL names them as it named the shipped DDL's (players_pkey,
states_state_packing_check); tests/store/test_pg_steps.py holds every step to that DDL.
Imported at migration time only: opening an up-to-date store never loads SQLAlchemy.
"""

from __future__ import annotations

import re
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql.psycopg import PGDialect_psycopg

from gm.store import tables
from gm.store.changes import Change, NewColumn, NewIndex, NewTable, Portable, Step

DIALECT = PGDialect_psycopg()  # type: ignore[no-untyped-call]


def statements(step: Step) -> list[tuple[str, bool]]:
    """A step's PostgreSQL statements in order, each with whether it is portable SQL (run by the
    connection's ``execute`` with a dict) or PostgreSQL's own (``raw``)."""
    if step.sql.strip() and not step.postgresql:  # never a step run on SQLite alone
        raise ValueError(f"schema step {step.number} names no changes on PostgreSQL (Step.postgresql)")
    return [(change.sql, True) if isinstance(change, Portable) else (statement(change, step.number), False)
            for change in step.postgresql]


def statement(change: Change, step: int | None = None) -> str:
    """One change's DDL on PostgreSQL; a table as it was at ``step`` (None: as it is now)."""
    if isinstance(change, NewTable):
        create = sa.schema.CreateTable(projection(change.table, step), if_not_exists=change.if_not_exists)
        return str(create.compile(dialect=DIALECT)).strip()
    if isinstance(change, NewColumn):
        table = tables.metadata.tables[change.table]
        column = table.c[change.column]
        compiler = DIALECT.ddl_compiler(DIALECT, None)  # type: ignore[arg-type]
        spec = " ".join([compiler.get_column_specification(column),  # type: ignore[no-untyped-call]
                         *(f"CHECK ({check.sqltext})" for check in checks_on(table, {change.column}))])
        return f"ALTER TABLE {compiler.preparer.format_table(table)} ADD COLUMN {spec}"
    if isinstance(change, NewIndex):
        index = next(ix for table in tables.metadata.tables.values() for ix in table.indexes
                     if ix.name == change.name)
        return str(sa.schema.CreateIndex(index).compile(dialect=DIALECT)).strip()
    raise TypeError(f"not a DDL change: {change!r}")


def projection(name: str, step: int | None) -> sa.Table:
    """The table of gm.store.tables as it was made at ``step``: without the columns a later step
    added (``info["added"]``), in its own order (a copy)."""
    table = tables.metadata.tables[name]
    names = {c.name for c in table.columns if step is None or c.info.get("added", 0) <= step}
    columns = [copy(c) for c in table.columns if c.name in names]
    checks = [sa.CheckConstraint(str(check.sqltext)) for check in checks_on(table, names)]
    return sa.Table(table.name, sa.MetaData(), *columns, *checks)


def copy(column: sa.Column[Any]) -> sa.Column[Any]:
    """A column as declared in gm.store.tables, for another Table (its references point at the
    tables.py columns)."""
    extra: list[Any] = [sa.ForeignKey(fk.column) for fk in column.foreign_keys]
    if column.identity is not None:
        extra.append(sa.Identity(always=column.identity.always))
    default: Any = column.server_default.arg if isinstance(column.server_default, sa.DefaultClause) else None
    return sa.Column(column.name, column.type, *extra, primary_key=column.primary_key,
                     nullable=column.nullable, unique=column.unique, server_default=default,
                     autoincrement=column.identity is not None)


def checks_on(table: sa.Table, columns: set[str]) -> list[sa.CheckConstraint]:
    """The table's checks whose words name one of ``columns``."""
    return [c for c in table.constraints if isinstance(c, sa.CheckConstraint)
            and set(re.findall(r"\w+", str(c.sqltext))) & columns]
