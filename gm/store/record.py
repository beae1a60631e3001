"""Typed rows at the store's boundary: a repository gives services a frozen record, not a raw row.

A record class is a frozen, slotted dataclass whose fields are the columns it reads, named as the
columns are; ``Record.of`` builds one from a row of either back end (sqlite3.Row, pgrows.Row),
reading each field by name, so the order of a table's columns never matters and a field with a
default may be absent from a statement.  Services read ``game.status``, which mypy checks.

A record still reads as a row (``record["status"]``, ``keys()``, its values in order) for the GM's
scripts and the tests that read store rows; typed code does not see that (it is hidden from mypy),
so a subscript in gm/ is a type error where mypy runs.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, ClassVar, Iterable, Iterator, TypeVar, dataclass_transform

from gm.store.sql import Row

R = TypeVar("R", bound="Record")


@dataclasses.dataclass(frozen=True, slots=True)
class Record:
    """A row read by a repository, as a value: fields named as the columns."""

    columns: ClassVar[tuple[str, ...]] = ()  # set for each subclass by ``record``
    required: ClassVar[frozenset[str]] = frozenset()  # the columns without a default

    @classmethod
    def of(cls: type[R], row: Row) -> R:
        """The record of ``row``; a field with a default may be missing from it."""
        if len(row) == len(cls.columns) or not (set(cls.columns) - cls.required):
            return cls(*[row[name] for name in cls.columns])
        present = {name.lower() for name in row.keys()}
        return cls(**{name: row[name] for name in cls.columns if name in present})

    @classmethod
    def maybe(cls: type[R], row: Row | None) -> R | None:
        """The record of ``row``, or None for no row."""
        return None if row is None else cls.of(row)

    @classmethod
    def every(cls: type[R], rows: Iterable[Row]) -> list[R]:
        """The records of ``rows``, in their order."""
        return [cls.of(row) for row in rows]

    def changed(self: R, **values: Any) -> R:
        """This record with these columns set, as a read after an UPDATE of them would give it:
        a REAL column reads back a float, whatever number was written."""
        for name, value in values.items():
            if isinstance(getattr(self, name), float) and type(value) is int:
                values[name] = float(value)
        return dataclasses.replace(self, **values)

    def as_dict(self) -> dict[str, Any]:
        """The columns and their values: a shallow dict (dataclasses.asdict copies deeply, 20x slower)."""
        return {name: getattr(self, name) for name in self.columns}

    if not TYPE_CHECKING:  # read as a row, outside typed code: see the module's docstring
        def __getitem__(self, key):
            if isinstance(key, int):
                return getattr(self, self.columns[key])
            try:
                return getattr(self, key.lower())
            except AttributeError:
                raise IndexError(f"No item with that key: {key!r}") from None

        def keys(self):
            return list(self.columns)

        def __iter__(self) -> Iterator[Any]:
            return iter([getattr(self, name) for name in self.columns])

        def __len__(self) -> int:
            return len(self.columns)


@dataclass_transform(frozen_default=True)  # so mypy knows each record's constructor
def record(cls: type[R]) -> type[R]:
    """Make ``cls`` (a subclass of Record with annotated fields) a frozen slotted record."""
    made = dataclasses.dataclass(frozen=True, slots=True)(cls)
    fields = dataclasses.fields(made)
    made.columns = tuple(field.name for field in fields)
    made.required = frozenset(field.name for field in fields
                              if field.default is dataclasses.MISSING
                              and field.default_factory is dataclasses.MISSING)
    return made
