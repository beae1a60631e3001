"""Step 23: which daemon claimed each outbox row, and which took over a dead one's work."""

from __future__ import annotations

from gm.store.changes import NewColumn, Step

SQL = """
-- the daemon (daemons.daemon_id) that last claimed the row to send it; NULL: none yet, or SQLite
ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
-- the last dead daemon whose claimed, unsent mail this daemon sent, and when it claimed it
ALTER TABLE daemons ADD COLUMN took_over_from TEXT;
ALTER TABLE daemons ADD COLUMN took_over_at REAL;
"""

STEP = Step(23, "which daemon claimed each outbox row, and which took over a dead one's work", SQL, postgresql=(
    NewColumn("outbox", "claimed_by"),
    NewColumn("daemons", "took_over_from"),
    NewColumn("daemons", "took_over_at"),
))
