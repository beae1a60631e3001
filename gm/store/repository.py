"""A repository: the store's reads and writes of one concern, over the store's one connection."""

from __future__ import annotations

from typing import Any


class Repository:
    """Named queries of one concern; ``store`` gives the connection and the write transaction."""

    __slots__ = ("store",)

    def __init__(self, store: Any) -> None:
        self.store = store

    def _require_tx(self) -> None:
        if not self.store.depth:
            raise RuntimeError("writes must run inside Store.write()")
