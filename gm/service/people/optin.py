"""Double opt-in for strangers: OBSERVE, UNOBSERVE, JOIN, CREATE and MY DATA wait until their address confirms.

Anyone can forge a From line, so these password-less commands do nothing when they come
(after Mailman 3's pending confirmations): a mail's lines become ONE pending request with
ONE code, mailed to the From address (``CONFIRM <code>`` in the subject, Reply-To
``gm+confirm.<code>@host``); a confirmation counts for its own request only, and the code
is stored as a keyed digest (gm.core.codes).  A request dies after REQUEST_DAYS.  What a
forger can make gm send is capped per mailbox (gm.core.addresses.mailbox_key) and in total
(``confirmations_per_hour``, past which the GM is told and the sender gets a short
refusal); a seat's own address waits only on its mailbox's caps, and SET ADDRESS codes
count too.  A mail to the confirm address confirms only with the code or as a reply to the
code mail (an auto-responder's answer does not); a robot's mail confirms nothing.
"""

from __future__ import annotations


import logging

from games.text import mark, Plural, reason, Text
from gm.core.value import field, valueclass
from typing import TYPE_CHECKING, Callable

from gm.core import codes
from gm.core.addresses import mailbox_key
from gm.core.model import ServiceError
from gm.core.passwords import ALPHABET, generate
from gm.mail import orders as order_mail
from gm.mail.inbound import Inbound
from gm.mail.redact import CONFIRM_LOCAL  # gm+confirm.<code>@host: the reply-to-confirm address
from gm.core.later import later
from gm.service.outgoing.answers import refuse
from gm.service.context import Context
from gm.service.outgoing.outbox import HOUR, ReplyPart, joined
from gm.store.locks import HOURLY_CAPS

if TYPE_CHECKING:
    from gm.service.people.lobby import Welcome

log = logging.getLogger(__name__)

CODE_LENGTH = order_mail.CODE_LENGTH  # the grammar knows a code by its shape in a reply's subject
REQUEST_DAYS = 3  # an unconfirmed request dies after this
DAY = 86400.0
REQUESTS: dict[str, Callable[[Context, str, str], str]] = {  # each checks a request (loaded when one comes)
    "OBSERVE": later("gm.service.outgoing.observers", "observe_request"),
    "UNOBSERVE": later("gm.service.outgoing.observers", "unobserve_request"),
    "JOIN": later("gm.service.people.lobby", "join_request"),
    "CREATE": later("gm.service.people.lobby", "create_request"),
    "MY": later("gm.service.people.mydata", "data_request"),
    "FORGET": later("gm.service.people.forget", "forget_request"),
    "WITHDRAW": later("gm.service.people.tournamentmail", "withdraw_request")}
REFUSED = {"OBSERVE": mark("Not observing"), "UNOBSERVE": mark("Not observing"), "JOIN": mark("Not joined"),
           "CREATE": mark("Not created"), "MY": mark("No data sent"), "FORGET": mark("Not forgotten"),
           "WITHDRAW": mark("Not withdrawn")}  # the subject of a request's refusal
TOURNAMENT = "TOURNAMENT"  # JOIN TOURNAMENT, WITHDRAW TOURNAMENT: gm.service.people.tournamentmail
ITEM = mark("  - {item}")  # a line of a list in a mail


@valueclass
class Asked:
    """The OBSERVE/JOIN/CREATE lines of the mail being handled: those to confirm, those refused."""

    inbound: Inbound
    lines: list[str] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)  # (label, why)


def confirm_address(our_address: str, code: str) -> str:
    """``gm+confirm.<code>@host`` for our address ``gm@host``."""
    local, _, domain = our_address.rpartition("@")
    return f"{local}+{CONFIRM_LOCAL}.{code}@{domain}"


def code_addressed(ctx: Context, inbound: Inbound) -> str | None:
    """The code of a mail that came to a reply-to-confirm address of ours and confirms it: one
    that carries the code too, or answers the code mail; else None (see the module's doc)."""
    recipient = inbound.recipient
    if not ctx.config.reply_tokens or not recipient:
        return None
    local, _, domain = ctx.config.address.lower().rpartition("@")
    got_local, at, got_domain = recipient.lower().rpartition("@")
    prefix = f"{local}+{CONFIRM_LOCAL}."
    if not at or got_domain != domain or not got_local.startswith(prefix):
        return None
    code = got_local[len(prefix):]
    if len(code) != CODE_LENGTH or not all(c in ALPHABET for c in code):
        return None
    if code in inbound.subject.lower() or code in inbound.text.lower() or _answers_code_mail(ctx, inbound):
        return code
    log.info("mail to the confirmation address of a code from %s carries no code and answers no code "
             "mail: not taken as a confirmation", inbound.sender or "?")
    return None


