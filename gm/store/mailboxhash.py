"""The keyed hash of a mailbox, which caps and locks are counted by instead of the address.

A lock or cap must outlive the address's forgetting (FORGET ME): kept under the address, it
would be erased with it or would keep the address.  So they keep HMAC-SHA256 of the mailbox
(gm.core.addresses.keyed_mailbox: every spelling of one mailbox hashes alike) under the store's
own secret (store_secrets, schema step 32): every daemon on one store shares it and it survives
restarts.  A copy of the whole store holds the secret too: the hash hides an address from a
reader of rows, not from one who holds the store and tries addresses one by one.
A forgotten address's pseudonym is made from the same hash, so its rows stay countable.
"""

from __future__ import annotations

from typing import Any

from gm.core import addresses
from gm.store import migrations
from gm.store.sql import prepared

SECRET_NAME = "mailbox"  # the store_secrets row of this secret (gm.store.steps.s32_mailbox_hashes)
SINCE_STEP = 32  # the schema step that made the secret and hashed the keys
PSEUDONYM_DOMAIN = "invalid"  # RFC 2606: a domain no mail can reach
SECRET = prepared(lambda sa, t: sa.select(t.store_secrets.c.secret).where(
    t.store_secrets.c.name == sa.bindparam("name")))


def secret_of(store: Any) -> bytes:
    """The store's mailbox secret, read once per store object (it never changes)."""
    found = getattr(store, "mailbox_secret", None)
    if found is None:
        row = SECRET.run(store, name=SECRET_NAME).fetchone()
        if row is None:
            raise LookupError("the store holds no mailbox secret (store_secrets): is it at schema step 32?")
        found = str(row["secret"]).encode("ascii")
        store.mailbox_secret = found
    return bytes(found)


def secret_replaced(store: Any) -> None:
    """The store's secret was replaced (a copy brought the source's): read it again at next use."""
    store.mailbox_secret = None


def mailbox_hash(store: Any, address: str | None) -> str:
    """``address``'s mailbox as the caps and locks of this store key it (a schema rewound before
    SINCE_STEP, as tests run an older gm's, keeps the address itself)."""
    if not address:
        return ""
    if migrations.latest() < SINCE_STEP:
        return address
    return addresses.keyed_mailbox(secret_of(store), address)


def pseudonym(store: Any, address: str) -> str:
    """What a forgotten address becomes wherever it stood: forgotten-<8 hex of its hash>@invalid
    (the same for every spelling of its mailbox)."""
    return pseudonym_of(mailbox_hash(store, address))


def pseudonym_of(hashed: str) -> str:
    """The pseudonym of a mailbox hash."""
    return f"forgotten-{hashed[:8]}@{PSEUDONYM_DOMAIN}"
