"""SQLite storage: games, players, states, orders, inbound mail, outbox, reports.

Standard-library sqlite3 in WAL mode.  Every write happens inside
``store.write()``, which opens the transaction with ``BEGIN IMMEDIATE`` so
that the read-modify-write of a game state can never interleave with another
process (the daemon and a GM's CLI) and lose an update.
"""

from __future__ import annotations

import json
import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    seed INTEGER NOT NULL,
    options TEXT NOT NULL,           -- JSON of the raw key=value options
    status TEXT NOT NULL,            -- active | finished | paused
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS players (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    pw_hash TEXT NOT NULL,           -- scrypt$n$r$p$salt_hex$hash_hex
    active INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (game_id, name)
);
CREATE TABLE IF NOT EXISTS states (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,            -- 0 = the set-up, then one per change
    turn INTEGER NOT NULL,
    state TEXT NOT NULL,             -- the rule module's versioned JSON
    created REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY,
    source_key TEXT NOT NULL UNIQUE, -- e.g. imap:UIDVALIDITY:UID, maildir:NAME, stdin:SHA256
    message_id TEXT,                 -- the Message-ID header, fallback identity
    sender TEXT,
    subject TEXT,
    raw BLOB NOT NULL,
    received REAL NOT NULL,
    game_id TEXT,
    outcome TEXT NOT NULL,           -- applied | rejected | ignored | robot | duplicate | help | error
    detail TEXT
);
CREATE INDEX IF NOT EXISTS messages_mid ON messages(message_id);
CREATE TABLE IF NOT EXISTS orders (
    id INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL REFERENCES games(id),
    action TEXT NOT NULL,            -- order | close
    player TEXT,
    turn INTEGER NOT NULL,
    text TEXT NOT NULL,
    canonical TEXT,
    accepted INTEGER NOT NULL,       -- 1: went through the rules, 0: refused
    error TEXT,
    message_row INTEGER REFERENCES messages(id),
    origin TEXT NOT NULL,            -- mail | gm | deadline | timer
    at REAL NOT NULL,                -- the 'now' the rules saw (replay uses it)
    seq INTEGER                      -- the state seq this order produced
);
CREATE INDEX IF NOT EXISTS orders_game ON orders(game_id, id);
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY,
    message_id TEXT NOT NULL UNIQUE, -- fixed at queue time so a resend is recognisable
    game_id TEXT,
    turn INTEGER,
    kind TEXT NOT NULL,              -- report | reply | welcome | notice
    recipient TEXT NOT NULL,
    subject TEXT NOT NULL,
    raw BLOB NOT NULL,               -- the whole RFC 5322 message
    status TEXT NOT NULL,            -- queued | sent | failed
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt REAL NOT NULL,
    last_error TEXT,
    created REAL NOT NULL,
    sent REAL
);
CREATE INDEX IF NOT EXISTS outbox_queue ON outbox(status, next_attempt);
CREATE TABLE IF NOT EXISTS reports (
    id INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL,
    turn INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    player TEXT,                     -- NULL: the GM's copy
    kind TEXT NOT NULL,              -- report | reply | notice | press
    body TEXT NOT NULL,
    outbox_id INTEGER REFERENCES outbox(id),
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS reports_game ON reports(game_id, turn);
CREATE TABLE IF NOT EXISTS history (
    id INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL,
    turn INTEGER NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    detail TEXT,
    at REAL NOT NULL
);
"""


class StoreError(RuntimeError):
    """The database could not be used (locked too long, disk full, corrupt)."""


class Store:
    def __init__(self, path: str | Path, timeout: float = 30.0):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: we issue BEGIN ourselves, never implicitly.
        self.db = sqlite3.connect(str(self.path), timeout=timeout, isolation_level=None)
        self.db.row_factory = sqlite3.Row
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.execute(f"PRAGMA busy_timeout={int(timeout * 1000)}")
        self._depth = 0
        with self.write():
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self.db.execute(statement)
            self.db.execute(
                "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
            )

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def write(self, durable: bool = True) -> Iterator[sqlite3.Connection]:
        """One write transaction (BEGIN IMMEDIATE); nested uses join the outer one.

        ``durable=False`` skips the fsync at commit (WAL with synchronous=NORMAL):
        the transaction still survives the process being killed, and only an
        operating-system crash or power cut can undo it.  For records whose loss
        merely repeats work, such as "this mail was sent" (a resend carries the
        same Message-ID); never for anything that records what a player did.
        """
        if self._depth:
            self._depth += 1
            try:
                yield self.db
            finally:
                self._depth -= 1
            return
        if not durable:
            self.db.execute("PRAGMA synchronous=NORMAL")
        try:
            try:
                self.db.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                raise StoreError(f"database busy or unavailable: {exc}") from exc
            self._depth = 1
            try:
                yield self.db
            except BaseException:
                self._depth = 0
                self.db.execute("ROLLBACK")
                raise
            else:
                self._depth = 0
                try:
                    self.db.execute("COMMIT")
                except sqlite3.OperationalError as exc:
                    self.db.execute("ROLLBACK")
                    raise StoreError(f"commit failed: {exc}") from exc
        finally:
            if not durable:
                self.db.execute("PRAGMA synchronous=FULL")

    @property
    def in_transaction(self) -> bool:
        return self._depth > 0

    # --- reads ------------------------------------------------------------------
    def one(self, sql: str, *args: Any) -> sqlite3.Row | None:
        return self.db.execute(sql, args).fetchone()

    def all(self, sql: str, *args: Any) -> list[sqlite3.Row]:
        return self.db.execute(sql, args).fetchall()

    def game(self, game_id: str) -> sqlite3.Row | None:
        return self.one("SELECT * FROM games WHERE id = ?", game_id)

    def games(self) -> list[sqlite3.Row]:
        return self.all("SELECT * FROM games ORDER BY created, id")

    def players(self, game_id: str) -> list[sqlite3.Row]:
        return self.all("SELECT * FROM players WHERE game_id = ? ORDER BY seat", game_id)

    def player(self, game_id: str, name: str) -> sqlite3.Row | None:
        return self.one(
            "SELECT * FROM players WHERE game_id = ? AND lower(name) = lower(?)", game_id, name
        )

    def latest_state(self, game_id: str) -> sqlite3.Row | None:
        return self.one(
            "SELECT * FROM states WHERE game_id = ? ORDER BY seq DESC LIMIT 1", game_id
        )

    def message_seen(self, source_key: str, message_id: str | None) -> sqlite3.Row | None:
        row = self.one("SELECT * FROM messages WHERE source_key = ?", source_key)
        if row is None and message_id:
            row = self.one(
                "SELECT * FROM messages WHERE message_id = ? AND outcome != 'duplicate'", message_id
            )
        return row

    # --- writes (call inside write()) -----------------------------------------
    def _require_tx(self) -> None:
        if not self._depth:
            raise RuntimeError("writes must run inside Store.write()")

    def insert(self, table: str, **values: Any) -> int:
        self._require_tx()
        cols = ", ".join(values)
        marks = ", ".join("?" for _ in values)
        cur = self.db.execute(f"INSERT INTO {table} ({cols}) VALUES ({marks})", tuple(values.values()))
        return int(cur.lastrowid)

    def update(self, table: str, where: dict[str, Any], **values: Any) -> int:
        self._require_tx()
        sets = ", ".join(f"{k} = ?" for k in values)
        cond = " AND ".join(f"{k} = ?" for k in where)
        cur = self.db.execute(
            f"UPDATE {table} SET {sets} WHERE {cond}", (*values.values(), *where.values())
        )
        return cur.rowcount

    def add_state(self, game_id: str, turn: int, state: dict, now: float | None = None) -> int:
        last = self.latest_state(game_id)
        seq = 0 if last is None else last["seq"] + 1
        self.insert(
            "states", game_id=game_id, seq=seq, turn=turn,
            state=json.dumps(state, sort_keys=True), created=now or time.time(),
        )
        return seq

    def log(self, game_id: str, turn: int, actor: str, action: str, detail: str = "", now: float | None = None) -> None:
        self.insert("history", game_id=game_id, turn=turn, actor=actor, action=action,
                    detail=detail, at=now or time.time())
