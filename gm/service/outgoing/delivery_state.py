"""Delivery state per address: ok, soft-failing or bouncing, from the failures recorded for it.

A failure is a 5xx refusal as a message was sent, or a bounce (gm.store.delivery).
settle() takes the events not yet counted: one permanent failure, or temporary ones on
SOFT_DAYS different UTC days since the address was last cleared, make it ``bouncing``;
fewer make it ``soft-failing``.  Becoming bouncing, once per episode, holds its queued mail
(gm.service.outgoing.holding lets a probe a day through) and tells the GM and the players
of its active games, so nobody is forfeited in the dark; an address with no seat or
subscription is held without a word (backscatter is no news).  clear() ends it: the
player's next authenticated mail from there, or SET ADDRESS for the old address.
"""

from __future__ import annotations

import logging

from games.text import Text
from gm.core import addresses
from gm.service.context import Context
from gm.service.outgoing import gmalerts, holding
from gm.service.outgoing.holding import BOUNCING
from gm.store.locks import hold_lock, retried
from gm.store.mailrows import DeliveryEventRow

log = logging.getLogger(__name__)

OK = "ok"
SOFT = "soft-failing"
SOFT_DAYS = 3  # temporary failures on this many different days make an address bouncing


def settle(ctx: Context, address: str | None = None) -> list[str]:
    """Take every recorded failure not yet settled into its address's state; returns what changed.

    ``address``: that address's failures only, inside a caller's transaction that has locked it
    and its games (lock_for_address).  Without: every address's, store-wide on PostgreSQL (the
    addresses, and the games told of one that bounces, are only known as the events are read)."""
    done: list[str] = []
    if address is None and not ctx.store.in_transaction and not ctx.store.delivery.unsettled_events():
        return done  # the common tick: nothing to settle, read without taking the store's lock
    with ctx.store.write():
        for event in ctx.store.delivery.unsettled_events(address=address):
            change = _apply(ctx, event)
            if change:
                done.append(change)
            ctx.store.delivery.settle_event(event.id)
    return done


def settle_now(ctx: Context) -> list[str]:
    """settle(), and tell the GM of the holds begun (gm.service.outgoing.holding.announce): what the
    sender runs right after a refusal, so nothing waits for the next tick."""
    done = settle(ctx)
    if ctx.store.in_transaction or any(not row.told for row in ctx.store.outbox.holds()):
        with ctx.store.write():  # store-wide: the holds begun since, whatever their scope
            done += holding.announce(ctx)  # (read again under the lock: told once)
    return done


def _apply(ctx: Context, event: DeliveryEventRow) -> str | None:
    store, address, at = ctx.store, event.address, event.at
    row = store.delivery.address_state(address)
    state = row.state if row is not None else OK
    if state == BOUNCING:
        return None  # already told; later failures only add to the history
    if row is not None and state == OK and at < row.since:
        return None  # recorded before the address was cleared (the sender thread's, settled late)
    what = f"outbox #{event.outbox_id}: {event.words}"
    if event.permanent:
        become_bouncing(ctx, address, f"refused for good ({event.source}) {what}", at)
        return f"{address}: bouncing"
    since = row.since if row is not None else 0.0
    days = store.delivery.temporary_failure_days(address, since)
    if len(days) >= SOFT_DAYS:
        become_bouncing(ctx, address, f"temporary failures on {len(days)} days, the last {what}", at)
        return f"{address}: bouncing"
    if state != SOFT:
        store.delivery.set_address_state(address, SOFT, at, f"temporary failure {what}")
    return f"{address}: soft-failing ({len(days)} day{'s' if len(days) != 1 else ''})"


def lock_for_address(ctx: Context, address: str) -> None:
    """Lock what a change of ``address``'s state may change, in the one order: the games it plays
    in (told when it becomes bouncing), then the address.  Its seats are read before the locks:
    a seat that moved there meanwhile (rare) is locked late, after checking again under them."""
    seated = {s.game_id for s in ctx.store.seats.player_seats_at(address)}
    ctx.store.locks.lock_games(*seated)
    ctx.store.locks.lock_addresses(address)
    moved_in = {s.game_id for s in ctx.store.seats.player_seats_at(address)} - seated
    ctx.store.locks.lock_games(*moved_in)  # out of order: a deadlock it meets is run again (retry_conflicts)


