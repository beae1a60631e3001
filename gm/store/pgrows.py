"""PostgreSQL's rows as sqlite3.Row reads them, and values as its typed columns take them.

``row_factory`` makes psycopg give ``Row``s, read by column name
(case-insensitive) or by index, so every caller reads a row the same way on
either back end.  ``storable`` writes a text given for a packed column
(PACKED: gm.store.packing's bytes, their packing beside them) as its UTF-8
bytes, as SQLite keeps it; rows are read as stored, nothing guessed.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

# (table, column) pairs of packed text (gm.store.packing), bytes on PostgreSQL.
PACKED = {("states", "state"), ("reports", "body")}



class Row:
    """One result row: by column name (case-insensitive, as sqlite3.Row) or by index; iterates its values."""

    __slots__ = ("values", "index")

    def __init__(self, values: tuple[Any, ...], index: dict[str, int]):
        self.values = values
        self.index = index

    def __getitem__(self, key: int | str | slice) -> Any:
        if isinstance(key, str):
            try:
                return self.values[self.index[key.lower()]]
            except KeyError:
                raise IndexError(f"No item with that key: {key!r}") from None
        return self.values[key]

    def keys(self) -> list[str]:
        return list(self.index)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Row):
            return self.values == other.values and self.index == other.index
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.values)

    def __repr__(self) -> str:
        return f"Row({dict(zip(self.index, self.values))!r})"


def storable(table: str, column: str, value: Any) -> Any:
    """A value as the PostgreSQL column takes it (text for a PACKED column as UTF-8 bytes)."""
    if (table, column) in PACKED and isinstance(value, str):
        return value.encode("utf-8")
    return value


INDEXES: dict[tuple[str, ...], dict[str, int]] = {}  # column names -> name index, shared by their rows


def row_factory(cursor: Any) -> Callable[[Any], Row]:
    """psycopg row factory making Rows."""
    result = cursor.pgresult  # its field names, without building cursor.description's objects
    if result is None or not result.nfields:
        return lambda values: Row(tuple(values), {})
    names = tuple(result.fname(i).decode() for i in range(result.nfields))
    index = INDEXES.get(names)
    if index is None:
        index = INDEXES[names] = {name.lower(): i for i, name in enumerate(names)}
    return lambda values: Row(tuple(values), index)
