"""Step 3: timers by due time, and indexes for every look-up the per-message path makes.

A tick reads only the timers due.  Every active game starts due at once: the first tick after
the upgrade works out each game's real next time.
"""

from __future__ import annotations

from gm.store.changes import NewIndex, NewTable, Portable, Step

SQL = """
CREATE TABLE timers (
    game_id TEXT PRIMARY KEY,        -- one row per game with something ahead of it
    due REAL NOT NULL                -- the earliest moment its deadline steps or rules timer need the clock
);
CREATE INDEX timers_due ON timers(due);
INSERT INTO timers(game_id, due) SELECT id, 0 FROM games WHERE status = 'active';
CREATE INDEX outbox_recipient ON outbox(recipient, created);
CREATE INDEX outbox_kind ON outbox(kind, created);
CREATE INDEX orders_seq ON orders(game_id, seq);
CREATE INDEX history_game ON history(game_id, id);
CREATE INDEX absences_game ON absences(game_id);
"""

STEP = Step(3, 'timers by due time; indexes of the per-message look-ups', SQL, postgresql=(
    NewTable("timers"),
    NewIndex("timers_due"),
    Portable("INSERT INTO timers(game_id, due) SELECT id, 0 FROM games WHERE status = 'active'"),
    NewIndex("outbox_recipient"),
    NewIndex("outbox_kind"),
    NewIndex("orders_seq"),
    NewIndex("history_game"),
    NewIndex("absences_game"),
))
