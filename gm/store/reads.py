"""Reads remembered for the length of one write transaction.

Inside ``store.write()`` no other writer changes what this transaction reads
(the writer lock, or on PostgreSQL the games and rows it locked first; a lock
taken after reads forgets them), so a row read once stays what it was until
this transaction writes its table.  Judging one mail reads the same rows many
times: each named query wrapped in ``remembered`` goes to the database once.
Every statement goes through WatchedConnection, and one that is not a SELECT
forgets what was remembered of its table (of every table, when its table
cannot be told).  Nothing is remembered outside a write transaction.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable, TypeVar


if TYPE_CHECKING:
    from gm.store.sql import Cursor

T = TypeVar("T")
Entry = tuple[Any, ...]  # (the tables read, the read's key...)

WRITTEN_TABLE = re.compile(r"\s*(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|UPDATE|DELETE\s+FROM)\s+(\w+)", re.IGNORECASE)


class WatchedConnection:
    """The back end's connection, telling the store which table each write statement touches
    (and letting the rows deferred for a table it names go first: gm.store.deferred)."""

    __slots__ = ("inner", "wrote", "before")

    def __init__(self, inner: Any, wrote: Callable[[str], None], before: Callable[[str], None]):
        object.__setattr__(self, "inner", inner)
        object.__setattr__(self, "wrote", wrote)
        object.__setattr__(self, "before", before)  # the rows deferred for its tables go first

    def execute(self, sql: str, params: Any = ()) -> Cursor:
        self.before(sql)
        if not sql.startswith("SELECT"):
            self.wrote(sql)
        cursor: Cursor = self.inner.execute(sql, params)
        return cursor

    def executemany(self, sql: str, rows: Any) -> Any:
        self.before(sql)
        self.wrote(sql)
        return self.inner.executemany(sql, rows)

    def raw(self, sql: str, params: Any = ()) -> Cursor:  # PostgreSQL's own SQL (gm.store.postgres)
        self.before(sql)
        if not sql.startswith("SELECT"):
            self.wrote(sql)
        cursor: Cursor = self.inner.raw(sql, params)
        return cursor

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self.inner, name, value)


class TransactionReads:
    """The Store's reads remembered in a write transaction: ``remembered`` and its bookkeeping."""

    reads: dict[Entry, Any] | None = None  # (tables, key...) -> value; None: nothing remembered
    depth = 0  # the write transactions open (Store.write)

    def remembered(self, tables: str | tuple[str, ...], key: Entry, read: Callable[[], T]) -> T:
        """``read()``, or what it returned earlier in this write transaction while none of
        ``tables`` (what the read depends on) was written since.  Lists, dicts and sets come back
        as copies: a caller may change its own."""
        if not self.depth:
            return read()
        entry = ((tables,) if isinstance(tables, str) else tables, *key)
        if self.reads is None or entry not in self.reads:
            value = read()  # its statement may first write rows waiting (gm.store.deferred), forgetting reads
            if self.reads is None:
                self.reads = {}
            self.reads[entry] = value
        remembered: T = copied(self.reads[entry])
        return remembered

    def already_read(self, table: str, key: Entry) -> tuple[bool, Any]:
        """(True, the value) when ``remembered(table, key, ...)`` would read nothing now."""
        entry = ((table,), *key)
        if self.depth and self.reads and entry in self.reads:
            return True, copied(self.reads[entry])
        return False, None

    def remember_written(self, tables: str | tuple[str, ...], key: Entry, value: Any) -> None:
        """What this transaction just wrote (or read with other rows: Store.read_game), as
        ``remembered(tables, key, ...)`` would read it back."""
        if self.depth:
            if self.reads is None:
                self.reads = {}
            self.reads[((tables,) if isinstance(tables, str) else tables, *key)] = copied(value)

    def _wrote(self, sql: str) -> None:
        """A statement that is not a SELECT ran: forget the reads it may have changed."""
        if not self.reads:
            return
        match = WRITTEN_TABLE.match(sql)
        if match is None:
            self.reads = None
            return
        table = match.group(1).lower()
        self.reads = {entry: value for entry, value in self.reads.items() if table not in entry[0]}

    def forget_reads(self) -> None:
        """The transaction began or ended."""
        self.reads = None


def copied(value: Any) -> Any:
    return type(value)(value) if isinstance(value, (list, dict, set)) else value
