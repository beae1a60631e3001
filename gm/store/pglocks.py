"""Locks on a PostgreSQL store shared by several daemons: per game, per shared row, store-wide.

Two kinds of write transaction (gm.store.base.Store.write):

- store-wide (the default): holds the store lock exclusively, as SQLite's
  BEGIN IMMEDIATE does: nothing else writes meanwhile.  Schema steps,
  retention, store copy and every path not written for locking by game take it,
  so a path that was never taught to lock its games is still correct.
- scoped (``write(scoped=True)``): holds the store lock in shared mode, so
  scoped transactions run side by side and any store-wide one waits for them
  all (and they for it).  Before it reads the state it will change, a scoped
  transaction locks what it changes: its games (``lock_games``) and the rows it
  shares with other games (``lock_shared``: "address:<address>" for an
  address's settings, delivery state, throttles and credential failures;
  "hold:<scope>" for a delivery hold; HOURLY_CAPS for the counts of the
  hourly caps).  ``write(games=[...])`` is a scoped
  write that locks those games first (a GM command on one game).  What is
  found only by reading (a bounce's address and its games, the games a mail's
  commands name) is read, locked, and where it may have moved, read again
  under the lock.  A path that changes more than it can name (a mail naming
  games by the hundred) escalates with ``lock_store``; store-wide by nature:
  schema steps, retention, store copy, outages, settling every address's
  delivery failures.

One fixed order, so that two transactions never wait for each other in a
circle: the store lock first, then games sorted by id, then shared names
sorted.  A transaction that locks more later (a second game, an escalation)
may still meet another in a circle; PostgreSQL then aborts one of them
(40P01), which gm.store.errors.StoreConflict carries to ``retry_conflicts``
at the use case's edge (one mail, one game's timers), which runs it again.

All locks are transaction-scoped advisory locks: a daemon that dies, or a
server that restarts, frees them with the transaction, which leaves nothing.
Every key is two 32-bit numbers, the first naming the kind and the store (its
schema), the second hashing the game, name or message; two names that hash
alike only share a lock (and wait for each other needlessly).
"""

from __future__ import annotations

import functools
import logging
from typing import Any, Callable, Iterable, TypeVar

from gm.core import addresses
from gm.store.errors import StoreConflict

log = logging.getLogger(__name__)

STORE_LOCK = 0x676D5F77  # the store lock's first key ("gm_w"); the second: the store's schema
STORE_KEY = f"{STORE_LOCK}, hashtext(current_schema())"
RETRYABLE = {"40P01", "40001"}  # deadlock detected, serialisation failure
RETRIES = 5  # runs of one use case before a conflict is raised after all

T = TypeVar("T")


def space(kind: str) -> str:
    """The first key of a lock of this kind ('game', 'shared', 'message') in this store."""
    return f"hashtext(current_schema() || ':{kind}')"


def address_lock(address: str | None) -> str:
    """The shared name of an address's rows (settings, delivery state, throttles, failures): one
    for every spelling of its mailbox (gm.core.addresses.mailbox_key), as the caps count it."""
    return f"address:{addresses.mailbox_key(address)}"


def hold_lock(scope: str) -> str:
    """The shared name of a delivery hold ('sender', 'domain:<d>', an address)."""
    return f"hold:{scope}"


# The hourly caps' counts (answers to mail that needed no password, confirmation codes): a
# transaction reads a count and adds to it under this name, so that daemons judging side by side
# cannot each find one left and each send it.
HOURLY_CAPS = "caps:hourly"


def is_conflict(exc: BaseException) -> bool:
    return getattr(exc, "sqlstate", None) in RETRYABLE


def store_lock(shared: bool, relaxed: bool = False) -> str:
    """The statement taking the store lock.  ``relaxed``: the transaction also commits without
    waiting for the flush (write(durable=False)), set in the same statement (SET LOCAL's function form)."""
    mode = "_shared" if shared else ""
    relax = "set_config('synchronous_commit', 'off', true), " if relaxed else ""
    return f"SELECT {relax}pg_advisory_xact_lock{mode}({STORE_KEY})"


SHARED_STORE_LOCK = store_lock(shared=True)  # a scoped transaction's, as claim_message can take it


def lock_store(raw: Callable, shared: bool, relaxed: bool = False) -> None:
    raw(store_lock(shared, relaxed), ())


