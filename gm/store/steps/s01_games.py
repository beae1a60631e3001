"""Step 1: games, players, states, inbound mail, orders, outbox, reports and history.

The schema of the first gm, before migrations, less its ``meta`` table (left alone where it
exists).  Databases of that gm have user_version 0 and these tables: gm.store.migrations takes
them as being at this step.
"""

from __future__ import annotations

from gm.store.changes import NewIndex, NewTable, Step

SQL = """
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    seed INTEGER NOT NULL,
    options TEXT NOT NULL,           -- JSON of the raw key=value options
    status TEXT NOT NULL,            -- active | finished | paused
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE players (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    pw_hash TEXT NOT NULL,           -- scrypt$n$r$p$salt_hex$hash_hex
    active INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (game_id, name)
);
CREATE TABLE states (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,            -- 0 = the set-up, then one per change
    turn INTEGER NOT NULL,
    state TEXT NOT NULL,             -- the rule module's versioned JSON
    created REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE messages (
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
CREATE INDEX messages_mid ON messages(message_id);
CREATE TABLE orders (
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
CREATE INDEX orders_game ON orders(game_id, id);
CREATE TABLE outbox (
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
CREATE INDEX outbox_queue ON outbox(status, next_attempt);
CREATE TABLE reports (
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
CREATE INDEX reports_game ON reports(game_id, turn);
CREATE TABLE history (
    id INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL,
    turn INTEGER NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    detail TEXT,
    at REAL NOT NULL
);
"""

STEP = Step(1, 'games, players, states, mail, orders, outbox, reports, history', SQL, postgresql=(
    NewTable("games"),
    NewTable("players"),
    NewTable("states"),
    NewTable("messages"),
    NewIndex("messages_mid"),
    NewTable("orders"),
    NewIndex("orders_game"),
    NewTable("outbox"),
    NewIndex("outbox_queue"),
    NewTable("reports"),
    NewIndex("reports_game"),
    NewTable("history"),
))
