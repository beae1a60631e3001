"""One inbound mail, from bytes to its effects: read, authenticate, run its commands and orders.

Every change happens in one ``BEGIN IMMEDIATE`` transaction together with the
record of the message that caused it and the mail it queues, so that a crash
at any instant leaves either all of it or none of it, and a message seen again
(same source key or Message-ID) is never applied twice.  A message that
cannot be read or handled is kept with its error (outcome ``error``) and the
next one is played; ``retry`` plays it again once the fault is fixed.
"""

from __future__ import annotations

import hashlib
import logging
import traceback

from games.base import AmbiguousOrderError, IllegalOrderError, OrderSyntaxError
from gm.core.model import GameView, NotStarted, Outcome, ServiceError, Status
from gm.mail import inbound as mail_in
from gm.mail import orders as order_mail
from gm.mail.inbound import Inbound
from gm.mail.redact import mask_text, redact
from gm.service.outgoing import bounces, delivery_state, reports
from gm.service.people import commandlocks, credentials, guessing, lobby, mailcommands, optin, seats
from gm.service.play import press, timers, turns
from gm.service.table import games
from gm.service.context import Context
from gm.service.intake import arrival, held
from gm.service.intake.setaside import SeatAuth, seat_auth
from gm.store import StoreError
from gm.store.locks import address_lock, retry_conflicts

log = logging.getLogger(__name__)


def read(ctx: Context, raw: bytes) -> Inbound:
    return mail_in.parse(raw, ctx.config.address, max_bytes=ctx.config.max_message_bytes)


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
                    return Outcome("duplicate", f"already processed as #{seen['id']}")
                raise
        return retry_conflicts(_judge, ctx, inbound, key, now)
    except StoreError:
        raise
    except Exception as exc:  # a fault must not lose the message: keep it, marked, for the GM
        log.exception("processing %s failed", key)
        _set_aside(ctx, raw, key, inbound, now)
        return Outcome("error", f"{type(exc).__name__}: {exc}")


def _judge(ctx: Context, inbound: Inbound, key: str, now: float) -> Outcome:
    """The message's one transaction.  Scoped (gm.store.pglocks): handle() locks the game the
    mail is for, or everything when it cannot name what it changes."""
    game = named_game(ctx, inbound)
    with ctx.store.write(scoped=True):
        # the game's mail also locks its sender's address (as handle() does), in the same statement
        shared = (address_lock(inbound.sender),) if game and inbound.sender else ()
        if not ctx.store.locks.try_lock_message(key, inbound.message_id, game=game, shared=shared):
            # another daemon judges it now: it commits it (and moves it), or dies and it comes again
            return Outcome("busy", "another daemon is judging it")
        # what judging reads of the game (Store.read_game) is read with the insert
        row_id = _record(ctx, inbound, key, now, "pending", "", unless_seen=True,
                         read_game=(game, inbound.sender or "") if game else None)
        if row_id is None:  # stored before: looked at once more, for what to say
            seen = ctx.store.inbox.message_seen(key, inbound.message_id)
            if seen["source_key"] != key:
                _record(ctx, inbound, key, now, "duplicate", f"same Message-ID as #{seen['id']}")
            return Outcome("duplicate", f"already processed as #{seen['id']}")
        outcome = handle_with_one_reply(ctx, inbound, row_id, now)
        ctx.store.inbox.set_message_outcome(row_id, outcome.outcome, outcome.detail[:2000],
                                            outcome.game_id)
        return outcome


def named_game(ctx: Context, inbound: Inbound) -> str | None:
    """The game an order mail names (its GAME line, else its reply address), locked with the
    message; None where it has commands (handle() may lock the whole store for them) or none."""
    if inbound.robot or inbound.too_large or inbound.refuse:
        return None
    try:
        mail = order_mail.read(inbound.subject, inbound.text)
    except Exception:  # handle() reads it again and says what is wrong
        return None
    if mail.commands:
        return None
    addressed = ctx.outbox.tokens.addressed(inbound.recipient)
    game = mail.game_id or (addressed[0] if addressed else None)
    return game.strip().lower() if game else None


def _set_aside(ctx: Context, raw: bytes, key: str, inbound: Inbound | None, now: float) -> None:
    """Keep a mail that could not be handled, masked as every kept mail is, with whom it
    authenticated as (its password is masked: gm.service.intake.setaside)."""
    error = traceback.format_exc()[-2000:]
    with ctx.store.write():  # store-wide: rare, and after a fault whose reach is not known
        if ctx.store.inbox.message_seen(key, None) is None:
            auth = seat_auth(ctx, inbound, raw)
            ctx.store.inbox.add_message(key, inbound.message_id if inbound else None,
                                        inbound.sender if inbound else None,
                                        mask_text(inbound.subject) if inbound else None,
                                        redact(raw, ctx.config.max_message_bytes), now,
                                        "error", error, auth=auth.dump())


