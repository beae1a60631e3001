"""Holding mail to an address that bounces: one probe a day goes out, the rest wait, kept.

Decided as a message is queued (gm.service.outgoing.outbox), in that
transaction; mail to gm_address is never held.  The day's first message to a
bouncing address is the probe, queued as usual; the others are stored 'held'
and queued again when the address is cleared (delivery_state).  Holds of the
server's refusals of gm itself (table ``holds``, scope 'sender' or
'domain:<d>') are found by gm.runtime.refusals; announce() tells the GM once,
end_hold() ends one by hand.
"""

from __future__ import annotations

from gm.service.outgoing import gmalerts
from gm.store import Store
from gm.store.mailrows import HoldRow

BOUNCING = "bouncing"
PROBE_EVERY = 86400.0  # one probe a day


def queue_status(store: Store, address: str, now: float, gm_address: str | None = None) -> str:
    """'queued' for a message to ``address`` now, or 'held' while the address bounces (never
    to ``gm_address``)."""
    if gm_address and address.lower() == gm_address.lower():
        return "queued"
    row = store.delivery.address_state(address)
    if row is None or row.state != BOUNCING:
        return "queued"
    if row.last_probe is None or now - row.last_probe >= PROBE_EVERY:
        store.delivery.set_last_probe(address, now)
        return "queued"
    return "held"


def queue_statuses(store: Store, addresses: list[str], now: float,
                   gm_address: str | None = None) -> list[str]:
    """queue_status of a batch of messages queued now, one per address in order (the day's
    first message to a bouncing address is its probe, the others to it are held)."""
    return [queue_status(store, address, now, gm_address) for address in addresses]


def is_bouncing(store: Store, address: str) -> bool:
    row = store.delivery.address_state(address)
    return row is not None and row.state == BOUNCING


def bouncing_players(store: Store, view, names: list[str]) -> list[str]:
    """Those of ``names`` (players of ``view``) whose address bounces."""
    out = []
    for name in names:
        player = view.player(name)
        if player is not None and is_bouncing(store, player.email):
            out.append(name)
    return out


SENDER = "sender"  # the hold of the whole queue (gm.runtime.refusals)


def sending_blocked_since(ctx) -> float | None:
    """Since when gm cannot send at all because the server refuses its sender (the queue is
    held), or None while it can.  Mail to one refusing domain does not count."""
    row = ctx.store.outbox.hold(SENDER)
    return row.since if row is not None else None


def described(row: HoldRow) -> str:
    what = "all of gm's mail" if row.scope == SENDER else f"gm's mail to {row.scope[7:]}"
    return f"{what} is held: {row.reason}"


def announce(ctx) -> list[str]:
    """Tell the GM, once, of each hold begun since: a mail to gm_address (never held, so it
    goes as soon as the server takes anything).  Call inside a write transaction."""
    done = []
    for row in ctx.store.outbox.holds():
        if row.told:
            continue
        ctx.store.outbox.hold_told(row.scope)
        done.append(described(row))
        if not ctx.config.gm_address:
            continue  # the log (gm.runtime.refusals) and gm players/gm outbox still show it
        scope = "sender" if row.scope == SENDER else "@" + row.scope[7:]
        subject = "All mail held" if row.scope == SENDER else f"Mail to {row.scope[7:]} held"
        gmalerts.send(ctx, f"[gm] {subject}", "\n".join([
            described(row) + ".",
            f"The server said: {row.words}",
            "",
            "Nobody is marked as bouncing for it: it is not the players' fault.",
            "gm tries one message again now and then (backing off) and sends the rest once the",
            "server accepts it.  To try everything again now, once the set-up is fixed:",
            f"    gm players --clear {scope} -m 'what was fixed'",
        ]) + "\n")
    return done


def end_hold(ctx, scope: str, why: str) -> bool:
    """The GM ends a hold by hand: its mail is tried again now.  Call inside a write transaction."""
    if not ctx.store.outbox.end_hold(scope):
        return False
    ctx.store.outbox.release_scope(scope, ctx.clock())
    return True
