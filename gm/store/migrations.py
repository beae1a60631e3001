"""Bring a database up to the schema this gm knows (gm.store.schema.STEPS).

The step a SQLite database is at is ``PRAGMA user_version`` (PostgreSQL's is
kept in a table: gm.store.postgres).  Store() calls
migrate() on opening: every missing step, and the new user_version, in one
``BEGIN IMMEDIATE`` transaction, so a failing step leaves the database
exactly as it was and two processes opening at once migrate it only once.
A database at a step above the last one this gm knows is refused.

Numbered steps run through SQLAlchemy, not Alembic (issue 33).  Each step
keeps its SQLite SQL as shipped (stores in the field hold its text in
sqlite_master, and an upgraded store must match a fresh one), and names the
same changes for PostgreSQL in terms of gm.store.tables, compiled by
SQLAlchemy's DDL constructs when the step runs (gm.store.pgsteps): types are
written once, and no translator stands between the steps and PostgreSQL.
Alembic was weighed and left out: its SQLite ALTERs need batch mode (a table
copy per change, where the steps keep to ADD COLUMN), its alembic_version
table would be a third record of the step beside PRAGMA user_version and
gm_schema_version, which every store made so far holds and which must keep
upgrading from any step, and its offline rendering of ADD COLUMN is the same
words SQLAlchemy's column specification gives (so no dependency is added).
"""

from __future__ import annotations

import sqlite3

from gm.store import schema
from gm.store.errors import MigrationError, SchemaTooNew, StoreError


def latest() -> int:
    """The step this gm's schema is at."""
    return schema.STEPS[-1].number if schema.STEPS else 0


def user_version(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def _has_table(db: sqlite3.Connection, name: str) -> bool:
    return db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                      (name,)).fetchone() is not None


def current_step(db: sqlite3.Connection) -> int:
    """user_version, or 1 for a database made before migrations (it has ``games``)."""
    version = user_version(db)
    if version == 0 and _has_table(db, "games"):
        return 1
    return version


def steps_after(step: int) -> list[schema.Step]:
    """The steps a database at ``step`` still needs; SchemaTooNew if it is ahead of this gm."""
    known = latest()
    if step > known:
        raise SchemaTooNew(step, known)
    return [s for s in schema.STEPS if s.number > step]


def pending(db: sqlite3.Connection) -> list[schema.Step]:
    """The steps this SQLite database still needs; SchemaTooNew if it is ahead of this gm."""
    return steps_after(current_step(db))


def migrate(db: sqlite3.Connection) -> list[int]:
    """Run the missing steps on ``db`` (autocommit mode, no transaction open).

    Returns the numbers of the steps run.  A quick look outside any
    transaction first, so that opening an up-to-date database takes no write
    lock; then the check again under BEGIN IMMEDIATE before changing anything.
    """
    if not pending(db):
        return []
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        raise StoreError(f"database busy or unavailable: {exc}") from exc
    try:
        steps = pending(db)
        for step in steps:
            try:
                for statement in schema.statements(step.sql):
                    db.execute(statement)
                if step.apply is not None:
                    step.apply(db)
            except sqlite3.Error as exc:
                raise MigrationError(f"schema step {step.number} ({step.name}) failed: {exc}") from exc
        if steps:
            db.execute(f"PRAGMA user_version = {int(steps[-1].number)}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return [s.number for s in steps]
