"""Every row of one store into another (gm store copy, gm backup, gm restore): SQLite <-> PostgreSQL, or alike.

Both stores are open, so both are at this gm's schema step.  The source is
read inside one snapshot (Store.snapshot: one consistent moment, while a
daemon may go on writing) and the destination is written in one
transaction, so a failed copy leaves it as it was.  Rows keep their ids; the
destination then numbers new rows after them.  A destination that already
holds rows is refused (the copy would mix two GMs' games) unless told to
``replace`` them: gm restore --force empties it in that same transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from gm.store import mailboxhash
from gm.store.base import Store
from gm.store.sql import Prepared, prepared, table_named
from gm.store.errors import StoreError

Progress = Callable[[int, int, str], None]  # (done, total, what): long work tells how far it is


@dataclass
class Copied:
    rows: dict[str, int] = field(default_factory=dict)  # table -> rows copied, in copy order
    skipped: list[str] = field(default_factory=list)  # source tables this schema does not have


# Tables whose rows every store makes for itself when made (its secrets: gm.store.mailboxhash):
# never "rows" of an empty store; the source's replace them, so that its keyed hashes still match.
OWN_ROWS = ("store_secrets",)


def nonempty_tables(store: Store) -> list[str]:
    return [t for t in store.table_names()
            if t not in OWN_ROWS and statement("any", t).run(store).fetchone() is not None]


STATEMENTS: dict[tuple[str, str], Prepared] = {}  # (what, table) -> its statement, built at first use


def statement(what: str, table: str) -> Prepared:
    """``what`` of ``table``: "any" (a row, if it has one), "all" (its rows, every column it
    has) or "empty" (delete them)."""
    done = STATEMENTS.get((what, table))
    if done is None:
        def build(sa: Any, t: Any) -> Any:
            target = table_named(sa, t, table)
            if what == "any":
                return sa.select(sa.literal_column("1").label("x")).select_from(target).limit(1)
            if what == "all":  # every column the source has: it may be at an older step (gm store copy)
                return sa.select(sa.literal_column("*")).select_from(target)
            return sa.delete(target)

        done = STATEMENTS[what, table] = prepared(build)
    return done


def quiet(done: int, total: int, what: str) -> None:
    """No progress shown."""


def copy_rows(source: Store, destination: Store, replace: bool = False, progress: Progress = quiet) -> Copied:
    """Copy every table's rows (parents first: the destination's table order); see the module doc."""
    full = nonempty_tables(destination)
    if full and not replace:
        raise StoreError(f"the destination already holds rows (in {', '.join(full)}): copy into an empty store")
    tables = destination.table_names()
    copied = Copied(skipped=[t for t in source.table_names() if t not in tables])
    present = set(source.table_names())
    with source.snapshot(), destination.write():  # the whole store: store-wide by nature
        for table in reversed([t for t in tables if t in full or t in OWN_ROWS]):  # children first
            statement("empty", table).run(destination)
        for done, table in enumerate(tables):
            progress(done, len(tables), f"copying {table}")
            if table not in present:
                continue
            rows = statement("all", table).run(source).fetchall()
            if rows:
                destination.insert_many(table, list(rows[0].keys()), [tuple(row) for row in rows])
            destination.ids_restored(table)
            copied.rows[table] = len(rows)
    mailboxhash.secret_replaced(destination)
    return copied
