"""Step 9: the credential model (gm.service.people.credentials).

games.token_salt: a random value drawn when a game is made, under the HMAC of its reply tokens
('' for games made before, whose tokens keep working).  address_codes holds every code a seat's
credentials wait on: purpose 'address' (to the new address), 'revert' (to the old one), 'reset'
(to the registered address); ``ended`` says why a code no longer works.  credential_failures:
each wrong password (player '' when the sender holds no seat of the game); credential_locks: a
seat ('' sender) or a sender ('' game and player) refused passwords until ``until``.
"""

from __future__ import annotations

from gm.store.changes import NewColumn, NewIndex, NewTable, Step

SQL = """
ALTER TABLE games ADD COLUMN token_salt TEXT NOT NULL DEFAULT '';
ALTER TABLE address_codes ADD COLUMN purpose TEXT NOT NULL DEFAULT 'address';
ALTER TABLE address_codes ADD COLUMN created REAL NOT NULL DEFAULT 0;
ALTER TABLE address_codes ADD COLUMN ended TEXT;
CREATE INDEX address_codes_seat ON address_codes(game_id, player);
CREATE TABLE credential_failures (
    id INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL,
    player TEXT NOT NULL,            -- '' : the sender holds no seat of the game
    sender TEXT NOT NULL,            -- lower-cased From
    at REAL NOT NULL
);
CREATE INDEX credential_failures_seat ON credential_failures(game_id, player, at);
CREATE INDEX credential_failures_sender ON credential_failures(sender, at);
CREATE TABLE credential_locks (
    id INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL,           -- '' with player '': a sender's lock
    player TEXT NOT NULL,
    sender TEXT NOT NULL,            -- '' : a seat's lock
    since REAL NOT NULL,
    until REAL NOT NULL
);
CREATE INDEX credential_locks_seat ON credential_locks(game_id, player, until);
CREATE INDEX credential_locks_sender ON credential_locks(sender, until);
"""

STEP = Step(9, 'credentials: token salts, every pending code, wrong passwords and lock-outs', SQL, postgresql=(
    NewColumn("games", "token_salt"),
    NewColumn("address_codes", "purpose"),
    NewColumn("address_codes", "created"),
    NewColumn("address_codes", "ended"),
    NewIndex("address_codes_seat"),
    NewTable("credential_failures"),
    NewIndex("credential_failures_seat"),
    NewIndex("credential_failures_sender"),
    NewTable("credential_locks"),
    NewIndex("credential_locks_seat"),
    NewIndex("credential_locks_sender"),
))
