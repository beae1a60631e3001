"""Step 20: each daemon's inbox backlog after its last poll (gm status)."""

from __future__ import annotations

from gm.store.changes import NewColumn, Step

SQL = """
-- inbox_handled: messages its last poll handled, inbox_left: messages still in the inbox when it
-- ended (come meanwhile, or left to another daemon), backlog_since: since when every poll has
-- ended with mail left (NULL when the last one emptied the inbox).  NULL before its first poll
ALTER TABLE daemons ADD COLUMN inbox_handled INTEGER;
ALTER TABLE daemons ADD COLUMN inbox_left INTEGER;
ALTER TABLE daemons ADD COLUMN backlog_since REAL;
"""

STEP = Step(20, "each daemon's inbox backlog after its last poll (gm status)", SQL, postgresql=(
    NewColumn("daemons", "inbox_handled"),
    NewColumn("daemons", "inbox_left"),
    NewColumn("daemons", "backlog_since"),
))