def become_bouncing(ctx: Context, address: str, reason: str, now: float) -> None:
    """Mark an address bouncing, hold its mail, tell the GM and the other players (once)."""
    store = ctx.store
    store.delivery.set_address_state(address, BOUNCING, now, reason[:500])
    gm_address = ctx.config.gm_address
    held = 0 if gm_address and address.lower() == gm_address.lower() else store.outbox.hold_queued(address)
    held_seats = store.seats.player_seats_at(address)
    seats = [s for s in held_seats if s.status == "active"]
    if not held_seats and not store.selfservice.game_ids_observed_by(address, 1):
        # Backscatter: gm's answer to a forged From (HELP from an address that does not exist)
        # came back.  Its mail is held all the same; nobody plays or watches there, so the GM,
        # whom a forger could otherwise mail by the hundred, hears nothing of it.
        log.info("%s is bouncing (%s); %d queued messages held; no seat or subscription there", address,
                 reason, held)
        return
    log.warning("%s is bouncing (%s); %d queued messages held", address, reason, held)
    from gm.service.outgoing import reports  # the players of a bouncing seat are told: rare

    _tell_gm(ctx, f"Mail to {address} bounces", [
        f"gm's mail to {address} is not being delivered: {reason}",
        "",
        "gm now holds the mail to this address (one message a day still goes out as a probe)."
        + (f" {held} queued messages are held." if held else ""),
        "Seats at this address: " + (", ".join(f"{s.name} in {s.game_id}" for s in seats) or "none") + ".",
        "It is cleared when the player mails gm from this address, or their seat gets a new address.",
        "See: gm deliveries " + address,
    ])
    from gm.service.table import games  # the games' rules, for an address that bounces alone

    for seat in seats:
        view = games.load(store, seat.game_id)
        others = [p.name for p in view.seated if p.email.lower() != address.lower()]
        reports.notice(ctx, view, others, [
            Text("gm's mail to {seat} is bouncing: {seat} is not receiving the reports of this game.",
                 seat=seat.name),
            Text("The game master has been told."),
        ], Text("Player not receiving mail"))
        store.history.log(view.id, view.turn, "gm", "bouncing", f"{seat.name} <{address}>: {reason[:200]}", now)


def clear(ctx: Context, address: str, why: str, release: bool = True) -> bool:
    """The address is no longer bouncing: the GM is told, and (``release``) its held mail is
    queued again.  False if it was ok.

    Call inside a write transaction.  gm calls it on a player's authenticated
    mail from the address.  SET ADDRESS (a seat moving to a new address) calls
    it for the OLD address with ``release=False``: the held mail, addressed and
    signed for the old address, stays held (``gm outbox`` lists it), and the
    player is sent the position at the new address as SET ADDRESS does.
    """
    store, now = ctx.store, ctx.clock()
    store.locks.lock_addresses(address)  # held already where the caller knew it (its sender's address)
    row = store.delivery.address_state(address)
    if row is None or row.state == OK:
        return False
    store.delivery.set_address_state(address, OK, now, why[:500])
    released = store.outbox.release_held(address, now) if release else 0
    log.info("%s cleared (%s); %d held messages queued again", address, why, released)
    if row.state == BOUNCING:
        _tell_gm(ctx, f"Mail to {address} cleared", [
            f"{address} is no longer marked as bouncing: {why}.",
            f"{released} held messages are sent now." if released
            else "Its held messages stay held (see: gm outbox)." if not release else "No messages were held.",
        ])
    return True


@retried
def clear_by_hand(ctx: Context, target: str, why: str, who: str) -> str:
    """``gm players --clear``: end a bouncing state (an address) or a hold ('sender', '@domain')
    by hand; the held mail goes now.  Recorded with who and why (the address's state, each of its
    games' history; the log).  Returns what was done."""
    target = target.strip()
    reason = f"cleared by {who}: {why}"
    scope = None  # an address
    if target.lower() == "sender":
        scope = "sender"
    elif target.startswith("@"):
        scope = f"domain:{addresses.a_label_domain(target[1:]) or target[1:].lower()}"
    else:
        target = addresses.normal(target) or target  # as gm keeps it: bücher.example is xn--bcher-kva
    with ctx.store.write(scoped=True):  # the hold, or the address and its games: not the store
        if scope is not None:
            ctx.store.locks.lock_shared(hold_lock(scope))
            if not holding.end_hold(ctx, scope, reason):
                return f"{target}: no mail is held for it"
            log.warning("%s no longer held (%s)", scope, reason)
            return f"{target}: no longer held ({reason}); its mail is tried again now"
        lock_for_address(ctx, target)
        if not clear(ctx, target, reason):
            return f"{target}: not bouncing or soft-failing (nothing to clear)"
        now = ctx.clock()
        from gm.service.table import games  # the games' rules, for an address cleared alone

        for seat in ctx.store.seats.player_seats_at(target):
            view = games.load(ctx.store, seat.game_id)
            ctx.store.history.log(view.id, view.turn, who, "cleared",
                                  f"{seat.name} <{target.lower()}>: {why}"[:300], now)
    return f"{target}: ok ({reason}); its held mail is queued again"


def _tell_gm(ctx: Context, subject: str, lines: list[str]) -> None:
    if not ctx.config.gm_address:
        log.warning("no gm_address in the config: the GM is not told (%s)", subject)
        return
    gmalerts.send(ctx, f"[gm] {subject}", "\n".join(lines) + "\n")


def bouncing(ctx: Context) -> list[dict]:
    """Every bouncing address with its reason and seats, for ``gm players --bouncing``."""
    out = []
    for row in ctx.store.delivery.addresses_in_state(BOUNCING):
        seats = ctx.store.seats.player_seats_at(row.address)
        out.append({"address": row.address, "since": row.since, "reason": row.reason,
                    "seats": [(s.game_id, s.name) for s in seats]})
    return out
