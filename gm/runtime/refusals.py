"""Reading the server's refusals right: whose fault each is, and the mail held meanwhile.

A 5xx is not always the recipient's.  Refused at MAIL FROM, it is gm's own return address:
the whole queue is held (scope 'sender'); so is the same refusal for recipients at two or
more domains.  A policy refusal (5.7.x: DMARC, spam filters) by one domain holds that
domain's mail (scope 'domain:<d>').  Only a refusal of one mailbox (any other 5xx at RCPT
or DATA) is recorded against the address.  A hold lets one probe through at
``next_probe`` (backing off, capped) and ends by itself once the server accepts it.  Mail
to gm_address is never held, so the GM's alert (gm.service.outgoing.holding.announce) goes
as soon as the server takes anything; ``gm players --clear`` ends a hold by hand.
"""

from __future__ import annotations

import logging

from gm.runtime.transport import PolicyRefused, SenderRefused, enhanced_status, signature
from gm.store import Store
from gm.store.locks import address_lock, hold_lock
from gm.store.mailrows import DueMail, HoldRow

log = logging.getLogger(__name__)

SENDER = "sender"
# These name the mailbox: never the server's, however many.  5.6.7: a UTF-8 address the server
# cannot carry (no SMTPUTF8): mail to ASCII addresses still goes, so nothing is held.
MAILBOX_STATUSES = ("5.1.", "5.2.", "5.6.7")


def domain_of(address: str) -> str:
    return address.rpartition("@")[2].lower()


def scope_of(address: str, holds: dict[str, HoldRow]) -> str | None:
    """The hold that covers mail to ``address``, if any ('sender' covers everything)."""
    if SENDER in holds:
        return SENDER
    scope = f"domain:{domain_of(address)}"
    return scope if scope in holds else None


def gate(store: Store, due: list[DueMail], now: float,
         gm_address: str | None) -> tuple[list[DueMail], list[DueMail], dict[int, str]]:
    """Split the claimed rows into those to try now and those a hold keeps waiting; and the
    probes among those tried (row id -> the hold's scope).

    A held scope whose probe is due lets its first row through; mail to gm_address always goes.
    """
    holds = {h.scope: h for h in store.outbox.holds()}
    if not holds:
        return due, [], {}
    send: list[DueMail] = []
    wait: list[DueMail] = []
    probing: dict[str, int] = {}
    for row in due:
        scope = scope_of(row.recipient, holds)
        if scope is None or (gm_address and row.recipient.lower() == gm_address.lower()):
            send.append(row)
        elif scope not in probing and holds[scope].next_probe <= now:
            probing[scope] = row.id  # one message tries the server again
            send.append(row)
        else:
            wait.append(row)
    return send, wait, {row_id: scope for scope, row_id in probing.items()}


def hold(store: Store, scope: str, reason: str, words: str, now: float, backoff) -> bool:
    """Start holding ``scope`` (True), or (held already: a probe was refused) back off further.

    Call inside a write transaction.
    """
    row = store.outbox.hold(scope)
    if row is None:
        store.outbox.add_hold(scope, now, reason, words, signature(words), now + backoff[0])
        log.error("gm's mail %s is held: %s (%s); the GM is told, nobody is marked",
                  "to every recipient" if scope == SENDER else f"to {scope[7:]}", reason, words)
        return True
    probes = row.probes + 1
    delay = backoff[min(probes, len(backoff) - 1)]
    store.outbox.probe_refused(scope, probes, now + delay, words)
    log.info("%s still held (%s); next try in %ss", scope, words, delay)  # no news: the GM was told
    return False


