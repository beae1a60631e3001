"""Step 14: daemon heartbeats and outages: deadlines wait for gm.

Each daemon writes its heartbeat row on every tick (``sending_down_since``: when its sender
found the SMTP server unreachable), so that after a restart gm knows how long it was away.
``outages``: each stretch gm could not send or was not running; the deadlines that fell inside
one move by its length once it is over (``applied``); ``finish`` is NULL while it lasts.
"""

from __future__ import annotations

from gm.store.changes import NewTable, Step

SQL = """
CREATE TABLE daemons (
    daemon_id TEXT PRIMARY KEY,      -- host:pid:random, one per running daemon
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    started REAL NOT NULL,
    last_seen REAL NOT NULL,
    sending_down_since REAL
);
CREATE TABLE outages (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,              -- sending | stopped
    start REAL NOT NULL,
    finish REAL,
    applied INTEGER NOT NULL DEFAULT 0
);
"""

STEP = Step(14, 'daemon heartbeats and outages (deadlines wait for gm)', SQL, postgresql=(
    NewTable("daemons"),
    NewTable("outages"),
))