def retry(ctx: Context, message_row: int) -> Outcome:
    """`gm inbox --retry ID`: play a message that was set aside with an error, once more."""
    row = ctx.store.inbox.message(message_row)
    if row is None or row["outcome"] != "error":
        raise ServiceError(f"no message #{message_row} set aside with an error")
    now = ctx.clock()
    inbound = read(ctx, bytes(row["raw"]))  # its secrets masked: as whom it authenticated is kept
    return retry_conflicts(_judge_again, ctx, inbound, row, now)


def _judge_again(ctx: Context, inbound: Inbound, row, now: float) -> Outcome:
    """retry()'s transaction: scoped, as a mail's, handle() locking what the mail changes."""
    with ctx.store.write(scoped=True):
        outcome = handle_with_one_reply(ctx, inbound, row["id"], now, SeatAuth.load(row["auth"]))
        ctx.store.inbox.set_message_outcome(row["id"], outcome.outcome, outcome.detail[:2000],
                                            outcome.game_id)
    return outcome


def _record(ctx: Context, inbound: Inbound, key: str, now: float, outcome: str, detail: str,
            unless_seen: bool = False, read_game: tuple[str, str] | None = None) -> int | None:
    """Store the mail as it is kept: its passwords, codes and tokens masked (gm.mail.redact).  The
    mail is handled from ``inbound``, in this transaction; the source key is of the bytes that came.
    ``unless_seen``: not if a mail of this source key or Message-ID was stored (None then);
    ``read_game``: (game, sender) whose reads Store.read_game does with it."""
    args = (key, inbound.message_id, inbound.sender, mask_text(inbound.subject),
            redact(inbound.raw, ctx.config.max_message_bytes), now, outcome, detail)
    if unless_seen:
        return ctx.store.inbox.add_new_message(*args, read_game=read_game)
    return ctx.store.inbox.add_message(*args)


def _error(ctx: Context, inbound: Inbound, view: GameView | None, message: str,
           label: str = "Not done") -> Outcome:
    body = ctx.outbox.error_body(view, message)
    ctx.outbox.reply(inbound, view, label, body, kind="error")
    return Outcome("rejected", message, view.id if view else None, [body])


def handle_with_one_reply(ctx: Context, inbound: Inbound, row_id: int, now: float,
                          trusted: SeatAuth | None = None) -> Outcome:
    """handle(), with every answer to the sender gathered into one reply mail, and the mail's
    OBSERVE/JOIN/CREATE lines into one request to confirm (gm.service.people.optin)."""
    ctx.outbox.begin_reply(inbound)
    optin.begin(ctx, inbound)
    try:
        outcome = handle(ctx, inbound, row_id, now, trusted)
        if outcome.outcome != "robot":
            _unread_below_quote(ctx, inbound, outcome.game_id)
        asked = optin.finish(ctx, inbound)
    except BaseException:
        ctx.outbox.drop_reply()
        ctx.asked = None
        ctx.released = {}
        raise
    ctx.outbox.finish_reply()
    held.release(ctx, read, handle_with_one_reply)  # mails a CONFIRM in it released, judged after it
    if asked:
        outcome.detail = f"{outcome.detail}; {asked}"
    return outcome