def sort_refused(store: Store, refused: list[tuple[DueMail, Exception]], now: float, backoff,
                 probes: dict[int, str]) -> tuple[list[tuple[DueMail, Exception]], int]:
    """Settle the refusals of one batch (rows with their PermanentFailure or PolicyRefused).

    Returns the rows that are their recipient's own failure, for the caller to record (the
    others keep their place in the queue, under a hold), and how many holds began.  A probe
    (``probes``: row id -> scope, from gate) refused but not for its own mailbox counts against
    the hold it probed.  Call inside a write transaction.
    """
    began = 0
    domains: dict[str, set[str]] = {}
    for h in store.outbox.holds():  # earlier refusals of other domains count too
        if h.scope.startswith("domain:"):
            domains.setdefault(h.refusal, set()).add(h.scope[7:])
    for row, exc in refused:
        domains.setdefault(signature(str(exc)), set()).add(domain_of(row.recipient))
    own = []
    for row, exc in refused:
        words = str(exc)
        key = signature(words)
        spread = domains[key]
        own_mailbox = not isinstance(exc, PolicyRefused) and (
            len(spread) < 2 or enhanced_status(words).startswith(MAILBOX_STATUSES))
        if row.id in probes and not own_mailbox:
            hold(store, probes[row.id], "refused again", words, now, backoff)  # the probe too: back off further
            keep(store, row, words, probes[row.id])
        elif len(spread) >= 2 and not enhanced_status(words).startswith(MAILBOX_STATUSES):
            began += hold(store, SENDER, f"the same refusal ({key}) for recipients at {len(spread)} domains: "
                                         "the server's, not theirs", words, now, backoff)
            keep(store, row, words, SENDER)
        elif isinstance(exc, PolicyRefused):
            domain = domain_of(row.recipient)
            began += hold(store, f"domain:{domain}", f"{domain} refuses gm's mail by policy ({key})", words,
                          now, backoff)
            keep(store, row, words, f"domain:{domain}")
        else:
            own.append((row, exc))
    return own, began


def scopes_of(refused: list[tuple[DueMail, Exception]], probes: dict[int, str]) -> set[str]:
    """The holds sort_refused may begin or back off for these refused rows: gm's sender's, each
    recipient's domain's, and the holds the probes among them tried."""
    return ({SENDER} | {f"domain:{domain_of(row.recipient)}" for row, _ in refused}
            | {probes[row.id] for row, _ in refused if row.id in probes})


def sender_refused(store: Store, row: DueMail, exc: SenderRefused, now: float, backoff) -> bool:
    """The server refused gm's envelope sender: the row keeps its place, the queue is held
    (True if the hold began now)."""
    with store.write(scoped=True):  # the sender's hold, and a row this sender claimed
        store.locks.lock_shared(hold_lock(SENDER))
        began = hold(store, SENDER, "the server refuses gm's envelope sender (MAIL FROM)", str(exc), now, backoff)
        keep(store, row, str(exc), SENDER)
    return began


def keep(store: Store, row: DueMail, words: str, scope: str) -> None:
    """A held row keeps its place; tried again no sooner than its hold's next probe."""
    held = store.outbox.hold(scope)
    assert held is not None  # begun, or backed off, by hold() just before
    store.outbox.note_attempt(row.id, row.attempts + 1, words[:500], next_attempt=held.next_probe)


def accepted(store: Store, recipients: list[str], probed: list[str], now: float) -> int:
    """The server took mail to ``recipients``, among them the probes of the holds ``probed``:
    those holds are over, and an address that was soft-failing is ok again.  Returns how many
    holds ended.  Call inside a write transaction."""
    ended = 0
    soft = {r.address for r in store.delivery.addresses_in_state("soft-failing")}
    changed = soft & {r.lower() for r in recipients}
    store.locks.lock_shared(*[address_lock(a) for a in changed], *[hold_lock(s) for s in probed])
    for scope in set(probed):
        if store.outbox.end_hold(scope):
            ended += 1
            log.warning("%s: the server accepts gm's mail again; the held mail goes now", scope)
    for address in changed:
        store.delivery.set_address_state(address, "ok", now, "a later message was accepted")
    return ended