def _answers_code_mail(ctx: Context, inbound: Inbound) -> bool:
    """``inbound`` names, in In-Reply-To or References, a code mail gm sent its sender."""
    sender = inbound.sender
    for message_id in inbound.references:
        row = ctx.store.delivery.outbox_by_message_id(message_id)
        if row is not None and row.kind == "confirm" and row.recipient.lower() == sender:
            return True
    return False


# --- a mail asks -------------------------------------------------------------------------
def begin(ctx: Context, inbound: Inbound) -> None:
    """Gather the OBSERVE/JOIN/CREATE lines of ``inbound`` from here on (finish() mails the code)."""
    ctx.asked = Asked(inbound)


def ask(word: str, ctx: Context, view, player, args: str, inbound: Inbound) -> None:
    """An OBSERVE, JOIN or CREATE line (``word``): kept for the mail's one request if it may be
    done now, else its refusal is kept; nothing changes here."""
    asked = ctx.asked if ctx.asked is not None and ctx.asked.inbound is inbound else None
    if asked is None:  # not inside a judged mail (judging.judge_mail): a request of its own
        begin(ctx, inbound)
        ask(word, ctx, view, player, args, inbound)
        finish(ctx, inbound)
        return
    try:
        line = REQUESTS[word](ctx, args, inbound.sender)
    except ServiceError as exc:
        asked.refused.append((Text(REFUSED[word]), reason(exc)))
        return
    if line not in asked.lines:
        asked.lines.append(line)


def finish(ctx: Context, inbound: Inbound) -> str | None:
    """Mail the one code for the lines gathered (with the refusals), unless a cap is reached;
    with no line to confirm, send the refusals as before.  Returns what happened, for the log."""
    asked, ctx.asked = ctx.asked, None
    if asked is None or asked.inbound is not inbound:
        return None
    if not asked.lines:
        for label, why in asked.refused:
            refuse(ctx, inbound, None, label, why)
        return None
    address = inbound.sender
    capped = _capped(ctx, address)
    if capped:  # nothing sent, nothing recorded: a forged From gets a stranger no more mail
        log.info("no confirmation mailed to %s: %s", address, capped)  # a flood: no log flood
        return f"not confirmed: {capped}"
    if _strangers_total_reached(ctx, address):  # a short answer, capped as any to a stranger
        for label, why in asked.refused:
            refuse(ctx, inbound, None, label, why)
        refuse(ctx, inbound, None, Text("Not done"), Text(
            "gm has had too many OBSERVE, JOIN and CREATE requests this hour and is not sending codes to "
            "confirm them now. Nothing was changed; send your request again in an hour."))
        return "not confirmed: the hourly total of confirmations is reached"
    code, now = generate(CODE_LENGTH), ctx.clock()
    ctx.store.optin.add_pending_request(codes.digest(ctx.code_secret(), code), address, mailbox_key(address),
                                        asked.lines, now, now + REQUEST_DAYS * DAY)
    _mail_code(ctx, inbound, code, asked)
    return "confirmation mailed for " + ", ".join(asked.lines)


def code_refused(ctx: Context, address: str) -> str | None:
    """Why no code of any kind may be mailed to ``address`` now (the caps above), or None."""
    capped = _capped(ctx, address)
    if capped is None and _strangers_total_reached(ctx, address):
        return Text("the limit of {most} confirmations an hour is reached", most=ctx.config.confirmations_per_hour)
    return capped


def count_code(ctx: Context, code: str, address: str) -> None:
    """A code mailed to ``address`` for something else than a request here (SET ADDRESS), counted
    by the caps as a request that confirms nothing (CONFIRM finds it in the seat's codes)."""
    now = ctx.clock()
    ctx.store.optin.add_pending_request(codes.digest(ctx.code_secret(), code), address, mailbox_key(address),
                                        [], now, now + REQUEST_DAYS * DAY)


