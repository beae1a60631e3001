"""Store: the connection, its write transaction, and the repositories over it.

``Store(target)`` opens the back end the target names: a postgresql:// URL
opens gm.store.postgres.PostgresStore (psycopg, the extra gm[postgres]),
anything else a SQLite file (gm.store.connection.SqliteStore).  The named
queries are the repositories' (``store.games``, ``store.seats``...); the
generic ``one/all/insert/update`` are for tests and tools.  ``write()`` nests,
so a use case can call others that write.
"""

from __future__ import annotations

import importlib
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from gm.core.config import is_server_store
from gm.store.deferred import ROWS_AT_ONCE, DeferredWrites
from gm.store.errors import StoreError
from gm.store.reads import TransactionReads, WatchedConnection
from gm.store.sql import Prepared, Row, Shaped, inserting, prepared, table_named, updating

if TYPE_CHECKING:
    from gm.store.community import Community
    from gm.store.credentials import Credentials
    from gm.store.daemons import Daemons, Metrics
    from gm.store.delivery import Delivery
    from gm.store.games import Games, History
    from gm.store.lines import Lines
    from gm.store.locks import Locks
    from gm.store.mail import Inbox, Outbox, Reports
    from gm.store.optin import OptIn
    from gm.store.pace import Pace
    from gm.store.rematches import Rematches
    from gm.store.seats import Seats
    from gm.store.selfservice import SelfService
    from gm.store.service import Results, Timers
    from gm.store.threads import MailThreads
    from gm.store.tournaments import Tournaments
    from gm.store.turns import Turns

is_url = is_server_store  # a postgresql:// URL, not a SQLite file
POSTGRES_EXTRA = "pip install 'gm[postgres]'"
POSTGRES_MODULE = "gm.store.postgres"  # loaded by name for a postgresql:// store only (it imports this module)


def require_driver(target: str | Path) -> None:
    """A postgresql:// store needs psycopg, an optional extra (gm on SQLite runs without it):
    without it, one clear error saying how to get it, not an ImportError from deep inside."""
    if not is_url(target):
        return
    try:
        import psycopg  # noqa: F401
    except ImportError as exc:
        raise StoreError(f"a postgresql:// store needs psycopg, which is not installed: {POSTGRES_EXTRA}") from exc
    importlib.import_module(POSTGRES_MODULE)  # the back end, which Store() then finds among its subclasses


# store attribute -> (module, class) of its repository, made at its first use: a command opens
# only the repositories it reads (each is a module of named statements to import).
REPOSITORIES: dict[str, tuple[str, str]] = {
    "games": ("gm.store.games", "Games"), "history": ("gm.store.games", "History"),
    "seats": ("gm.store.seats", "Seats"), "pace": ("gm.store.pace", "Pace"),
    "credentials": ("gm.store.credentials", "Credentials"), "turns": ("gm.store.turns", "Turns"),
    "inbox": ("gm.store.mail", "Inbox"), "outbox": ("gm.store.mail", "Outbox"),
    "reports": ("gm.store.mail", "Reports"), "timers": ("gm.store.service", "Timers"),
    "results": ("gm.store.service", "Results"), "lines": ("gm.store.lines", "Lines"),
    "threads": ("gm.store.threads", "MailThreads"), "selfservice": ("gm.store.selfservice", "SelfService"),
    "delivery": ("gm.store.delivery", "Delivery"), "optin": ("gm.store.optin", "OptIn"),
    "daemons": ("gm.store.daemons", "Daemons"), "metrics": ("gm.store.daemons", "Metrics"),
    "locks": ("gm.store.locks", "Locks"), "community": ("gm.store.community", "Community"),
    "tournaments": ("gm.store.tournaments", "Tournaments"),
    "rematches": ("gm.store.rematches", "Rematches"),
}


