"""PostgreSQL's locks (gm.store.locks' interface): advisory locks per game, shared row, store.

A store-wide write holds the store lock exclusively (as SQLite's BEGIN
IMMEDIATE); a scoped one holds it shared and then locks its games and shared
names.  All are transaction-scoped advisory locks, so a daemon that dies frees
them with its transaction.  Every key is two 32-bit numbers: the kind and the
store (its schema), and a hash of the game, name or message.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from gm.store.locks import Locks

Raw = Callable[..., Any]  # the connection's ``raw``: PostgreSQL's own SQL and its parameters -> a cursor

STORE_LOCK = 0x676D5F77  # the store lock's first key ("gm_w"); the second: the store's schema
STORE_KEY = f"{STORE_LOCK}, hashtext(current_schema())"
RETRYABLE = {"40P01", "40001"}  # deadlock detected, serialisation failure


def space(kind: str) -> str:
    """The first key of a lock of this kind ('game', 'shared', 'message') in this store."""
    return f"hashtext(current_schema() || ':{kind}')"


def is_conflict(exc: BaseException) -> bool:
    return getattr(exc, "sqlstate", None) in RETRYABLE


def store_lock(shared: bool, relaxed: bool = False) -> str:
    """The statement taking the store lock.  ``relaxed``: the transaction also commits without
    waiting for the flush (write(durable=False)), set in the same statement (SET LOCAL's function form)."""
    mode = "_shared" if shared else ""
    relax = "set_config('synchronous_commit', 'off', true), " if relaxed else ""
    return f"SELECT {relax}pg_advisory_xact_lock{mode}({STORE_KEY})"


SHARED_STORE_LOCK = store_lock(shared=True)  # a scoped transaction's, as claim_message can take it


def lock_store(raw: Raw, shared: bool, relaxed: bool = False) -> None:
    raw(store_lock(shared, relaxed), ())


def hold_alive(raw: Raw, daemon_id: str) -> None:
    """This session holds its daemon's liveness lock (session-level: kept across transactions, and
    let go of only when the session ends, so by a daemon's death or its server's restart)."""
    raw(f"SELECT pg_try_advisory_lock({space('daemon')}, hashtext(%s))", (daemon_id,))


def alive_among(raw: Raw, daemon_ids: Iterable[str]) -> set[str]:
    """The daemons among these whose liveness lock some session holds.  A free one is taken for
    the statement's transaction, so call it outside a write: autocommit lets it go at once; and
    never for this session's own daemon (its own lock would be taken again, and look free)."""
    ids = sorted(set(daemon_ids))
    if not ids:
        return set()
    rows = raw(f"SELECT d FROM unnest(%s::text[]) AS d WHERE NOT pg_try_advisory_xact_lock({space('daemon')}, "
               "hashtext(d))", (ids,)).fetchall()
    return {row[0] for row in rows}


def lock_names(raw: Raw, kind: str, names: Iterable[str]) -> None:
    """Wait for the locks of these names, in sorted order (the subquery sorts before the locks)."""
    names = sorted(set(names))
    if len(names) == 1:
        raw(f"SELECT pg_advisory_xact_lock({space(kind)}, hashtext(%s))", (names[0],))
    elif names:
        raw(f"SELECT pg_advisory_xact_lock({space(kind)}, hashtext(n)) FROM "
            "(SELECT n FROM unnest(%s::text[]) AS n ORDER BY n OFFSET 0) AS sorted", (names,))


def try_lock_names(raw: Raw, kind: str, names: Iterable[str]) -> bool:
    """Take the locks of these names if no other transaction holds any: never waits."""
    names = sorted(set(names))
    if not names:
        return True
    row = raw(f"SELECT bool_and(pg_try_advisory_xact_lock({space(kind)}, hashtext(n))) FROM "
              "(SELECT n FROM unnest(%s::text[]) AS n ORDER BY n OFFSET 0) AS sorted", (names,)).fetchone()
    return bool(row[0])


def claim_message(raw: Raw, keys: Iterable[str], game: str | None, shared: Iterable[str] = (),
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


class PgLocks(Locks):
    """The locks of a PostgreSQL store's transaction: what it holds, taken once each.  A lock taken
    after reads (a game or address found by reading): what was remembered of them (gm.store.reads)
    may have changed before the lock was granted, so it is read again."""

    __slots__ = ("store_wide", "games_held", "shared_held", "alive_on")

    def __init__(self, store: Any) -> None:
        super().__init__(store)
        self.store_wide = True
        self.games_held: set[str] = set()
        self.shared_held: set[str] = set()
        self.alive_on: Any = None  # the session holding this daemon's liveness lock (hold_alive)

    def begin(self, scoped: bool) -> None:
        self.store_wide = not scoped
        self.games_held = set()
        self.shared_held = set()

    def lock_games(self, *game_ids: str) -> None:
        wanted = {g for g in game_ids if g} - self.games_held
        if not self.store_wide and wanted:
            lock_names(self.store.db.raw, "game", wanted)
            self.games_held |= wanted
            self.store.forget_reads()

    def try_lock_games(self, *game_ids: str) -> bool:
        wanted = {g for g in game_ids if g} - self.games_held
        if self.store_wide or not wanted:
            return True
        if not try_lock_names(self.store.db.raw, "game", wanted):
            return False
        self.games_held |= wanted
        return True

    def lock_shared(self, *names: str) -> None:
        wanted = {n for n in names if n} - self.shared_held
        if not self.store_wide and wanted:
            lock_names(self.store.db.raw, "shared", wanted)
            self.shared_held |= wanted
            self.store.forget_reads()

    def lock_store(self) -> None:
        if not self.store_wide:
            lock_store(self.store.db.raw, shared=False)
            self.store_wide = True
            self.store.forget_reads()

    def try_lock_message(self, *keys: str | None, game: str | None = None, shared: tuple[str, ...] = ()) -> bool:
        db = self.store.db
        game = None if self.store_wide else game
        shared = tuple(shared) if game else ()
        taking_store_lock = db.before_next == SHARED_STORE_LOCK
        if taking_store_lock:
            db.before_next = None
        if not claim_message(db.raw, [k for k in keys if k], game, shared, taking_store_lock):
            return False
        if game:
            self.games_held.add(game)
            self.shared_held |= set(shared)
        return True

    def hold_alive(self, daemon_id: str) -> None:
        db = self.store.db
        if self.alive_on is not db.conn:  # once a session: a session that died took its lock along
            hold_alive(db.raw, daemon_id)
            self.alive_on = db.conn

    def alive_daemons(self, daemon_ids: list[str]) -> set[str]:
        return alive_among(self.store.db.raw, daemon_ids) if not self.store.depth else set(daemon_ids)
