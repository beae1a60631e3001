"""Holding mail to an address that bounces: one probe a day goes out, the rest wait, kept.

Decided when a message is queued (gm.service.outbox), in the transaction that
queues it.  The first message to a bouncing address in a day is the probe:
it is queued as usual, so a mailbox that works again is found out.  Every
other one is stored with status 'held'; gm.service.delivery_state queues the
held ones again when the address is cleared.
"""

from __future__ import annotations

from gm.store import Store

BOUNCING = "bouncing"
PROBE_EVERY = 86400.0  # one probe a day


def queue_status(store: Store, address: str, now: float) -> str:
    """'queued' for a message to ``address`` now, or 'held' while the address bounces."""
    row = store.address_state(address)
    if row is None or row["state"] != BOUNCING:
        return "queued"
    if row["last_probe"] is None or now - row["last_probe"] >= PROBE_EVERY:
        store.set_last_probe(address, now)
        return "queued"
    return "held"


def is_bouncing(store: Store, address: str) -> bool:
    row = store.address_state(address)
    return row is not None and row["state"] == BOUNCING


def bouncing_players(store: Store, view, names: list[str]) -> list[str]:
    """Those of ``names`` (players of ``view``) whose address bounces."""
    out = []
    for name in names:
        player = view.player(name)
        if player is not None and is_bouncing(store, player["email"]):
            out.append(name)
    return out
