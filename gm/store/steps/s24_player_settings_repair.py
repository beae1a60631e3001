"""Step 24: players.format and players.timezone where a store made at step 5 lacks them.

The gm of one day had step 4 empty ("reserved"; the columns came as step 4 after it), so the
stores it made at step 5 lacked the columns and every later step passed them by.  The columns
are added where they are missing; every other store is left as is.
"""

from __future__ import annotations

from typing import Any

from gm.store.changes import NewColumn, Step


def players_have_their_settings(db: Any) -> None:
    """Add players.format and players.timezone where missing (the columns read from an empty
    SELECT: the same on both back ends)."""
    cursor = db.execute("SELECT * FROM players LIMIT 0", {})
    have = {column[0] for column in cursor.description}
    for column in ("format", "timezone"):
        if column not in have:
            add_column(db, f"ALTER TABLE players ADD COLUMN {column} TEXT", NewColumn("players", column))


def add_column(db: Any, sqlite_sql: str, change: NewColumn) -> None:
    """A column a Python step adds: on SQLite by the SQL given, on PostgreSQL as gm.store.pgsteps
    compiles the change.  The PostgreSQL store's connection (its ``raw`` taking PostgreSQL's own
    SQL) carries psycopg."""
    if hasattr(db, "psycopg"):
        from gm.store import pgsteps  # SQLAlchemy, at migration time only

        db.raw(pgsteps.statement(change))
    else:
        db.execute(sqlite_sql)


STEP = Step(24, "players.format and players.timezone where a store made at step 5 lacks them", "",
            players_have_their_settings)
