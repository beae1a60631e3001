"""Step 29: how often a reader is mailed (SET MAIL EACH|MYTURN|DAILY, gm.service.outgoing.pace).

seat_paces holds the pace and daily hour of each seat not mailed every report, and
address_paces those of SET MAIL ... ALL; held_letters keeps the events of the reports held back from a reader, and
digests the one daily digest each address has coming, by when it is due (the tick reads
only the due rows).
"""

from __future__ import annotations

from gm.store.changes import NewIndex, NewTable, Step

SQL = """
CREATE TABLE seat_paces (
    game_id TEXT NOT NULL,
    player TEXT NOT NULL,
    mail_pace TEXT NOT NULL,         -- myturn | daily (a seat mailed each report has no row)
    mail_at INTEGER,                 -- daily: the digest's minute of the day in the seat's zone
    PRIMARY KEY (game_id, player)
);
CREATE TABLE address_paces (
    address TEXT NOT NULL PRIMARY KEY,  -- as address_settings keys it
    mail_pace TEXT NOT NULL,
    mail_at INTEGER
);
CREATE TABLE held_letters (
    id INTEGER NOT NULL PRIMARY KEY,
    address TEXT NOT NULL,           -- lower-cased
    game_id TEXT NOT NULL,
    player TEXT NOT NULL,
    turn INTEGER NOT NULL,
    events TEXT NOT NULL,            -- JSON list of the report's event lines, as the reader saw them
    held REAL NOT NULL
);
CREATE INDEX held_letters_reader ON held_letters(game_id, player);
CREATE INDEX held_letters_address ON held_letters(address);
CREATE TABLE digests (
    address TEXT NOT NULL PRIMARY KEY,  -- lower-cased
    due REAL NOT NULL
);
CREATE INDEX digests_due ON digests(due);
"""

STEP = Step(29, "how often a reader is mailed (SET MAIL), held reports and daily digests", SQL, postgresql=(
    NewTable("seat_paces"),
    NewTable("address_paces"),
    NewTable("held_letters"),
    NewIndex("held_letters_reader"),
    NewIndex("held_letters_address"),
    NewTable("digests"),
    NewIndex("digests_due"),
))
