"""What a schema step changes on PostgreSQL, named in terms of gm.store.tables (gm.store.schema's
``Step.postgresql``), for gm.store.pgsteps to compile.  Plain data: gm.store.schema, which every
store opening imports, declares its steps with these without loading SQLAlchemy."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class NewTable:
    """PostgreSQL: create ``table`` of gm.store.tables with these of its columns (names, space-separated),
    its keys, uniques, references and checks among them, as the step's SQL made it."""
    table: str
    columns: str
    if_not_exists: bool = False


@dataclass(frozen=True)
class NewColumn:
    """PostgreSQL: add ``table.column`` of gm.store.tables (with the checks on it)."""
    table: str
    column: str


@dataclass(frozen=True)
class NewIndex:
    """PostgreSQL: create the index ``name`` of gm.store.tables."""
    name: str


@dataclass(frozen=True)
class Portable:
    """PostgreSQL: portable SQL run as written (gm.store.sql.portable): rows a step changes, or a
    statement that is the same on both back ends."""
    sql: str


Change = NewTable | NewColumn | NewIndex | Portable
