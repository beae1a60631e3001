"""Step 8: a mail that carries a password or a code is marked (outbox.secret).

Its stored copy is blanked once it is sent: no secret outlives its sending in the store.
"""

from __future__ import annotations

from gm.store.changes import NewColumn, Step

SQL = """
ALTER TABLE outbox ADD COLUMN secret INTEGER NOT NULL DEFAULT 0;
"""

STEP = Step(8, 'mail that carries a password or a code (outbox.secret)', SQL, postgresql=(
    NewColumn("outbox", "secret"),
))
