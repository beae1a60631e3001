"""Step 27: the takeback asked for in each game, and who accepted it (TAKEBACK, RULINGS G9;
gm.service.play.takebacks).

One row per player at most: the mover's ask and the others' accepts, each naming the state the
move to take back made (``seq``); a decline, the undo or the next move ends them all.
"""

from __future__ import annotations

from gm.store.changes import NewTable, Step

SQL = """
CREATE TABLE takebacks (
    game_id TEXT NOT NULL,
    player TEXT NOT NULL,
    seq INTEGER NOT NULL,            -- the state the move to take back made
    answer TEXT NOT NULL,            -- ask | accept
    made REAL NOT NULL,
    PRIMARY KEY (game_id, player)
);
"""

STEP = Step(27, "takebacks asked for and accepted (TAKEBACK, RULINGS G9)", SQL, postgresql=(
    NewTable("takebacks"),
))
