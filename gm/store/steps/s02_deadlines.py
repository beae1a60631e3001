"""Step 2: game settings, deadlines, absences, GM-made states and results.

``IF NOT EXISTS``: databases made before migrations may hold some of these tables already (the
old deadlines module made them when it first ran).
"""

from __future__ import annotations

from gm.store.changes import NewTable, Step

SQL = """
CREATE TABLE IF NOT EXISTS game_settings (
    game_id TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (game_id, key)
);
CREATE TABLE IF NOT EXISTS deadlines (
    game_id TEXT PRIMARY KEY,
    start_seq INTEGER NOT NULL,      -- the state seq that opened the turn
    turn INTEGER NOT NULL,
    due REAL,                        -- NULL: this turn has no deadline
    reminded INTEGER NOT NULL DEFAULT 0,
    late INTEGER NOT NULL DEFAULT 0, -- the deadline was processed
    grace_done INTEGER NOT NULL DEFAULT 0,
    paused_at REAL,
    set_by TEXT NOT NULL DEFAULT 'option'
);
CREATE TABLE IF NOT EXISTS absences (
    id INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL,
    player TEXT NOT NULL,
    start REAL NOT NULL,
    end REAL NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS state_overrides (
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL,            -- a state the GM made, not the rules
    action TEXT NOT NULL,            -- rollback | edit
    source_seq INTEGER,              -- rollback: the state restored
    detail TEXT,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS results (
    game_id TEXT PRIMARY KEY,        -- a game ended by the GM or a forfeit
    reason TEXT NOT NULL,
    winners TEXT,                    -- JSON list, or NULL: as the rules say
    at REAL NOT NULL
);
"""

STEP = Step(2, 'settings, deadlines, absences, state overrides, results', SQL, postgresql=(
    NewTable("game_settings", if_not_exists=True),
    NewTable("deadlines", if_not_exists=True),
    NewTable("absences", if_not_exists=True),
    NewTable("state_overrides", if_not_exists=True),
    NewTable("results", if_not_exists=True),
))