def hold_alive(raw: Callable, daemon_id: str) -> None:
    """This session holds its daemon's liveness lock (session-level: kept across transactions, and
    let go of only when the session ends, so by a daemon's death or its server's restart)."""
    raw(f"SELECT pg_try_advisory_lock({space('daemon')}, hashtext(%s))", (daemon_id,))


def alive_among(raw: Callable, daemon_ids: Iterable[str]) -> set[str]:
    """The daemons among these whose liveness lock some session holds.  A free one is taken for
    the statement's transaction, so call it outside a write: autocommit lets it go at once; and
    never for this session's own daemon (its own lock would be taken again, and look free)."""
    ids = sorted(set(daemon_ids))
    if not ids:
        return set()
    rows = raw(f"SELECT d FROM unnest(%s::text[]) AS d WHERE NOT pg_try_advisory_xact_lock({space('daemon')}, "
               "hashtext(d))", (ids,)).fetchall()
    return {row[0] for row in rows}


def lock_names(raw: Callable, kind: str, names: Iterable[str]) -> None:
    """Wait for the locks of these names, in sorted order (the subquery sorts before the locks)."""
    names = sorted(set(names))
    if len(names) == 1:
        raw(f"SELECT pg_advisory_xact_lock({space(kind)}, hashtext(%s))", (names[0],))
    elif names:
        raw(f"SELECT pg_advisory_xact_lock({space(kind)}, hashtext(n)) FROM "
            "(SELECT n FROM unnest(%s::text[]) AS n ORDER BY n OFFSET 0) AS sorted", (names,))


def try_lock_names(raw: Callable, kind: str, names: Iterable[str]) -> bool:
    """Take the locks of these names if no other transaction holds any: never waits."""
    names = sorted(set(names))
    if not names:
        return True
    row = raw(f"SELECT bool_and(pg_try_advisory_xact_lock({space(kind)}, hashtext(n))) FROM "
              "(SELECT n FROM unnest(%s::text[]) AS n ORDER BY n OFFSET 0) AS sorted", (names,)).fetchone()
    return bool(row[0])


def claim_message(raw: Callable, keys: Iterable[str], game: str | None, shared: Iterable[str] = (),
                  store_lock: bool = False) -> bool:
    """try_lock_names of the message's keys and, if they were free, the lock of its game and then
    the shared names' locks, waited for in the same statement: a daemon that finds the message
    taken (and goes on to the next mail of the same game) queues for the game behind the one
    judging it, so one player's mails are judged in the order they came.  ``store_lock``: the
    store lock (shared) is taken first, in the same statement (the filter on the keys' scan is
    evaluated once, before it)."""
    names = sorted(set(keys))
    first = f"(SELECT true FROM pg_advisory_xact_lock_shared({STORE_KEY}))" if store_lock else "true"
    row = raw(f"SELECT CASE WHEN NOT ok THEN false WHEN %s::text IS NULL THEN true "
              f"ELSE CASE WHEN (SELECT true FROM pg_advisory_xact_lock({space('game')}, hashtext(%s))) THEN "
              f"(SELECT count(taken) >= 0 FROM (SELECT pg_advisory_xact_lock({space('shared')}, hashtext(s)) AS taken "
              "FROM (SELECT s FROM unnest(%s::text[]) AS s ORDER BY s OFFSET 0) AS sorted) AS locks) END END FROM "
              f"(SELECT coalesce(bool_and(pg_try_advisory_xact_lock({space('message')}, hashtext(n))), true) AS ok "
              f"FROM (SELECT n FROM unnest(%s::text[]) AS n WHERE {first} ORDER BY n OFFSET 0) AS sorted) AS claim",
              (game, game, sorted(set(shared)), names)).fetchone()
    return bool(row[0])


def retry_conflicts(work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``work`` (which opens its own write transaction), run again while PostgreSQL aborts it to
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
    """``work(ctx_or_store, ...)`` under retry_conflicts when it opens its own transaction: a GM
    command, run again from the start if PostgreSQL aborts it to break a deadlock.  Called inside
    another transaction it is run once: the conflict aborts that one, whose caller retries it."""
    @functools.wraps(work)
    def run(first: Any, *args: Any, **kwargs: Any) -> T:
        if getattr(first, "store", first).depth:
            return work(first, *args, **kwargs)
        return retry_conflicts(work, first, *args, **kwargs)
    return run