def _capped(ctx: Context, address: str) -> str | None:
    """Why no code may be mailed to ``address``'s mailbox now (its own caps), or None: not while
    one sent there in the last day is unanswered, and at most confirmations_per_address_per_day.
    A mailbox is mailbox_key's: victim+1@, "victim"@, VICTIM@ and Gmail's dotted spellings are one;
    past a cap nothing is sent and nothing recorded."""
    if not address:
        return Text("no From address")
    now, config = ctx.clock(), ctx.config
    ctx.store.locks.lock_shared(HOURLY_CAPS)  # until this code is recorded (or not) and committed
    mailbox = mailbox_key(address)
    if ctx.store.optin.pending_requests_since(now - DAY, mailbox, unconfirmed=True):
        return Text("a confirmation sent there in the last day is unanswered")
    if ctx.store.optin.pending_requests_since(now - DAY, mailbox) >= config.confirmations_per_address_per_day:
        return Plural("{n} confirmation was sent there today", "{n} confirmations were sent there today",
                      n=config.confirmations_per_address_per_day)
    return None


def _strangers_total_reached(ctx: Context, address: str) -> bool:
    """The hourly total of codes is reached and ``address`` holds no seat (a seat's address never
    waits on what strangers use up); the GM is told, once an hour."""
    total = ctx.config.confirmations_per_hour
    if ctx.store.optin.pending_requests_since(ctx.clock() - HOUR) < total or ctx.store.seats.player_seats_at(address):
        return False
    ctx.outbox.alert_gm("Too many OBSERVE/JOIN/CREATE requests", [
        f"gm has mailed {total} confirmation codes in the last hour (config confirmations_per_hour), "
        "the most it sends to addresses that hold no seat.", "",
        "Until the hour has passed, OBSERVE, JOIN and CREATE by mail from such addresses get a short "
        "answer (within the caps on answers to strangers) and no code; the addresses of seats still "
        "get theirs. Many requests from many addresses are often forged From lines: gm in use as a "
        "spam amplifier. gm inbox lists the mails."])
    return True


def _mail_code(ctx: Context, inbound: Inbound, code: str, asked: Asked) -> None:
    """The one confirmation mail: what was asked, how to confirm, what was refused."""
    lines = [Text("A mail from this address ({sender}) asked gm to:", sender=inbound.sender), ""]
    lines += [Text(ITEM, item=_what(line)) for line in asked.lines]
    lines += ["", Text("Nothing is done until this address confirms. To confirm all of it, reply to this "
                       "mail (nothing to write), or mail {address} this line:", address=ctx.config.address), "",
              f"    CONFIRM {code}", "",
              Plural("The code works once, for {n} day. If you did not ask for this, ignore this mail: "
                     "nothing happens, and gm writes to this address about such requests at most once a day.",
                     "The code works once, for {n} days. If you did not ask for this, ignore this mail: "
                     "nothing happens, and gm writes to this address about such requests at most once a day.",
                     n=REQUEST_DAYS)]
    if asked.refused:
        lines += ["", Text("These lines of the mail were not taken (nothing was changed for them):")]
        lines += [Text(ITEM, item=why) for _, why in asked.refused]
    body = ctx.outbox.render("answer", lines=lines, game_id=None)
    # The mail's other answers (HELP, LIST, a refused order...) ride below the code: one mail back
    # for one mail received.
    others = ctx.outbox.take_reply(inbound)
    if others:
        body = ctx.outbox.cut_for_stranger(joined([ReplyPart(None, "", body, "confirm", None)] + others))
    reply = confirm_address(ctx.config.address, code)
    headers = (("Reply-To", reply),) if ctx.config.reply_tokens and len(reply.rpartition("@")[0]) <= 64 \
        else ()
    # No "[gm nb7]" tag and no word "game" in the subject: a reply to it must read as CONFIRM
    # <code> from the subject (gm.mail.orders), not as a game mail needing a password.
    oid = ctx.outbox.queue(inbound.sender, Text("CONFIRM {code}: confirm your request to gm", code=code), body,
                           kind="confirm",
                           in_reply_to=inbound.message_id, references=inbound.references,
                           auto="auto-replied", headers=headers, secret=True, answer=True)
    ctx.outbox.archive_parts(others, oid)


