"""Step 26: the conditional lines standing in each game (IF ... THEN ..., RULINGS G8).

One row a line: whose it is, the state (``seq``) whose next move its first step names, and the
steps still to come, as JSON [[player, move], ...] in the game's canonical notation.
"""

from __future__ import annotations

from gm.store.changes import NewTable, Step

SQL = """
CREATE TABLE conditional_lines (
    id INTEGER NOT NULL PRIMARY KEY,
    game_id TEXT NOT NULL,
    player TEXT NOT NULL,            -- the sender: the line plays their moves
    seq INTEGER NOT NULL,            -- the state whose next move the first step names
    steps TEXT NOT NULL,             -- JSON [[player, move], ...]: the moves still to come
    written TEXT NOT NULL,           -- the line as the sender wrote it
    made REAL NOT NULL
);
"""

STEP = Step(26, 'conditional lines standing (IF ... THEN, RULINGS G8)', SQL, postgresql=(
    NewTable("conditional_lines"),
))
