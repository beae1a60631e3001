"""Typed rows at the store's boundary: a repository gives services a frozen record, not a raw row.

A record class is a frozen, slotted value class whose fields are the columns it reads, named as the
columns are; ``Record.of`` builds one from a row of either back end (sqlite3.Row, pgrows.Row),
reading each field by name, so the order of a table's columns never matters and a field with a
default may be absent from a statement.  Services read ``game.status``, which mypy checks.

A record still reads as a row (``record["status"]``, ``keys()``, its values in order) for the GM's
scripts and the tests that read store rows; typed code does not see that (it is hidden from mypy),
so a subscript in gm/ is a type error where mypy runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Iterable, Iterator, TypeVar, cast, dataclass_transform

from gm.store.sql import Row

R = TypeVar("R", bound="Record")


class FrozenRecordError(AttributeError):
    """A record's field was assigned: a record is a value (``changed`` makes another)."""


class Record:
    """A row read by a repository, as a value: fields named as the columns."""

    __slots__ = ()
    columns: ClassVar[tuple[str, ...]] = ()  # set for each subclass by ``record``
    required: ClassVar[frozenset[str]] = frozenset()  # the columns without a default
    defaults: ClassVar[dict[str, Any]] = {}

    def __init__(self, *values: Any, **named: Any) -> None:
        if len(values) > len(self.columns):
            raise TypeError(f"{type(self).__name__} takes {len(self.columns)} values, {len(values)} given")
        given = dict(zip(self.columns, values))
        for name, value in named.items():
            if name not in self.defaults and name not in self.required or name in given:
                raise TypeError(f"{type(self).__name__}: unexpected or repeated field {name!r}")
            given[name] = value
        missing = self.required.difference(given)
        if missing:
            raise TypeError(f"{type(self).__name__}: missing {', '.join(sorted(missing))}")
        for name in self.columns:
            object.__setattr__(self, name, given[name] if name in given else self.defaults[name])

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenRecordError(f"cannot assign to field {name!r}: a record is a value")

    def __delattr__(self, name: str) -> None:
        raise FrozenRecordError(f"cannot delete field {name!r}: a record is a value")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.in_order() == other.in_order()

    def __hash__(self) -> int:
        return hash(self.in_order())

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), self.in_order()  # copy and pickle make it again through __init__

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self.columns)})"

    def in_order(self) -> tuple[Any, ...]:
        """The values, in the order of the columns."""
        return tuple(getattr(self, name) for name in self.columns)

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
            if name not in self.columns:
                raise TypeError(f"{type(self).__name__} has no field {name!r}")
            if isinstance(getattr(self, name), float) and type(value) is int:
                values[name] = float(value)
        return type(self)(**{**self.as_dict(), **values})

    def as_dict(self) -> dict[str, Any]:
        """The columns and their values: a shallow dict."""
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
    """Make ``cls`` (a subclass of Record with annotated fields) a frozen slotted record: its
    fields, in order, are its bases' and then its own annotations; a value given in the class
    body is the field's default.  The class is made again with slots (as dataclasses does),
    without generating code for each class: a store opens in a blink."""
    own = [name for name, kind in cls.__dict__.get("__annotations__", {}).items()
           if not str(kind).startswith(("ClassVar", "typing.ClassVar"))]
    parent: type[Record] = cls.__mro__[1]
    if not issubclass(parent, Record):
        raise TypeError(f"{cls.__name__}: a record's first base is Record or another record")
    columns = parent.columns + tuple(name for name in own if name not in parent.columns)
    defaults = dict(parent.defaults)
    body = {key: value for key, value in cls.__dict__.items() if key not in ("__dict__", "__weakref__")}
    for name in own:
        if name in body:
            defaults[name] = body.pop(name)
        elif defaults and name not in defaults:
            raise TypeError(f"{cls.__name__}: field {name!r} without a default follows one with a default")
    body.update(__slots__=tuple(own), columns=columns, defaults=defaults,
                required=frozenset(name for name in columns if name not in defaults))
    return cast("type[R]", type(cls.__name__, cls.__bases__, body))
