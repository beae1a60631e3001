"""Step 16: the draw proposals standing in each game (DRAW, RULINGS G6; gm.service.people.draws).

One per player at most; a proposal stands until the end of the turn after ``turn``.
"""

from __future__ import annotations

from gm.store.changes import NewTable, Step

SQL = """
CREATE TABLE draw_proposals (
    game_id TEXT NOT NULL,
    player TEXT NOT NULL,
    turn INTEGER NOT NULL,           -- the turn it was made in
    made REAL NOT NULL,
    PRIMARY KEY (game_id, player)
);
"""

STEP = Step(16, 'draw proposals standing (DRAW, RULINGS G6)', SQL, postgresql=(
    NewTable("draw_proposals"),
))
