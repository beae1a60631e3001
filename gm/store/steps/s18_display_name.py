"""Step 18: a seat's display name, as its address was given (players.display_name)."""

from __future__ import annotations

from gm.store.changes import NewColumn, Step

SQL = """
-- 'Zoë Ångström' of "Zoë Ångström <zoë@example.org>", cleaned (gm.core.addresses); '' for none
ALTER TABLE players ADD COLUMN display_name TEXT NOT NULL DEFAULT '';
"""

STEP = Step(18, "a seat's display name, as its address was given (players.display_name)", SQL, postgresql=(
    NewColumn("players", "display_name"),
))
