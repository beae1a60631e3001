"""Value classes made without generated code: ``@valueclass`` does what ``@dataclass`` does for gm's classes.

A class's annotated fields, in order (its value bases' first), become its constructor's parameters;
a value in the class body is the field's default, ``field(default_factory=...)`` makes a fresh one per
instance, ``field(compare=False)`` keeps a field out of equality.  The class gains ``__init__`` (which
calls ``__post_init__`` when the class has one), ``__repr__`` and ``__eq__``; ``frozen=True`` forbids
assignment (``dataclasses.FrozenInstanceError``) and makes instances hashable.  ``changed`` is
``dataclasses.replace`` for them.  The methods are shared functions reading the class's field list:
``dataclasses`` compiles each class's methods from source at import, which a piped mail pays for
every class on its way.
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar, dataclass_transform, overload

T = TypeVar("T")
MISSING: Any = object()


class Field:
    """One field of a value class: its name, how its default is made, whether equality reads it."""

    __slots__ = ("name", "default", "factory", "compare")

    def __init__(self, default: Any = MISSING, factory: Callable[[], Any] | None = None,
                 compare: bool = True, name: str = "") -> None:
        self.name, self.default, self.factory, self.compare = name, default, factory, compare

    def required(self) -> bool:
        return self.default is MISSING and self.factory is None


def field(*, default: Any = MISSING, default_factory: Callable[[], Any] | None = None,
          compare: bool = True) -> Any:
    """A field's default or default factory, and whether it counts for equality."""
    return Field(default, default_factory, compare)


def _fields(obj: Any) -> tuple[Field, ...]:
    return type(obj).__value_fields__  # type: ignore[no-any-return]


def _init(self: Any, *values: Any, **named: Any) -> None:
    fields = _fields(self)
    if len(values) > len(fields):
        raise TypeError(f"{type(self).__name__}() takes {len(fields)} values, {len(values)} given")
    put = object.__setattr__
    named = dict(named)
    for place, spec in enumerate(fields):
        if place < len(values):
            if spec.name in named:
                raise TypeError(f"{type(self).__name__}() got multiple values for {spec.name!r}")
            put(self, spec.name, values[place])
        elif spec.name in named:
            put(self, spec.name, named.pop(spec.name))
        elif spec.factory is not None:
            put(self, spec.name, spec.factory())
        elif spec.default is not MISSING:
            put(self, spec.name, spec.default)
        else:
            raise TypeError(f"{type(self).__name__}() missing a value for {spec.name!r}")
    if named:  # each name a field took was taken out above
        raise TypeError(f"{type(self).__name__}() got an unexpected field {next(iter(named))!r}")
    post = getattr(self, "__post_init__", None)
    if post is not None:
        post()


def _repr(self: Any) -> str:
    shown = ", ".join(f"{spec.name}={getattr(self, spec.name)!r}" for spec in _fields(self))
    return f"{type(self).__qualname__}({shown})"


def _compared(obj: Any) -> tuple[Any, ...]:
    return tuple(getattr(obj, spec.name) for spec in _fields(obj) if spec.compare)


def _eq(self: Any, other: object) -> Any:  # a bool, or NotImplemented for another class
    if other.__class__ is not self.__class__:
        return NotImplemented
    return _compared(self) == _compared(other)


def _hash(self: Any) -> int:
    return hash(_compared(self))


def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    from dataclasses import FrozenInstanceError  # only when code tries to change a value
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self: Any, name: str) -> None:
    from dataclasses import FrozenInstanceError
    raise FrozenInstanceError(f"cannot delete field {name!r}")


def _make(cls: type[T], frozen: bool) -> type[T]:
    inherited: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        for spec in base.__dict__.get("__value_fields__", ()):
            inherited[spec.name] = spec
    for name, kind in cls.__dict__.get("__annotations__", {}).items():
        if str(kind).startswith(("ClassVar", "typing.ClassVar")):
            continue
        given = cls.__dict__.get(name, MISSING)
        spec = given if isinstance(given, Field) else Field(given)
        spec.name = name
        inherited[name] = spec
        if isinstance(given, Field):
            if spec.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, spec.default)
    fields = tuple(inherited.values())
    defaulted = False
    for spec in fields:
        if spec.required() and defaulted:
            raise TypeError(f"{cls.__name__}: field {spec.name!r} without a default follows one with a default")
        defaulted = defaulted or not spec.required()
    setattr(cls, "__value_fields__", fields)
    for name, method in (("__init__", _init), ("__repr__", _repr), ("__eq__", _eq)):
        setattr(cls, name, method)
    setattr(cls, "__hash__", _hash if frozen else None)
    if frozen:
        setattr(cls, "__setattr__", _frozen_setattr)
        setattr(cls, "__delattr__", _frozen_delattr)
    return cls


@overload
def valueclass(cls: type[T], /) -> type[T]: ...
@overload
def valueclass(*, frozen: bool = False) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(field_specifiers=(field,))
def valueclass(cls: type[T] | None = None, /, *, frozen: bool = False) -> Any:
    """Make ``cls`` a value class (``@valueclass`` or ``@valueclass(frozen=True)``), as ``@dataclass`` would."""
    if cls is None:
        return lambda made: _make(made, frozen)
    return _make(cls, frozen)


def changed(obj: T, **values: Any) -> T:
    """A copy of the value ``obj`` with these fields set (``dataclasses.replace``)."""
    given = {spec.name: getattr(obj, spec.name) for spec in _fields(obj)}
    unknown = set(values).difference(given)
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no field {sorted(unknown)[0]!r}")
    return type(obj)(**{**given, **values})
