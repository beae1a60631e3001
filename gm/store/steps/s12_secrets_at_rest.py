"""Step 12: a mail set aside keeps its authentication, not its password; bouncing=wait holds.

``messages.auth``: "password <game> <seat>", "token <game> <seat>" or "none"; the password is
masked in the copy kept (gm.mail.redact), and gm inbox --retry uses this instead.
bounce_holds: each time bouncing=wait held a player's deadline (once per turn, capped by the
game's absence_total), so nobody escapes the late policy by bouncing her own mail.
"""

from __future__ import annotations

from gm.store.changes import NewColumn, NewTable, Step

SQL = """
ALTER TABLE messages ADD COLUMN auth TEXT;
CREATE TABLE bounce_holds (
    game_id TEXT NOT NULL,
    player TEXT NOT NULL,
    start_seq INTEGER NOT NULL,      -- the state seq that opened the turn held
    seconds REAL NOT NULL,           -- how long the deadline was held
    at REAL NOT NULL,
    PRIMARY KEY (game_id, player, start_seq)
);
"""

STEP = Step(12, 'the authentication of a mail set aside; bouncing=wait holds', SQL, postgresql=(
    NewColumn("messages", "auth"),
    NewTable("bounce_holds"),
))
