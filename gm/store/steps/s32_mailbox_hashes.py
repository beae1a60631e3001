"""Step 32: caps and locks keep a keyed hash of the mailbox, not the address (FORGET ME).

store_secrets holds the store's own random secrets by name; its first, 'mailbox', keys the hash
of gm.store.mailboxhash (gm.core.addresses.keyed_mailbox).  The addresses that were keys of a
limit are rewritten to that hash: credential_failures.sender, credential_locks.sender (a
sender's lock) and pending_requests.mailbox, so that forgetting an address resets none of them.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from gm.core.addresses import keyed_mailbox
from gm.store.changes import NewTable, Step

SECRET_NAME = "mailbox"  # as shipped: gm.store.mailboxhash.SECRET_NAME reads it

SQL = """
CREATE TABLE store_secrets (
    name TEXT NOT NULL PRIMARY KEY,  -- what the secret keys ('mailbox': gm.store.mailboxhash)
    secret TEXT NOT NULL,            -- 64 random hex digits
    made REAL NOT NULL
);
"""

KEYED_COLUMNS = (("credential_failures", "sender"), ("credential_locks", "sender"), ("pending_requests", "mailbox"))


def hash_the_keys(db: Any) -> None:
    """Make the store's mailbox secret, then rewrite every address kept as a limit's key."""
    secret = secrets.token_hex(32)
    db.execute("INSERT INTO store_secrets (name, secret, made) VALUES (:name, :secret, :made)",
               {"name": SECRET_NAME, "secret": secret, "made": time.time()})
    for table, column in KEYED_COLUMNS:
        kept = [row[0] for row in db.execute(f"SELECT DISTINCT {column} FROM {table} WHERE {column} <> ''", {})]
        for address in kept:
            db.execute(f"UPDATE {table} SET {column} = :hashed WHERE {column} = :address",
                       {"hashed": keyed_mailbox(secret.encode("ascii"), address), "address": address})


STEP = Step(32, "caps and locks keep a keyed hash of the mailbox (store_secrets)", SQL, hash_the_keys,
            postgresql=(NewTable("store_secrets"),))
