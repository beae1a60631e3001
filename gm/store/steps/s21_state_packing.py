"""Step 21: a state is always bytes, its packing recorded beside it (states.state_packing).

A packed text (gm.store.packing: utf8 | zlib) used to be the text itself or its compressed bytes,
told apart by the bytes: on PostgreSQL a short text beginning "x^" (zlib's header) read as
compressed.  The DEFAULT only lets SQLite add a NOT NULL column; every writer names the packing,
and this step sets it for every row there is.  On SQLite the column keeps its declared type TEXT
(changing it means a table rebuild); it holds BLOBs from now on.  Step 22 does the same for reports.
"""

from __future__ import annotations

from typing import Any

from gm.store.changes import NewColumn, Step
from gm.store.packing import legacy_packed

PACKING_COLUMN = ("ALTER TABLE {table} ADD COLUMN {column} TEXT NOT NULL DEFAULT 'utf8' "
                  "CHECK ({column} IN ('utf8', 'zlib'));")
BATCH = 500  # rows converted per read, so a large store's states are never all in memory


def repack(db: Any, table: str, keys: tuple[str, ...], column: str) -> None:
    """Every row's packed ``column`` as bytes, with its packing (decided, this once, by
    gm.store.packing.legacy_packed), read in batches in the order of the table's key."""
    names = ", ".join(keys)
    marks = ", ".join(f":key{i}" for i in range(len(keys)))  # the key's values, named key0, key1...
    after: dict[str, Any] = {}
    while True:
        if after:  # the rows after the last one done, by the key (a row value, as both take it)
            where = f"WHERE ({names}) > ({marks}) " if len(keys) > 1 else f"WHERE {names} > :key0 "
        else:
            where = ""
        rows = db.execute(f"SELECT {names}, {column} FROM {table} {where}ORDER BY {names} LIMIT {BATCH}",
                          after).fetchall()
        cond = " AND ".join(f"{k} = :key{i}" for i, k in enumerate(keys))
        for row in rows:
            packed, packing = legacy_packed(row[len(keys)])
            db.execute(f"UPDATE {table} SET {column} = :packed, {column}_packing = :packing WHERE {cond}",
                       {"packed": packed, "packing": packing, **key_of(row, len(keys))})
        if len(rows) < BATCH:
            return
        after = key_of(rows[-1], len(keys))


def key_of(row: Any, size: int) -> dict[str, Any]:
    """A row's key (its first ``size`` values) as repack's parameters, key0, key1..."""
    return {f"key{i}": value for i, value in enumerate(tuple(row)[:size])}


def pack_states(db: Any) -> None:
    """Every state as bytes with its packing."""
    repack(db, "states", ("game_id", "seq"), "state")


STEP = Step(21, "a state is always bytes, its packing recorded (states.state_packing)",
            PACKING_COLUMN.format(table="states", column="state_packing"), pack_states, postgresql=(
                NewColumn("states", "state_packing"),
            ))
