"""Step 34: the language a seat and an address read their mail in (SET LANGUAGE ... [ALL]).

players.language is one seat's; address_settings.language the one an address gives every seat
it holds and takes later.  A code of gm.core.i18n.LANGUAGES; NULL: not set (English, unless the
address's setting or the language of the player's command words says otherwise).
"""

from __future__ import annotations

from gm.store.changes import NewColumn, Step

SQL = """
-- en, de or fr (gm.core.i18n.LANGUAGES); NULL: not set
ALTER TABLE players ADD COLUMN language TEXT;
ALTER TABLE address_settings ADD COLUMN language TEXT;
"""

STEP = Step(34, "the language a seat and an address read in (players.language, address_settings.language)", SQL,
            postgresql=(
                NewColumn("players", "language"),
                NewColumn("address_settings", "language"),
            ))
