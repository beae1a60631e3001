"""The store's exceptions."""

from __future__ import annotations


class StoreError(RuntimeError):
    """The database could not be used (locked too long, disk full, corrupt)."""


class SchemaTooNew(StoreError):
    """The database was made by a newer gm than this one."""

    def __init__(self, found: int, known: int):
        self.found, self.known = found, known
        super().__init__(f"this database was made by a newer gm (schema {found}; "
                         f"this gm knows up to {known}): upgrade gm")


class MigrationError(StoreError):
    """A migration step failed; the database was left as it was."""


class StoreConflict(StoreError):
    """PostgreSQL aborted the transaction to break a deadlock (40P01) or a serialisation failure
    (40001): nothing of it was kept, and running it again from the start is safe
    (gm.store.pglocks.retry_conflicts)."""
