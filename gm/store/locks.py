"""Locks inside a write transaction, one interface on both back ends (``store.locks``).

A store-wide write (the default) lets nothing else write meanwhile.  A scoped
write (``write(scoped=True)`` or ``write(games=[...])``) runs beside other
scoped ones and must lock what it changes before reading it: its games
(``lock_games``), then rows shared across games (``lock_shared``: an address's
rows, a delivery hold, the hourly caps), or everything (``lock_store``).  One
fixed order (games sorted, then shared names sorted) keeps transactions out of
a circle; where one still forms, the back end aborts one (StoreConflict) and
``retry_conflicts`` runs it again.  On SQLite, BEGIN IMMEDIATE already lets one
writer at a time, so these locks are no-ops; PostgreSQL's are gm.store.pglocks.
"""

from __future__ import annotations

import functools
import logging
from typing import Any, Callable, TypeVar

from gm.core import addresses
from gm.store.errors import StoreConflict

log = logging.getLogger("gm.store.pglocks")  # only PostgreSQL has conflicts: logged as its locks'

RETRIES = 5  # runs of one use case before a conflict is raised after all

# The hourly caps' counts (answers to mail that needed no password, confirmation codes): a
# transaction reads a count and adds to it under this name, so that daemons judging side by side
# cannot each find one left and each send it.
HOURLY_CAPS = "caps:hourly"

T = TypeVar("T")


def address_lock(address: str | None) -> str:
    """The shared name of an address's rows (settings, delivery state, throttles, failures): one
    for every spelling of its mailbox (gm.core.addresses.mailbox_key), as the caps count it."""
    return f"address:{addresses.mailbox_key(address)}"


def hold_lock(scope: str) -> str:
    """The shared name of a delivery hold ('sender', 'domain:<d>', an address)."""
    return f"hold:{scope}"


class Locks:
    """A store's locks; these are SQLite's, where one writer at a time needs none."""

    __slots__ = ("store",)

    def __init__(self, store: Any) -> None:
        self.store = store

    def begin(self, scoped: bool) -> None:
        """A write transaction begins: it holds nothing yet."""

    def lock_games(self, *game_ids: str) -> None:
        """Wait until no other transaction changes these games (sorted: one fixed order)."""

    def try_lock_games(self, *game_ids: str) -> bool:
        """lock_games if no other transaction holds any of them, without waiting; False: skip them."""
        return True

    def lock_shared(self, *names: str) -> None:
        """Wait for rows shared across games ("address:<address>", "hold:<scope>"), after the games."""

    def lock_addresses(self, *addresses: str | None) -> None:
        """lock_shared of these addresses' rows (their settings, delivery state, throttles)."""
        self.lock_shared(*[address_lock(a) for a in addresses if a])

    def lock_store(self) -> None:
        """This transaction changes more than it can name: nothing else writes until it ends."""

    def try_lock_message(self, *keys: str | None, game: str | None = None, shared: tuple[str, ...] = ()) -> bool:
        """Claim an inbound message (its source key, its Message-ID) for this transaction, without
        waiting; False: another daemon is judging it now.  ``game``: then locked (waited for), and
        then ``shared`` (lock_shared's names), in the same step."""
        return True

    def hold_alive(self, daemon_id: str) -> None:
        """Show this daemon alive to the others sharing the store while this connection lives."""

    def alive_daemons(self, daemon_ids: list[str]) -> set[str]:
        """Which of these other daemons are alive now, as far as the store can tell (none on
        SQLite, which cannot: gm.runtime.slices then waits for their mail as for a dead one's)."""
        return set()


def retry_conflicts(work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``work`` (which opens its own write transaction), run again while the back end aborts it to
    break a deadlock; logged once.  On SQLite no conflict is ever raised."""
    for attempt in range(1, RETRIES + 1):
        try:
            return work(*args, **kwargs)
        except StoreConflict as exc:
            if attempt == RETRIES:
                raise
            if attempt == 1:
                log.info("%s met another daemon's transaction (%s): run again",
                         getattr(work, "__name__", "a transaction"), str(exc).splitlines()[0])
    raise AssertionError("unreachable")


def retried(work: Callable[..., T]) -> Callable[..., T]:
    """``work(ctx_or_store, ...)`` under retry_conflicts when it opens its own transaction; called
    inside another transaction it is run once: the conflict aborts that one, whose caller retries."""
    @functools.wraps(work)
    def run(first: Any, *args: Any, **kwargs: Any) -> T:
        if getattr(first, "store", first).depth:
            return work(first, *args, **kwargs)
        return retry_conflicts(work, first, *args, **kwargs)
    return run
