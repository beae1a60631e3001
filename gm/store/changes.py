"""A schema step, and what it changes on PostgreSQL in terms of gm.store.tables.

Plain data: every store opening imports the steps (gm.store.steps) without loading SQLAlchemy;
gm.store.pgsteps compiles the changes when a PostgreSQL store migrates.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class NewTable:
    """Create ``table`` of gm.store.tables with the columns it had at this step (those no later step
    added), its keys, uniques, references and checks among them."""
    table: str
    if_not_exists: bool = False


@dataclass(frozen=True)
class NewColumn:
    """Add ``table.column`` of gm.store.tables (with the checks on it)."""
    table: str
    column: str


@dataclass(frozen=True)
class NewIndex:
    """Create the index ``name`` of gm.store.tables."""
    name: str


@dataclass(frozen=True)
class Portable:
    """Portable SQL run as written (gm.store.sql.portable): rows a step changes, or a statement that
    is the same on both back ends."""
    sql: str


Change = NewTable | NewColumn | NewIndex | Portable


@dataclass(frozen=True)
class Step:
    """One schema step: SQLite's SQL exactly as shipped (a store's sqlite_master keeps its text), a
    Python function given the back end's connection for what SQL cannot do, and the same changes
    named for PostgreSQL."""
    number: int
    name: str
    sql: str = ""
    apply: Callable[[Any], None] | None = None
    postgresql: tuple[Change, ...] = ()
