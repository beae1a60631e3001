"""Step 4: a player's own report format and time zone (SET FORMAT, SET TIMEZONE)."""

from __future__ import annotations

from gm.store.changes import NewColumn, Step

SQL = """
-- format: html or text, NULL for the game's option; timezone: an IANA name, NULL for UTC
ALTER TABLE players ADD COLUMN format TEXT;
ALTER TABLE players ADD COLUMN timezone TEXT;
"""

STEP = Step(4, "a player's own report format and time zone (SET FORMAT, SET TIMEZONE)", SQL, postgresql=(
    NewColumn("players", "format"),
    NewColumn("players", "timezone"),
))
