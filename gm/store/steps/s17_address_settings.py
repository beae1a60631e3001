"""Step 17: a player's settings for all their games (SET FORMAT ... ALL, SET TIMEZONE ... ALL).

The settings an address gives every seat it holds and every seat it takes later (a new seat
starts with them: gm.store.games.add_player).  ``address`` lower-cased.
"""

from __future__ import annotations

from gm.store.changes import NewTable, Step

SQL = """
CREATE TABLE address_settings (
    address TEXT PRIMARY KEY,
    format TEXT, -- html or text; NULL: each game's option
    timezone TEXT, -- an IANA name; NULL: UTC
    updated REAL NOT NULL
);
"""

STEP = Step(17, "a player's settings for all their games (SET FORMAT ... ALL, SET TIMEZONE ... ALL)", SQL, postgresql=(
    NewTable("address_settings"),
))
