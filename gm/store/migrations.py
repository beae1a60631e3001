"""Bring a SQLite database up to the schema this gm knows (gm.store.schema.STEPS).

A SQLite database's step is ``PRAGMA user_version`` (PostgreSQL keeps its own in a table:
gm.store.postgres).  Opening a store runs every missing step and sets the new user_version in
one ``BEGIN IMMEDIATE`` transaction: a failing step leaves the database as it was, and two
processes opening at once migrate it once.  A database ahead of this gm is refused.  The steps
are plain SQL and Python, not Alembic: SQLite's ALTERs would need its batch mode (a table copy
per change), and its version table would be a third record of the step.  The steps' modules
load only when a store needs one: a store at LAST_STEP, the last step shipped, needs none.
"""

from __future__ import annotations

import sqlite3
import sys
from typing import TYPE_CHECKING

from gm.store.errors import MigrationError, SchemaTooNew, StoreError
from gm.store.sql import single

if TYPE_CHECKING:
    from gm.store.changes import Step
    from gm.store.reads import WatchedConnection

LAST_STEP = 34  # the number of gm.store.steps' last step (tests/cli/test_import_cost.py holds it to STEPS)


def latest() -> int:
    """The step this gm's schema is at: the last of gm.store.schema.STEPS once that is loaded (a
    migration loaded it, or a test rewound or extended it), else LAST_STEP, which is that step."""
    schema = sys.modules.get("gm.store.schema")
    if schema is None:
        return LAST_STEP
    return schema.STEPS[-1].number if schema.STEPS else 0


def user_version(db: sqlite3.Connection | WatchedConnection) -> int:
    """The step a SQLite database is at (PRAGMA user_version), on its connection or the store's."""
    return int(single(db.execute("PRAGMA user_version"))[0])


def _has_table(db: sqlite3.Connection, name: str) -> bool:
    return db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                      (name,)).fetchone() is not None


def current_step(db: sqlite3.Connection) -> int:
    """user_version, or 1 for a database made before migrations (it has ``games``)."""
    version = user_version(db)
    if version == 0 and _has_table(db, "games"):
        return 1
    return version


def steps_after(step: int) -> list[Step]:
    """The steps a database at ``step`` still needs; SchemaTooNew if it is ahead of this gm."""
    known = latest()
    if step > known:
        raise SchemaTooNew(step, known)
    if step == known:
        return []
    from gm.store import schema

    return [s for s in schema.STEPS if s.number > step]


def pending(db: sqlite3.Connection) -> list[Step]:
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
    from gm.store import schema

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