def handle(ctx: Context, inbound: Inbound, row_id: int, now: float, trusted: SeatAuth | None = None) -> Outcome:
    """Decide what one stored mail does (inside its transaction).  ``trusted``: a retry's mail,
    masked, and whom it authenticated as when it came (gm.service.intake.setaside)."""
    robot = inbound.robot or bounces.to_bounce_address(ctx, inbound)
    if robot:  # a bounce locks the address it returns and that address's games (bounces.read)
        log.info("not answering %s: %s", inbound.sender or "?", robot)
        bounce = bounces.read(ctx, inbound, row_id, now)  # never answered either way
        return Outcome("robot", robot + (f"; {bounce}" if bounce else ""))
    if inbound.too_large or inbound.refuse:
        ctx.store.locks.lock_addresses(inbound.sender)  # its replies' throttle
    if inbound.too_large:  # its body was never read (checked on the raw bytes)
        return _error(ctx, inbound, None, f"Your mail is too large for gm to read (limit "
                      f"{ctx.config.max_message_bytes} bytes). Send orders as plain text without "
                      "attachments.")
    if inbound.refuse:
        return _error(ctx, inbound, None, f"gm could not read your mail ({inbound.refuse}). Send "
                      "orders as plain text.")
    mail = order_mail.read(inbound.subject, inbound.text)
    code = optin.code_addressed(ctx, inbound)  # a reply to gm+confirm.<code>@host, with the code
    if code and mail.game_id is None and not any(c.startswith("CONFIRM") for c in mail.commands):
        mail.commands.insert(0, f"CONFIRM {code}")
    addressed = ctx.outbox.tokens.addressed(inbound.recipient)  # a reply to gm+nb7.ada.<token>@host
    if addressed and mail.game_id is None:
        mail.game_id = addressed[0]
    if trusted is not None and trusted.game_id and mail.game_id is None:  # its reply address is masked
        mail.game_id = trusted.game_id
    if mail.game_id is None or mail.commands:
        # the games its lines name (JOIN nb7, a CONFIRM's code...), then the addresses it may change
        commandlocks.lock(ctx, inbound.sender, mail.game_id, mail.commands)
    else:
        # orders and press: this game, then the sender's address (its failures, throttle, state)
        ctx.store.locks.lock_games(mail.game_id.strip().lower())
        ctx.store.locks.lock_addresses(inbound.sender)
    if mail.game_id is None:  # HELP, LIST, SUMMARY need no game and no password
        if mailcommands.without_game(ctx, inbound, mail.commands, mail.empty):
            return Outcome("help", "general help" if not mail.commands or mail.commands == ["HELP"]
                           else "commands: " + ", ".join(c.split()[0] for c in mail.commands))
        return _error(ctx, inbound, None, "Your mail does not say which game it is for. "
                      "Put a line GAME <id> PASSWORD <password> above your orders.")
    try:
        view = games.load(ctx.store, mail.game_id)
    except NotStarted:  # seats to fill, no position yet: only LEAVE can be done
        # the open game and the sender's address are locked above: a LEAVE changes no more
        if not lobby.wants_leave(mail.commands) and mailcommands.without_game(ctx, inbound, mail.commands,
                                                                             False):
            return Outcome("help", "commands", mail.game_id)
        return Outcome("help", lobby.game_mail(ctx, inbound, mail.game_id, mail.password, mail.commands),
                       mail.game_id)
    except ServiceError:
        return _error(ctx, inbound, None, f"There is no game called {mail.game_id!r} here. "
                      "Check the game id in your welcome mail." + _games_of(ctx, inbound.sender))
    # RULINGS G4: time is checked before orders.  A timer or deadline that ran out before this
    # mail was judged closes its turn first (as it does for gm order and gm process).
    view, turn_closed, _ = timers.settle(ctx, view.id, view, now=now)
    now = arrival.within_turn(ctx, view, now)
    refused = None
    if trusted is not None:  # a retry: its password and token are masked, its authentication kept
        player, by_token = trusted.player(view), trusted.method == "token"
    else:
        player, refused = guessing.check_password(ctx, view, inbound.sender, mail.password)
        # No password (or one refused by a lock-out, which only the token passes): the reply
        # address speaks for its seat, if its token is current.
        by_token = addressed is not None and addressed[0] == view.id \
            and (not mail.password or refused == "locked")
        if player is None and by_token:
            player = ctx.outbox.tokens.seat(view.id, addressed[1], addressed[2])
        else:
            by_token = False
    if player is None and mail.commands and not mail.order_lines and not mail.press \
            and mailcommands.without_game(ctx, inbound, mail.commands, False):
        return Outcome("help", "commands without a password", view.id)  # PASSWORD RESET, LIST...
    if player is None and (passed := seats.given_away(ctx, view, inbound.sender)) is not None:
        return _error(ctx, inbound, view, f"Your seat {passed} in game {view.id} has passed on to "
                      "another player (the game master gave it to them), so your mail was not read"
                      + ("; the reply address it came to is not valid any more" if by_token else "")
                      + f". You no longer play in this game; send LIST {view.id} to see how it "
                      f"goes, or OBSERVE {view.id} to follow it.", label="Not read (your seat passed on)")
    if player is None and by_token:
        return _error(ctx, inbound, view, f"Your mail came to a reply address of game {view.id} that "
                      "is not valid (it is old: the seat's password or address has changed since "
                      "that report, or it was never made by gm), so it was not read. Reply to the "
                      f"latest report gm sent you, or write GAME {view.id} PASSWORD <password> above "
                      f"your orders; PASSWORD RESET {view.id} mails a new password to your address.")
    if player is None and refused == "locked":  # the right password from the seat's address is held
        return held.hold_or_refuse(ctx, view, inbound, row_id, mail.password, now)
    if player is None:
        reason = "no password was given" if not mail.password else "the password is wrong"
        replying = (", or reply to the latest report gm sent you (no password needed)"
                    if ctx.config.reply_tokens else "")
        return _error(ctx, inbound, view, f"Your orders were not read: {reason} for game "
                      f"{view.id}. Use the password from your welcome mail{replying}. Lost it? Send "
                      f"PASSWORD RESET {view.id} from the address your seat is registered to: gm "
                      "mails a new one there.")
    ctx.outbox.authenticated(inbound)  # its answer is not cut as a stranger's
    # the delivery states of the game's addresses, read together: this one's now, the others' as
    # the reports to them are queued (gm.service.outgoing.holding)
    ctx.store.delivery.read_address_states([p["email"] for p in view.players])
    if player["email"].lower() == inbound.sender:  # their own address works again, if it bounced
        delivery_state.clear(ctx, inbound.sender, f"{player['name']} mailed gm from it")
    if not player["active"]:  # resigned or removed (RULINGS G5): nothing of theirs is read
        return _error(ctx, inbound, view, f"You have left game {view.id} (you resigned, or the game "
                      "master removed you), so your orders and commands were not read. Send "
                      f"LIST {view.id} to follow the game, or OBSERVE {view.id}.",
                      label="Orders refused (you left the game)")
    if mail.empty:
        return _error(ctx, inbound, view, "Your mail had no orders and no commands. Orders go on "
                      "the lines below GAME ... PASSWORD ...; send HELP for the format.")
    answered = []
    for command in mailcommands.each_once(mail.commands):  # 500 BOARD lines: one board
        if by_token and credentials.needs_password(command):
            credentials.refuse_token(ctx, view, command, inbound)
            continue
        mailcommands.run(ctx, view, player, command, inbound)
        answered.append(command)
    if by_token and not mail.press and not mail.order_lines:  # orders and press have their notices
        credentials.notify_read_elsewhere(ctx, view, player, inbound, answered)
    press.send_all(ctx, view, player, mail.press, inbound)
    if not mail.order_lines:
        return Outcome("help", "commands", view.id)
    after = games.load(ctx.store, view.id) if mail.commands else view  # as the commands left it
    if mail.turn is not None and mail.turn != after.turn and after.status == Status.ACTIVE:
        return _stale(ctx, after, player["name"], mail, inbound, row_id, now, turn_closed)
    lines, not_read = order_lines(after, player["name"], mail.order_lines,
                                  did_more=bool(mail.commands or mail.press))
    if not lines:  # only greetings, beside commands that were done
        _not_read(ctx, inbound, after, player["name"], not_read)
        return Outcome("help", "commands", view.id)
    outcome = turns.apply_order(ctx, after, player["name"], "\n".join(lines), origin="mail",
                                inbound=inbound, message_row=row_id, now=now,
                                turn_closed=turn_closed)
    _not_read(ctx, inbound, after, player["name"], not_read)
    return outcome