def _what(line: str) -> str:
    """A request line in words, with the line itself (never at a line's start: a reply that does
    not quote must not ask again)."""
    word, *args = line.split()
    if args and args[0] == TOURNAMENT:
        return later("gm.service.people.tournamentmail", "request_in_words")(line)
    if word == "OBSERVE":
        return Text("follow game {game} as an observer ({line})", game=args[0], line=line)
    if word == "UNOBSERVE":
        return Text("stop following game {game} ({line})", game=args[0], line=line)
    if word == "JOIN":
        return Text("take a seat in game {game} as {name} ({line})", game=args[0], name=args[1], line=line)
    if word == "MY":
        return Text("mail this address everything gm keeps about it ({line})", line=line)
    if word == "FORGET":
        return Text("forget this address: erase it everywhere gm keeps it ({line})", line=line)
    return Text("open a {kind} game {game} with {seats} seats ({line})", kind=args[0], game=args[1],
                seats=args[2], line=line)


# --- the address confirms -----------------------------------------------------------------
def confirm(ctx: Context, view, player, args: str, inbound: Inbound, welcome: Welcome) -> None:
    """CONFIRM <code> (a line, the subject, or a mail to gm+confirm.<code>@host): a pending
    request of this address is done; any other code is a seat's (seats.confirm)."""
    from gm.service.people import seats

    words = args.split()
    row = codes.find(ctx.code_secret(), words[0], ctx.store.optin.pending_request) if len(words) == 1 else None
    if row is None or not row.actions:  # a seat's code (count_code)
        seats.confirm(ctx, view, player, args, inbound)
        return
    now = ctx.clock()
    if row.confirmed is not None or row.expires < now or row.address != inbound.sender:
        refuse(ctx, inbound, None, Text("Not confirmed"), Text(
            "CONFIRM {code}: this code is used or expired, or this is not the address it was sent to. Send "
            "the request again.", code=args[:30]))
        return
    ctx.store.optin.confirm_pending_request(row.code_hash, now)
    if "FORGET ME" in row.actions.split("\n"):  # alone: answered after the erase, its last trace
        later("gm.service.people.forget", "confirmed")(ctx, inbound, row.actions.split("\n"))
        return
    lines: list[str] = []
    secret = False
    for line in row.actions.split("\n"):
        word, _, rest = line.partition(" ")
        lines += [""] if lines else []
        try:
            REQUESTS[word](ctx, rest, inbound.sender)  # checked again: things may have moved
        except ServiceError as exc:
            lines.append(Text("{line}: not done: {why}", line=line, why=reason(exc)))
            continue
        lines += answer_lines(_do(ctx, word, rest.split(), inbound.sender, welcome, inbound.sender_name))
        secret = secret or (word == "JOIN" and not rest.startswith(TOURNAMENT))
    body = ctx.outbox.render("answer", lines=lines, game_id=None)
    # The answer of a JOIN holds the seat's password: its stored copy must not outlive its sending.
    ctx.outbox.reply(inbound, None, Text("Confirmed"), body, kind="reply", secret=secret)


def answer_lines(told: str | list[str]) -> list[str]:
    """What a confirmed request line did, as lines of the answer (a Text stays one line)."""
    if isinstance(told, list):
        return told
    return [told] if isinstance(told, Text) else told.split("\n")


def _do(ctx: Context, word: str, args: list[str], sender: str, welcome: Welcome,
        sender_name: str = "") -> str | list[str]:
    from gm.service.outgoing import observers
    from gm.service.people import lobby

    if args and args[0] == TOURNAMENT:
        from gm.service.people import tournamentmail

        if word == "JOIN":
            return tournamentmail.join_confirmed(ctx, args[1], args[2], sender)
        return tournamentmail.withdraw_confirmed(ctx, args[1], sender)
    if word == "OBSERVE":
        return observers.add(ctx, args[0], sender)
    if word == "UNOBSERVE":
        return observers.remove(ctx, args[0], sender)
    if word == "JOIN":  # the seat keeps the display name of the From that confirmed it
        return lobby.take_seat(ctx, args[0], args[1], sender, welcome, sender_name)
    if word == "MY":
        from gm.service.people import mydata

        return mydata.send(ctx, sender)
    return lobby.create_game(ctx, args[0], args[1], int(args[2]), sender, rated=args[3:] == [lobby.RATED])
