"""Step 31: the out-of-office replies seen from a seat's address while its game waited for it
(gm.service.intake.away).

One row per address and seat: when the last one came, its subject (cut short), and when the
address was last told how to send ABSENCE (at most once a week, across its games).
"""

from __future__ import annotations

from gm.store.changes import NewTable, Step

SQL = """
CREATE TABLE away_notices (
    address_key TEXT NOT NULL,       -- the seat's registered address as gm.core.addresses.mailbox_key has it
    game_id TEXT NOT NULL,
    player TEXT NOT NULL,
    last_seen REAL NOT NULL,
    subject TEXT NOT NULL,           -- the last one's subject, cut to 120 characters
    last_told REAL,                  -- when the address was last mailed about one, if ever
    PRIMARY KEY (address_key, game_id, player)
);
"""

STEP = Step(31, "out-of-office replies seen from seats awaited (away_notices)", SQL, postgresql=(
    NewTable("away_notices"),
))
