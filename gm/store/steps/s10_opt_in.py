"""Step 10: double opt-in (gm.service.people.optin).

OBSERVE, JOIN and CREATE wait here until the address they name answers the code mailed to it;
only then is anything else recorded.  actions: the mail's command lines, one a line;
code_hash: sha256 of the code, never the code.
"""

from __future__ import annotations

from gm.store.changes import NewIndex, NewTable, Step

SQL = """
CREATE TABLE pending_requests (
    code_hash TEXT PRIMARY KEY,
    address TEXT NOT NULL,           -- lower-cased: the address that must confirm
    mailbox TEXT NOT NULL,           -- the address without its +tag: what the caps count
    actions TEXT NOT NULL,           -- OBSERVE nb1 / JOIN open1 ada / CREATE neighbors nb9 3, a line each
    created REAL NOT NULL,
    expires REAL NOT NULL,
    confirmed REAL                   -- NULL until the address answered the code
);
CREATE INDEX pending_requests_mailbox ON pending_requests(mailbox, created);
CREATE INDEX pending_requests_created ON pending_requests(created);
"""

STEP = Step(10, 'OBSERVE, JOIN and CREATE waiting for the address to confirm', SQL, postgresql=(
    NewTable("pending_requests"),
    NewIndex("pending_requests_mailbox"),
    NewIndex("pending_requests_created"),
))
