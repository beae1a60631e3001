"""Step 13: mail held because the server refuses gm itself, not a recipient.

Scope 'sender' (a 5xx at MAIL FROM, or the same refusal by two or more domains: the whole queue
waits, but mail to gm_address) or 'domain:<d>' (a policy refusal, 5.7.x, by one domain).  One
retry (a probe) at next_probe, backing off; told = 1 once the GM has been mailed.
"""

from __future__ import annotations

from gm.store.changes import NewTable, Step

SQL = """
CREATE TABLE holds (
    scope TEXT PRIMARY KEY,          -- sender | domain:<domain, lower-cased>
    since REAL NOT NULL,             -- the first refusal
    reason TEXT NOT NULL,            -- what gm made of it
    words TEXT NOT NULL,             -- the server's words, capped
    refusal TEXT NOT NULL,           -- code and enhanced status, e.g. '554 5.7.1'
    probes INTEGER NOT NULL DEFAULT 0,  -- retries refused so far
    next_probe REAL NOT NULL,        -- when one message may be tried again
    told INTEGER NOT NULL DEFAULT 0  -- 1: the GM has been mailed about it
);
"""

STEP = Step(13, "mail held while the server refuses gm's sender or a domain refuses gm (holds)", SQL, postgresql=(
    NewTable("holds"),
))
