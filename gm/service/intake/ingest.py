"""One inbound mail, from bytes to its effects, in one transaction; judged by intake.judging.

Every change happens in one transaction together with the record of the
message that caused it and the mail it queues, so that a crash at any instant
leaves either all of it or none of it, and a message seen again (same source
key or Message-ID) is never applied twice.  A message that cannot be read or
judged is kept with its error (outcome ``error``) and the next one is played;
``retry`` plays it again once the fault is fixed.
"""

from __future__ import annotations

import hashlib
import logging
import traceback

from gm.core.model import Outcome, OutcomeKind, ServiceError
from gm.mail import orders as order_mail
from gm.mail.inbound import Inbound
from gm.mail.redact import mask_text, redact
from gm.service.context import Context
from gm.service.intake.case import read
from gm.service.intake.judging import judge_mail
from gm.store import StoreError
from gm.store.locks import address_lock, retry_conflicts

log = logging.getLogger(__name__)


def prepare(ctx: Context, raw: bytes) -> Inbound | None:
    """Read a message ahead of ingest() and start checking its password; never raises.

    For a batch of mail: the daemon prepares every message it fetched, then
    ingests them in order, so the scrypt checks run on other cores while
    earlier orders are judged.  Nothing is stored or decided here.  None: the
    message could not be read; ingest() reads it again and sets it aside.
    """
    try:
        inbound = read(ctx, raw)
    except Exception:
        log.exception("reading a message ahead of time")
        return None
    if inbound.robot:
        return inbound
    try:
        mail = order_mail.read(inbound.subject, inbound.text)
        if mail.game_id and mail.password:
            from gm.service.people import guessing  # a mail with a password alone

            game_id = mail.game_id.strip().lower()
            stored = guessing.head_start_hash(ctx, game_id, inbound.sender)  # one statement
            if stored is not None:
                ctx.passwords.start(mail.password, stored)
    except Exception:  # only a head start: ingest() checks again, and reports any fault
        log.exception("preparing a message from %s", inbound.sender)
    return inbound


def slice_key(ctx: Context, raw: bytes) -> str:
    """What daemons sharing a mailbox divide it by (gm.runtime.slices): the game the mail names,
    else its sender; so a game's mail, and a sender's, is judged by one daemon in the order it came."""
    try:  # hostile mail must not stop the mailbox here either
        inbound = read(ctx, raw)
        game = named_game(ctx, inbound)
        return f"game:{game}" if game else f"from:{(inbound.sender or '').lower()}"
    except Exception:  # ingest() sets it aside, or judges it; any daemon may
        return ""


def source_key_of(raw: bytes) -> str:
    return "sha256:" + hashlib.sha256(raw).hexdigest()


def ingest(ctx: Context, raw: bytes, source_key: str | None = None,
           inbound: Inbound | None = None, arrived: float | None = None) -> Outcome:
    """Store one inbound message and act on it, all in one transaction.

    ``inbound`` is the message as prepare() read it, if it was.  ``arrived``: when gm's mail
    server delivered it, as the caller has kept it within what gm knows (arrival.judged_at);
    it is judged as of then (RULINGS G4).  Raises StoreError only when the message could not be stored.
    """
    key = source_key or source_key_of(raw)
    now = ctx.clock() if arrived is None else min(arrived, ctx.clock())
    try:
        if inbound is None:
            # Read first: a mail seen before is found in its transaction (_judge), so the common
            # case, a new mail, costs no look-up of its own.  One that cannot be read is looked
            # up here: even one set aside is not set aside again.
            try:
                inbound = read(ctx, raw)
            except Exception:
                seen = ctx.store.inbox.message_seen(key, None)
                if seen is not None:
                    return Outcome(OutcomeKind.DUPLICATE, f"already processed as #{seen.id}")
                raise
        return retry_conflicts(_judge, ctx, inbound, key, now)
    except StoreError:
        raise
    except Exception as exc:  # a fault must not lose the message: keep it, marked, for the GM
        log.exception("processing %s failed", key)
        _set_aside(ctx, raw, key, inbound, now)
        return Outcome(OutcomeKind.ERROR, f"{type(exc).__name__}: {exc}")


