"""Step 30: deadlines as calendar events (SET CALENDAR; gm.service.outgoing.calendar).

A seat's and an address's setting (players.calendar, address_settings.calendar: 'on', else
off), and one row per seat and turn whose event a reader was sent: the SEQUENCE it was sent
with, the due it showed (the last one sent) and whether it was cancelled since.
"""

from __future__ import annotations

from gm.store.changes import NewColumn, NewTable, Step

SQL = """
ALTER TABLE players ADD COLUMN calendar TEXT; -- 'on': reports carry the deadline as an event
ALTER TABLE address_settings ADD COLUMN calendar TEXT; -- SET CALENDAR ... ALL
CREATE TABLE calendar_events (
    game_id TEXT NOT NULL,
    player TEXT NOT NULL,
    turn INTEGER NOT NULL,
    sequence INTEGER NOT NULL,       -- the SEQUENCE last sent
    due REAL NOT NULL,               -- the moment the event last sent shows
    cancelled INTEGER NOT NULL DEFAULT 0,
    updated REAL NOT NULL,
    PRIMARY KEY (game_id, player, turn)
);
"""

STEP = Step(30, "deadlines as calendar events (SET CALENDAR)", SQL, postgresql=(
    NewColumn("players", "calendar"),
    NewColumn("address_settings", "calendar"),
    NewTable("calendar_events"),
))
