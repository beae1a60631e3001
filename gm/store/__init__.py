"""Storage: a Store (gm.store.base) and its repositories over one connection.

``Store(target)`` opens SQLite (a file: gm.store.connection) or PostgreSQL (a
postgresql:// URL: gm.store.postgres).  Named queries live in repositories by
concern (``store.games``, ``seats``, ``turns``, ``inbox``, ``outbox``...), locks
behind ``store.locks`` (gm.store.locks).  One kind of SQL per back end:

- SQLite runs the store's statements (SQLAlchemy Core on gm.store.tables,
  compiled ahead into gm.store.compiled_sql) and portable ``:name`` text.
- PostgreSQL runs the same, plus its own SQL where only it has the feature
  (advisory locks, outbox claims, a game's reads in one statement):
  gm.store.postgres, pglocks, pgoutbox, gameload.  It loads only for a postgresql:// store
  (gm.store.base.require_driver) or where PostgresStore is named.
"""

from typing import TYPE_CHECKING, Any

from gm.store.errors import MigrationError, SchemaTooNew, StoreError
from gm.store.base import Store, is_url
from gm.store.connection import SqliteStore

if TYPE_CHECKING:
    from gm.store.postgres import PostgresStore


def __getattr__(name: str) -> Any:
    if name == "PostgresStore":  # loaded when named: a SQLite store never needs it
        from gm.store.postgres import PostgresStore

        return PostgresStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["MigrationError", "PostgresStore", "SchemaTooNew", "SqliteStore", "Store", "StoreError", "is_url"]