MAX_NAMED = 20  # games named in one unknown-game reply


def _games_of(ctx: Context, sender: str) -> str:
    """The sentence of the unknown-game reply that names the games this address plays: only the
    sender's own (the From address can be forged: never anyone else's games)."""
    ids = ctx.store.games.game_ids_of_address(sender, MAX_NAMED) if sender else []
    if not ids:
        return ""
    return f" The games this address plays: {', '.join(ids)}."


MAX_SCREENED = 50  # candidate lines screened one by one; a longer mail is judged as written


def order_lines(view: GameView, name: str, candidates: list[str],
                did_more: bool = False) -> tuple[list[str], list[str]]:
    """(the order lines to judge, the lines set aside as not orders).

    The grammar cannot know a game's notation, so the rules decide: the lines
    before the first and after the last line in the game's notation (one
    that is not refused with OrderSyntaxError on its own: an illegal order is
    in the notation, and is judged) are greetings, sign-offs and names, and
    are set aside; a line that starts with a mail command word is never set
    aside.  Everything between is judged as written.  If no line is in the
    notation the mail is judged as written (refused with the syntax error),
    unless it did something else (``did_more``: commands, press), and then
    nothing is judged.
    """
    if len(candidates) > MAX_SCREENED or _in_notation(view, name, "\n".join(candidates)):
        return candidates, []
    kept = [i for i, line in enumerate(candidates)
            if order_mail.starts_with_command(line) or _in_notation(view, name, line)]
    if not kept:
        return ([], candidates) if did_more else (candidates, [])
    first, last = kept[0], kept[-1]
    return candidates[first:last + 1], candidates[:first] + candidates[last + 1:]