def _judge(ctx: Context, inbound: Inbound, key: str, now: float) -> Outcome:
    """The message's one transaction.  Scoped (gm.store.locks): judging locks the game the
    mail is for, or everything when it cannot name what it changes (routing.route_and_lock)."""
    game = named_game(ctx, inbound)
    with ctx.store.write(scoped=True):
        # the game's mail also locks its sender's address (as routing does), in the same statement
        shared = (address_lock(inbound.sender),) if game and inbound.sender else ()
        if not ctx.store.locks.try_lock_message(key, inbound.message_id, game=game, shared=shared):
            # another daemon judges it now: it commits it (and moves it), or dies and it comes again
            return Outcome(OutcomeKind.BUSY, "another daemon is judging it")
        # what judging reads of the game (Store.read_game) is read with the insert
        row_id = _record(ctx, inbound, key, now, OutcomeKind.PENDING, "", unless_seen=True,
                         read_game=(game, inbound.sender or "") if game else None)
        if row_id is None:  # stored before: looked at once more, for what to say
            seen = ctx.store.inbox.message_seen(key, inbound.message_id)
            if seen.source_key != key:
                _record(ctx, inbound, key, now, OutcomeKind.DUPLICATE, f"same Message-ID as #{seen.id}")
            return Outcome(OutcomeKind.DUPLICATE, f"already processed as #{seen.id}")
        return _judged(ctx, row_id, judge_mail(ctx, inbound, row_id, now))


def named_game(ctx: Context, inbound: Inbound) -> str | None:
    """The game an order mail names (its GAME line, else its reply address), locked with the
    message; None where it has commands (judging may lock the whole store for them) or none."""
    if inbound.robot or inbound.too_large or inbound.refuse:
        return None
    try:
        mail = order_mail.read(inbound.subject, inbound.text)
    except Exception:  # judging reads it again and says what is wrong
        return None
    if mail.commands:
        return None
    addressed = ctx.outbox.tokens.addressed(inbound.recipient)
    game = mail.game_id or (addressed[0] if addressed else None)
    return game.strip().lower() if game else None


def _set_aside(ctx: Context, raw: bytes, key: str, inbound: Inbound | None, now: float) -> None:
    """Keep a mail that could not be handled, masked as every kept mail is, with whom it
    authenticated as (its password is masked: gm.service.intake.setaside)."""
    from gm.service.intake.setaside import seat_auth  # a mail set aside: rare, and loaded then

    error = traceback.format_exc()[-2000:]
    with ctx.store.write():  # store-wide: rare, and after a fault whose reach is not known
        if ctx.store.inbox.message_seen(key, None) is None:
            auth = seat_auth(ctx, inbound, raw)
            ctx.store.inbox.add_message(key, inbound.message_id if inbound else None,
                                        inbound.sender if inbound else None,
                                        mask_text(inbound.subject) if inbound else None,
                                        redact(raw, ctx.config.max_message_bytes), now,
                                        OutcomeKind.ERROR.value, error, auth=auth.dump())


def retry(ctx: Context, message_row: int) -> Outcome:
    """`gm inbox --retry ID`: play a message that was set aside with an error, once more."""
    row = ctx.store.inbox.message(message_row)
    if row is None or row.outcome != OutcomeKind.ERROR:
        raise ServiceError(f"no message #{message_row} set aside with an error")
    now = ctx.clock()
    inbound = read(ctx, bytes(row.raw))  # its secrets masked: as whom it authenticated is kept
    return retry_conflicts(_judge_again, ctx, inbound, row, now)


def _judge_again(ctx: Context, inbound: Inbound, row, now: float) -> Outcome:
    """retry()'s transaction: scoped, as a mail's, judging locking what the mail changes."""
    from gm.service.intake.setaside import SeatAuth

    with ctx.store.write(scoped=True):
        return _judged(ctx, row.id, judge_mail(ctx, inbound, row.id, now, SeatAuth.load(row.auth)))


def _judged(ctx: Context, row_id: int, outcome: Outcome) -> Outcome:
    """Keep what became of the mail on its row."""
    ctx.store.inbox.set_message_outcome(row_id, outcome.outcome.value, outcome.detail[:2000], outcome.game_id)
    return outcome


def _record(ctx: Context, inbound: Inbound, key: str, now: float, outcome: OutcomeKind, detail: str,
            unless_seen: bool = False, read_game: tuple[str, str] | None = None) -> int | None:
    """Store the mail as it is kept: its passwords, codes and tokens masked (gm.mail.redact).  The
    mail is handled from ``inbound``, in this transaction; the source key is of the bytes that came.
    ``unless_seen``: not if a mail of this source key or Message-ID was stored (None then);
    ``read_game``: (game, sender) whose reads Store.read_game does with it."""
    args = (key, inbound.message_id, inbound.sender, mask_text(inbound.subject),
            redact(inbound.raw, ctx.config.max_message_bytes), now, outcome.value, detail)
    if unless_seen:
        return ctx.store.inbox.add_new_message(*args, read_game=read_game)
    return ctx.store.inbox.add_message(*args)