class Store(TransactionReads, DeferredWrites):
    """The store; a back end is a subclass saying which targets it ``handles``, and may give
    repositories of its own (``_outbox_kind``, ``_locks_kind``).  Each repository is made over
    the store's connection at its first use (REPOSITORIES)."""

    kind = "?"  # "sqlite" | "postgresql"
    _outbox_kind: type[Outbox] | None = None  # None: gm.store.mail.Outbox
    _locks_kind: type[Locks] | None = None  # None: gm.store.locks.Locks
    claimed: set[int]  # the outbox rows this connection's sender holds (Outbox.claim_outbox)
    claimant: str | None = None  # the daemon (daemons.daemon_id) whose sender claims, if one does
    games: Games
    history: History
    seats: Seats
    pace: Pace
    credentials: Credentials
    turns: Turns
    inbox: Inbox
    outbox: Outbox
    reports: Reports
    timers: Timers
    results: Results
    lines: Lines
    threads: MailThreads
    selfservice: SelfService
    delivery: Delivery
    optin: OptIn
    daemons: Daemons
    metrics: Metrics
    locks: Locks
    community: Community
    tournaments: Tournaments
    rematches: Rematches

    def _open_repositories(self) -> None:
        """Ready the repositories over this store's connection (a back end calls it when opening):
        each is made at its first use (__getattr__)."""

    def __getattr__(self, name: str) -> Any:
        """A repository (REPOSITORIES), made over this store's connection and kept."""
        where = REPOSITORIES.get(name)
        if where is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        kind = getattr(self, f"_{name}_kind", None) or getattr(importlib.import_module(where[0]), where[1])
        repository = kind(self)
        setattr(self, name, repository)
        return repository

    def __new__(cls, target: str | Path, *args: Any, **kwargs: Any) -> Store:
        if cls is Store:
            require_driver(target)
            handler = next((sub for sub in Store.__subclasses__() if sub.handles(target)), None)
            if handler is None:
                raise ValueError(f"no store back end for {target!r}")
            cls = handler
        return super().__new__(cls)

    @classmethod
    def handles(cls, target: str | Path) -> bool:
        return False

    # --- what a back end provides ---------------------------------------------------------
    @property
    def db(self) -> WatchedConnection:
        """The back end's connection: execute(sql, params) -> a cursor (fetchone, fetchall, rowcount,
        iteration); watched, so that a write forgets the reads it changes (gm.store.reads)."""
        return self.watched

    @db.setter
    def db(self, connection: Any) -> None:
        self.watched = WatchedConnection(connection, self._wrote, self._before_statement)

    path: str | Path  # what Store() opens again (another thread's own connection)

    def close(self) -> None:
        self.db.close()

    def begin(self, durable: bool) -> None:
        """Open a write transaction holding the store's writer lock (BEGIN IMMEDIATE or its like)."""
        raise NotImplementedError

    def commit(self) -> None:
        raise NotImplementedError

    def rollback(self) -> None:
        raise NotImplementedError

    def insert(self, table: str, **values: Any) -> int:
        """Insert one row; returns its id (its INTEGER PRIMARY KEY), where it has one.  For tests and
        tools: the store's own inserts are statements declared with gm.store.sql.inserting (compiled
        ahead); this one makes its shape's at run time (SQLAlchemy loads then), unless declared."""
        return self.insert_row(inserting(table, tuple(values)), **values)

    def insert_row(self, statement: Shaped, **values: Any) -> int:
        """Run an INSERT made by gm.store.sql.inserting with these values; the new row's id."""
        self._require_tx()
        row_id = statement.run(self, **values).lastrowid
        assert row_id is not None  # SQLite's, after an INSERT
        return int(row_id)

    def insert_unless(self, statement: Shaped, values: dict[str, Any],
                      read_game: tuple[str, str] | None = None) -> int | None:
        """Insert one row unless the condition of ``statement`` (gm.store.sql.inserting_unless) finds
        a row, in one statement; ``values``: its columns' and its condition's parameters.  Returns the
        row's id, or None where nothing was inserted.  ``read_game``: then read_game(*read_game) (on
        PostgreSQL in the same statement)."""
        self._require_tx()
        cursor = statement.run(self, **values)
        if read_game is not None:
            self.read_game(*read_game)
        if cursor.rowcount != 1:
            return None
        row_id = cursor.lastrowid
        assert row_id is not None  # a row was inserted
        return int(row_id)

    def insert_many(self, table: str, columns: list[str], rows: list[tuple[Any, ...]]) -> None:
        """Insert many rows of the same columns at once (gm store copy): multi-row INSERTs."""
        self._require_tx()
        rows = self._storable_rows(table, columns, rows)
        most = max(1, min(ROWS_AT_ONCE, PARAMETERS_AT_ONCE // max(1, len(columns))))
        for start in range(0, len(rows), most):
            chunk = rows[start:start + most]
            statement, names = insert_rows(table, tuple(columns), len(chunk))
            statement.run(self, **dict(zip(names, (value for row in chunk for value in row))))

    def _storable_rows(self, table: str, columns: list[str], rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
        """Rows as the back end stores them (PostgreSQL: gm.store.pgrows.storable)."""
        return rows

    @property
    def schema_version(self) -> int:
        raise NotImplementedError

    def table_names(self) -> list[str]:
        """gm's tables in the order they were made (parents before children)."""
        raise NotImplementedError

    def ids_restored(self, table: str) -> None:
        """Rows were inserted with their own ids: later inserts must number after them."""

    def release_free_pages(self, most: int) -> int:
        """Give back to the file system up to ``most`` pages that deleted or trimmed rows left
        free; how many.  None here: a database server reclaims its own (PostgreSQL's autovacuum)."""
        return 0

    # --- transactions -------------------------------------------------------------------------
    depth = 0

    scoped = False  # the transaction being opened locks what it changes (lock_games, lock_shared)

    @contextmanager
    def write(self, durable: bool = True, scoped: bool = False, games: Iterable[str] = ()) -> Iterator[Any]:
        """One write transaction; nested uses join the outer one.

        No other write changes what it changes meanwhile, across every process
        sharing the store, so a read-modify-write of a game never loses an update.
        ``scoped=True`` (the outermost write decides): on PostgreSQL it runs beside
        other scoped ones and locks what it changes first (``store.locks``,
        gm.store.locks); on SQLite BEGIN IMMEDIATE lets one writer at a time.
        ``games``: a scoped write locking these games first.  ``durable=False``
        may skip the flush to disk at commit (only an operating-system crash can
        undo it): for records whose loss merely repeats work ("this mail was
        sent"), never for what a player did.
        """
        games = [g.strip().lower() for g in games if g]
        if self.depth:
            self.depth += 1
            try:
                self.locks.lock_games(*games)
                yield self.db
            finally:
                self.depth -= 1
            return
        self.scoped = scoped or bool(games)
        self.locks.begin(self.scoped)
        self.begin(durable)
        self.forget_reads()
        self._drop_deferred()
        self.depth = 1
        try:
            self.locks.lock_games(*games)
            yield self.db
            self._flush_at_commit()  # the rows written together (gm.store.deferred), before the commit
        except BaseException:
            self.depth = 0
            self.forget_reads()
            self._drop_deferred()
            self.rollback()
            raise
        else:
            self.depth = 0
            self.forget_reads()
            self.commit()

    @contextmanager
    def snapshot(self) -> Iterator[Any]:
        """One read-only transaction: every read inside sees the store at one moment.

        It takes no writer lock, so a daemon goes on writing meanwhile (gm backup, gm store copy);
        what it commits after the first read is not seen."""
        self._begin_snapshot()
        try:
            yield self.db
        finally:
            self._end_snapshot()

    def _begin_snapshot(self) -> None:
        raise NotImplementedError

    def _flush_at_commit(self) -> None:
        """The rows waiting (gm.store.deferred), written just before the commit (PostgreSQL: in
        the COMMIT's own round trip)."""
        self.flush_deferred()

    def read_game(self, game_id: str, sender: str) -> None:
        """Read at once what judging a mail of ``game_id`` from ``sender`` reads of its game (its
        row, newest state, players, timer, deadline, settings, observers, credential locks and the
        players' delivery states), remembered for this write transaction (gm.store.reads) as the
        methods reading each would read it.  Only after the game is locked.  SQLite: nothing (its
        reads are calls in the process); PostgreSQL: one statement for all (gm.store.gameload)."""

    def _end_snapshot(self) -> None:
        raise NotImplementedError

    @property
    def in_transaction(self) -> bool:
        return self.depth > 0

    # --- generic reads and writes ---------------------------------------------------
    def one(self, sql: str, *args: Any, **params: Any) -> Row | None:
        """The first row of portable SQL with ``:name`` parameters (gm.store.sql.portable)."""
        return self.db.execute(sql, params or args).fetchone()

    def all(self, sql: str, *args: Any, **params: Any) -> list[Row]:
        """Every row of portable SQL with ``:name`` parameters (gm.store.sql.portable)."""
        return self.db.execute(sql, params or args).fetchall()

    def _require_tx(self) -> None:
        if not self.depth:
            raise RuntimeError("writes must run inside Store.write()")

    def update(self, table: str, where: dict[str, Any], **values: Any) -> int:
        """Set ``values`` in the rows of ``table`` whose columns equal ``where``'s; how many rows changed.
        For tests and tools: the store's own are statements declared with gm.store.sql.updating
        (compiled ahead: gm ingest must not import SQLAlchemy, tests/test_startup_imports.py); this
        one makes its shape's at run time, unless declared."""
        return self.update_rows(updating(table, tuple(where), tuple(values)), **where, **values)

    def update_rows(self, statement: Shaped, **params: Any) -> int:
        """Run an UPDATE (gm.store.sql.updating) inside the write transaction; how many rows changed."""
        self._require_tx()
        return statement.run(self, **params).rowcount

    # --- gm doctor ----------------------------------------------------------------------------
    def prove_writable(self) -> None:
        """A write that changes no row (inside a write): raises where the store takes no writes."""
        self._require_tx()
        NO_CHANGE.run(self)


# --- statements built from names (the generic helpers), once per distinct shape ----------------
SHAPES: dict[tuple[Any, ...], tuple[Prepared, tuple[str, ...]]] = {}  # shape -> (statement, its parameters in order)

# Parameters in one multi-row INSERT of insert_many: within SQLite's oldest limit (999).
PARAMETERS_AT_ONCE = 900


def insert_rows(table: str, columns: tuple[str, ...], count: int) -> tuple[Prepared, tuple[str, ...]]:
    """INSERT INTO table (columns) VALUES, ``count`` rows of them (parameters p<row>_<column>)."""
    key = ("insert", table, columns, count)
    done = SHAPES.get(key)
    if done is None:
        names = [[f"p{r}_{i}" for i in range(len(columns))] for r in range(count)]

        def build(sa: Any, t: Any) -> Any:
            return sa.insert(table_named(sa, t, table, columns)).values(
                [{c: sa.bindparam(n) for c, n in zip(columns, row)} for row in names])

        done = SHAPES[key] = (prepared(build), tuple(n for row in names for n in row))
    return done


# gm doctor's proof that the store takes writes: an UPDATE of no row (no id is -1)
NO_CHANGE = prepared(lambda sa, t: sa.update(t.outbox).where(t.outbox.c.id == -1).values(
    attempts=t.outbox.c.attempts))
