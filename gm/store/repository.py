"""A repository: the store's reads and writes of one concern, over the store's one connection."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, ContextManager, Iterable, Protocol, TypeVar

if TYPE_CHECKING:
    from gm.store.deferred import Build
    from gm.store.reads import WatchedConnection
    from gm.store.sql import Shaped

T = TypeVar("T")


class Stored(Protocol):
    """What a repository uses of its store (gm.store.base.Store, which imports the repositories):
    the connection, the write transaction, the reads it remembers and the writes it defers."""

    kind: str
    depth: int
    claimed: set[int]
    claimant: str | None

    @property
    def db(self) -> WatchedConnection: ...

    @property
    def in_transaction(self) -> bool: ...

    def write(self, durable: bool = ..., scoped: bool = ..., games: Iterable[str] = ...) -> ContextManager[Any]: ...

    def insert_row(self, statement: Shaped, **values: Any) -> int: ...

    def insert_unless(self, statement: Shaped, values: dict[str, Any],
                      read_game: tuple[str, str] | None = ...) -> int | None: ...

    def update_rows(self, statement: Shaped, **params: Any) -> int: ...

    def remembered(self, tables: str | tuple[str, ...], key: tuple[Any, ...], read: Callable[[], T]) -> T: ...

    def already_read(self, table: str, key: tuple[Any, ...]) -> tuple[bool, Any]: ...

    def remember_written(self, tables: str | tuple[str, ...], key: tuple[Any, ...], value: Any) -> None: ...

    def forget_reads(self) -> None: ...

    def defer(self, table: str, kind: Any, build: Build, row: tuple[Any, ...]) -> None: ...

    def defer_insert(self, table: str, values: dict[str, Any]) -> None: ...


class Repository:
    """Named queries of one concern; ``store`` gives the connection and the write transaction."""

    __slots__ = ("store",)

    def __init__(self, store: Stored) -> None:
        self.store = store

    def _require_tx(self) -> None:
        if not self.store.depth:
            raise RuntimeError("writes must run inside Store.write()")