def _in_notation(view: GameView, name: str, text: str) -> bool:
    """The rules read ``text`` as an order (legal or not): it is not refused as bad syntax."""
    try:
        view.rules.parse_order(view.state, name, text)
    except OrderSyntaxError:
        return False
    except Exception:  # any other refusal or fault: an order, for apply_order to judge as today
        return True
    return True


def _not_read(ctx: Context, inbound: Inbound, view: GameView, name: str, lines: list[str]) -> None:
    """The part of the reply that lists the lines set aside as not orders."""
    if not lines:
        return
    shown = [mask_text(line if len(line) <= 60 else line[:57] + "...") for line in lines[:10]]  # kept, archived
    if len(lines) > 10:
        shown.append(f"... and {len(lines) - 10} more lines")
    body = ctx.outbox.notice_body(view, ["Not read (not orders): these lines of your mail are not "
                                         "in this game's notation and were left out:"]
                                  + ["    " + line for line in shown])
    ctx.outbox.reply(inbound, view, "Not read", body, kind="reply", archive_player=name)


def _unread_below_quote(ctx: Context, inbound: Inbound, game_id: str | None) -> None:
    """The part of the reply naming the commands and orders that stood below a quote, gm's marker
    line or a signature in the mail (gm.mail.quotes): never read, as they may be someone else's
    words."""
    lines = inbound.unread_after_quote + _orders_below_quote(ctx, inbound, game_id)
    if not lines:
        return
    shown = [mask_text(line if len(line) <= 60 else line[:57] + "...") for line in lines[:10]]
    if len(lines) > 10:
        shown.append(f"... and {len(lines) - 10} more")
    body = "\n".join(["Not read: these lines stand below the quoted part or the signature of",
                      "your mail, where gm reads nothing (it may be someone else's mail you",
                      "quote):", ""]
                     + ["    " + line for line in shown]
                     + ["", "To send them, write them above the quoted part of your mail."]) + "\n"
    ctx.outbox.reply(inbound, None, "Not read (below the quote)", body, kind="help")


def _orders_below_quote(ctx: Context, inbound: Inbound, game_id: str | None) -> list[str]:
    """The lines below a stop (and above any mail of gm's quoted there) that the game the mail was
    for reads as orders of the sender's seat; none where the sender holds no seat of it."""
    if not inbound.unread_may_be_orders or not game_id:
        return []
    try:
        view = games.load(ctx.store, game_id)
    except (NotStarted, ServiceError):
        return []
    seat = next((p for p in view.players if p["active"] and p["email"].lower() == inbound.sender), None)
    if seat is None:
        return []
    return [line for line in inbound.unread_may_be_orders if _reads_as_order(view, seat["name"], line)]


def _reads_as_order(view: GameView, name: str, text: str) -> bool:
    """The rules read ``text`` as an order of ``name`` now, legal or not.  Stricter than
    _in_notation: a refusal that is not about the order itself (not your turn) tells nothing, and
    a signature's "Ada" must not be named as an order."""
    try:
        view.rules.parse_order(view.state, name, text)
    except (IllegalOrderError, AmbiguousOrderError):
        return True
    except Exception:
        return False
    return True


def _stale(ctx: Context, view: GameView, name: str, mail: order_mail.OrderMail, inbound: Inbound,
           row_id: int, now: float, turn_closed: int | None) -> Outcome:
    """Refuse orders written for another turn than the open one, with the position as it is."""
    written, turn = mail.turn, view.turn
    if written < turn:
        error = f"your orders were written for turn {written}; the game is at turn {turn}"
        if turn_closed is not None and written == turn_closed:
            error += (f" (turn {written} closed before they were judged: its timer or deadline "
                      "had run out, RULINGS G4)")
    else:
        error = (f"your orders were written for turn {written}; the game is at turn {turn}, "
                 f"and turn {written} has not begun")
    error += (f". Read the position below and send your orders again (answer the latest report, "
              f"or write TURN {turn} on a line of its own).")
    text = mail.order_text
    ctx.store.turns.add_order(view.id, "order", name, view.turn, text, accepted=False, origin="mail",
                              at=now, error=error, message_row=row_id)
    body = ctx.outbox.render("rejected", game_id=view.id, text=text, error=error, kind="StaleTurn",
                             legal=None,
                             report=reports.report_body(ctx, view, name, []))
    ctx.outbox.reply(inbound, view, "Orders refused (old turn)", body, kind="error")
    return Outcome("rejected", error, view.id, [body])

