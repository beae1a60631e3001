"""A bounce that came back: matched to the outbox row it returns, and recorded as a failure.

Called for robot mail only (gm.service.intake.ingest), inside the transaction that
stores it; a bounce is never answered.  gm.mail.bounces reads the bounce
into one value, in one call; this module acts on that value.  The row is
found by the VERP return address the bounce was delivered to (gm.mail.verp);
only where VERP is off (a mailbox without plus addressing) by the Message-ID
of the original the bounce quotes.  With VERP on, a player could forge a
bounce of her own mail by quoting its Message-ID (she has it) to our plain
address: such a bounce counts for nothing.  Nothing unverifiable changes
state: a VERP address whose tag does not check is logged and ignored, and a
bounce that names none of our messages changes nothing.
"""

from __future__ import annotations

import logging

from gm.mail import bounces as bounce_mail
from gm.mail.inbound import Inbound
from gm.service.outgoing import delivery_state
from gm.service.context import Context

log = logging.getLogger(__name__)


def read(ctx: Context, inbound: Inbound, message_row: int, now: float) -> str | None:
    """Record ``inbound`` if it is a bounce of one of our messages; returns what it was, or None."""
    if inbound.too_large or inbound.refuse:
        return None
    # The secret is read only for a bounce to an address of our VERP form.
    bounce = bounce_mail.read(inbound.raw, ctx.config.address, lambda: ctx.verp)
    if bounce is None:
        return None
    row, how = _outbox_row(ctx, bounce)
    if row is None:
        log.info("bounce from %s: %s", inbound.sender or "?", how)
        return how
    permanent = bounce.is_permanent
    words = bounce.summary
    # the address it returns and the games it plays in, not the store (gm.store.locks)
    delivery_state.lock_for_address(ctx, row.recipient)
    ctx.store.delivery.add_delivery_event(row.recipient, row.id, now, permanent, "bounce", words, message_row)
    if permanent:
        ctx.store.delivery.mark_bounced(row.id, words)
    delivery_state.settle(ctx, row.recipient)
    kind = "permanent" if permanent else "temporary"
    log.warning("bounce of outbox #%s to %s (%s, %s): %s", row.id, row.recipient, kind, how, words)
    return f"bounce of outbox #{row.id} to {row.recipient} ({kind}, by {how})"


def to_bounce_address(ctx: Context, inbound: Inbound) -> str | None:
    """Why a mail that does not look like a robot's must not be answered: it was delivered to one
    of our VERP return addresses, where only bounces are sent (else None)."""
    if inbound.bounce_address:
        return f"mail to a bounce address ({inbound.bounce_address[:100]})"
    return None


def _outbox_row(ctx: Context, bounce: bounce_mail.Bounce):
    """(outbox row, how it was found), or (None, why not)."""
    match, address = bounce.verp_match, bounce.verp_address or ""
    if match is not None:  # delivered to an address of our VERP form: it decides, whatever it says
        if not match.valid:
            log.warning("bounce to %s: its VERP tag does not check; ignored", address)
            return None, f"forged VERP address {address[:100]} (tag does not check): ignored"
        row = ctx.store.delivery.outbox_row(match.outbox_id)
        if row is None:
            return None, f"VERP address names outbox #{match.outbox_id}, which does not exist"
        return row, "VERP"
    if ctx.config.verp:  # the Message-ID of a player's own mail is no proof: she can quote it
        return None, "a bounce without a valid VERP address (VERP is on): ignored"
    for message_id in bounce.quoted_ids:
        row = ctx.store.delivery.outbox_by_message_id(message_id)
        if row is not None:
            return row, "Message-ID"
    return None, "a bounce that names none of gm's messages"
