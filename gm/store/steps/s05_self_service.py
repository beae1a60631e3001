"""Step 5: players help themselves by mail.

Open games waiting for players, observers, address changes waiting for their code, and each
seat's token generation (a new password or address bumps it, so every reply address made
before stops working).
"""

from __future__ import annotations

from gm.store.changes import NewColumn, NewTable, Step

SQL = """
ALTER TABLE players ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;
CREATE TABLE open_games (
    game_id TEXT PRIMARY KEY,        -- a games row with status 'open': seats to fill, no state yet
    seats INTEGER NOT NULL,          -- it starts by itself when this many have joined
    min_seats INTEGER NOT NULL,      -- gm start may start it once this many have joined
    created_by TEXT NOT NULL         -- gm:<user>, or the address that sent CREATE
);
CREATE TABLE observers (
    game_id TEXT NOT NULL,
    email TEXT NOT NULL,             -- lower-cased
    approved INTEGER NOT NULL,       -- 0: waits for the GM (observers=approved)
    since REAL NOT NULL,
    PRIMARY KEY (game_id, email)
);
CREATE TABLE address_codes (
    code_hash TEXT PRIMARY KEY,      -- sha256 of the code mailed to the new address
    game_id TEXT NOT NULL,
    player TEXT NOT NULL,
    new_email TEXT NOT NULL,
    expires REAL NOT NULL,
    used INTEGER NOT NULL DEFAULT 0
);
"""

STEP = Step(5, 'open games, observers, address codes, seat token generations', SQL, postgresql=(
    NewColumn("players", "generation"),
    NewTable("open_games"),
    NewTable("observers"),
    NewTable("address_codes"),
))
