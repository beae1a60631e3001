"""Step 6: delivery events per address and each address's delivery state.

An event is a refusal at send time or a bounce that came back.  Outbox rows gain the statuses
'held' (not sent while the address bounces) and 'bounced' (refused for good; last_error holds
the server's words).
"""

from __future__ import annotations

from gm.store.changes import NewIndex, NewTable, Step

SQL = """
CREATE TABLE delivery_events (
    id INTEGER PRIMARY KEY,
    address TEXT NOT NULL,           -- the recipient, lower-cased
    outbox_id INTEGER REFERENCES outbox(id),
    at REAL NOT NULL,
    permanent INTEGER NOT NULL,      -- 1: refused for good (5xx, Action: failed); 0: for now (4xx, delayed)
    source TEXT NOT NULL,            -- smtp: refused at send time | bounce: a bounce mail
    message_row INTEGER REFERENCES messages(id),  -- the bounce mail, if one
    words TEXT NOT NULL,             -- what the server said, capped
    settled INTEGER NOT NULL DEFAULT 0  -- 1: the address's state has taken it into account
);
CREATE INDEX delivery_events_address ON delivery_events(address, at);
CREATE INDEX delivery_events_unsettled ON delivery_events(id) WHERE settled = 0;
CREATE TABLE addresses (
    address TEXT PRIMARY KEY,        -- lower-cased
    state TEXT NOT NULL,             -- ok | soft-failing | bouncing
    since REAL NOT NULL,             -- when it entered this state
    reason TEXT,                     -- the failure that put it there
    last_probe REAL                  -- bouncing: when the last message was let through as a probe
);
CREATE INDEX addresses_state ON addresses(state);
"""

STEP = Step(6, 'delivery events and the delivery state of each address', SQL, postgresql=(
    NewTable("delivery_events"),
    NewIndex("delivery_events_address"),
    NewIndex("delivery_events_unsettled"),
    NewTable("addresses"),
    NewIndex("addresses_state"),
))
