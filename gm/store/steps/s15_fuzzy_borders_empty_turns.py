"""Step 15: Fuzzy Borders games begun before FB8 keep empty_turns=none, the rules they began with.

``gm verify`` replays a game from its stored options (gm.service.records.audit); without the key
the replay would take FB8's default, and its states and reports would differ from the stored
ones.  A game not begun yet (open, no state) takes the default when it starts.  No table changes.
"""

from __future__ import annotations

import json
from typing import Any

from gm.store.changes import Step


def fuzzy_borders_keep_their_rules(db: Any) -> None:
    """Add ``empty_turns=none`` to the options of every Fuzzy Borders game that has a state."""
    rows = db.execute("SELECT id, options FROM games WHERE kind = 'fuzzy-borders' AND EXISTS "
                      "(SELECT 1 FROM states WHERE states.game_id = games.id)", {}).fetchall()
    for row in rows:
        options = json.loads(row[1])
        if "empty_turns" not in options:
            options["empty_turns"] = "none"
            db.execute("UPDATE games SET options = :options WHERE id = :id",
                       {"options": json.dumps(options), "id": row[0]})


STEP = Step(15, "Fuzzy Borders games begun before FB8 keep empty_turns=none", "", fuzzy_borders_keep_their_rules)
