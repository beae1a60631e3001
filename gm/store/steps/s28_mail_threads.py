"""Step 28: the first mail of each game to each reader, the root of that reader's thread
(gm.service.outgoing.threads).

One row per game and reader (the address lower-cased): the Message-ID every later mail of the
game to that reader names in In-Reply-To and References, so a mail client shows one thread.
"""

from __future__ import annotations

from gm.store.changes import NewTable, Step

SQL = """
CREATE TABLE mail_threads (
    game_id TEXT NOT NULL,
    address TEXT NOT NULL,           -- the reader, lower-cased
    root TEXT NOT NULL,              -- the Message-ID of the game's first mail to the reader
    made REAL NOT NULL,
    PRIMARY KEY (game_id, address)
);
"""

STEP = Step(28, "the first mail of each game to each reader (one thread per game)", SQL, postgresql=(
    NewTable("mail_threads"),
))
