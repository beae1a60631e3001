"""A seat's credentials, changed here and nowhere else: its password, reply tokens, address and codes.

The registered address is the root of trust (SECURITY.md has the whole table): a password or
reply token speaks for a seat, a code mailed to an address proves that address answered.
PASSWORD RESET changes nothing but mails the registered address a code (one an hour, only if
the mail can go now); confirmed, the seat gets a new password and every old credential dies.
SET ADDRESS mails the new address a code under the opt-in caps (gm.service.people.optin);
confirmed, the seat moves and the old address gets a revert code valid REVERT_DAYS, which
nothing a later holder does can void.  Every change is told to the registered address
(best-effort); a seat taken from its holder takes its codes and tokens with it (end_all);
a token used from another address is told to the owner.  Wrong passwords are counted in
gm.service.people.guessing.  Modelled on Mailman's pending confirmations and Django's resets.
"""

from __future__ import annotations

import logging

from games.text import Plural, Text, mark
from gm.core import codes, passwords, times
from gm.core.model import GameView, Seat
from gm.mail import orders as order_mail
from gm.mail.inbound import Inbound
from gm.service.outgoing import gmalerts, holding
from gm.service.table import games
from gm.service.context import Context
from gm.service.outgoing.outbox import HOUR
from gm.store.seatrows import CodeRow

log = logging.getLogger(__name__)

CODE_LENGTH = order_mail.CODE_LENGTH  # the grammar knows a code by its shape in a reply's subject
DAY = 86400.0
ADDRESS_DAYS = 3  # a code to a new address works this long, once
REVERT_DAYS = 7  # the old address's way back
RESET_HOURS = 24  # a reset's code
RESETS_PER_HOUR = 1  # confirmations one seat's address can be sent (by anyone's PASSWORD RESET)
ADDRESS, REVERT, RESET = "address", "revert", "reset"
SEAT_GONE = mark("the seat is no longer in the game.")  # why a code confirms nothing
REASON = mark("Reason: {why}")  # the game master's reason, told to the seat


def find_code(ctx: Context, code: str) -> CodeRow | None:
    """The row of a seat's code (address, revert, reset), used or not, or None."""
    return codes.find(ctx.code_secret(), code, ctx.store.credentials.address_code)


def _new_code(ctx: Context, game_id: str, name: str, purpose: str, email: str, lifetime: float) -> str:
    code = passwords.generate(CODE_LENGTH)
    now = ctx.clock()
    ctx.store.credentials.add_credential_code(codes.digest(ctx.code_secret(), code), game_id, name, purpose,
                                              email.lower(),
                                              now, now + lifetime)
    return code


def new_code(ctx: Context, game_id: str, name: str, purpose: str, email: str, lifetime: float) -> str:
    """A code of another use for the seat (gm.service.people.holds), mailed to ``email`` by the caller."""
    return _new_code(ctx, game_id, name, purpose, email, lifetime)


def _end_codes(ctx: Context, game_id: str, name: str, purposes: tuple[str, ...], why: str) -> int:
    rows = ctx.store.credentials.pending_codes(game_id, name, purposes, ctx.clock())
    for row in rows:
        ctx.store.credentials.end_code(row.code_hash, why)
    return len(rows)


def reset_waiting(ctx: Context, game_id: str, name: str) -> bool:
    """A PASSWORD RESET of this seat waits for its confirmation: address changes are frozen."""
    return bool(ctx.store.credentials.pending_codes(game_id, name, (RESET,), ctx.clock()))


def stamp(ctx: Context) -> str:
    return times.format_stamp(ctx.clock())


def who_sent(inbound: Inbound) -> str:
    """The sender of a mail as a notice names it."""
    return inbound.sender or Text("an unknown address")


def tell_owner(ctx: Context, view: GameView, address: str, label: str, lines: list[str]) -> None:
    """A notice of a change to a seat's registered (or old) address; best-effort (held if it bounces)."""
    if address:
        ctx.outbox.to_game(view, address, label, ctx.outbox.notice_body(view, lines))


def tell_gm(ctx: Context, subject: str, lines: list[str]) -> None:
    gmalerts.send(ctx, subject, "\n".join(lines) + "\n")


def _to_other_address(inbound: Inbound | None, address: str) -> bool:
    """The answer to this mail does not go to ``address`` (so the owner needs a notice of their own)."""
    return inbound is None or inbound.reply_address.lower() != address.lower()


# --- password ---------------------------------------------------------------------------
def set_password(ctx: Context, view: GameView, seat: Seat, new: str, inbound: Inbound) -> None:
    """SET PASSWORD with the old password (checked by the caller): a chosen password, hashed at its
    cost; every token made before and every waiting address code die (a waiting reset does not)."""
    name, address = seat.name, seat.email
    ctx.store.seats.set_seat_password(view.id, name, passwords.hash_chosen(new))
    ended = _end_codes(ctx, view.id, name, (ADDRESS,), "superseded by SET PASSWORD")
    ctx.store.history.log(view.id, view.turn, name, "password", f"changed by SET PASSWORD from {inbound.sender}"
                          + (f"; {ended} address code(s) superseded" if ended else ""), ctx.clock())
    if _to_other_address(inbound, address):
        tell_owner(ctx, view, address, Text("Your password was changed"), [
            Text("The password of your seat {seat} was changed at {at} by a mail from {sender}.",
                 seat=name, at=stamp(ctx), sender=who_sent(inbound)),
            Text("If this was not you, send PASSWORD RESET {game} from this address: gm mails you a "
                 "code, and its confirmation makes a new password that only you receive.", game=view.id)])


# --- address ----------------------------------------------------------------------------
def start_address_change(ctx: Context, view: GameView, seat: Seat, new: str, inbound: Inbound) -> str:
    """SET ADDRESS with the password (checked by the caller): supersede the codes waiting, mail a new
    one to ``new`` (the caller does), tell the registered address.  Returns the code."""
    name, address = seat.name, seat.email
    ended = _end_codes(ctx, view.id, name, (ADDRESS,), "superseded by a later SET ADDRESS")
    code = _new_code(ctx, view.id, name, ADDRESS, new, ADDRESS_DAYS * DAY)
    ctx.store.history.log(view.id, view.turn, name, "address", f"code sent to {new}, asked from {inbound.sender}"
                          + (f"; {ended} earlier code(s) superseded" if ended else ""), ctx.clock())
    if _to_other_address(inbound, address):
        tell_owner(ctx, view, address, Text("A change of address was asked"), [
            Text("At {at} a mail from {sender} asked to move your seat {seat} to {new}. Nothing changes "
                 "unless that address confirms it; if it does, gm mails you here a code that moves the "
                 "seat back.", at=stamp(ctx), sender=who_sent(inbound), seat=name, new=new),
            Text("If this was not you, send PASSWORD RESET {game} from this address: once you confirm "
                 "it, the change cannot complete and your password and reply addresses are new.",
                 game=view.id)])
    return code


def move(ctx: Context, view: GameView, seat: Seat, new: str, why: str, actor: str | None = None) -> str:
    """The seat's mail goes to ``new`` from now on; its tokens die.  Returns the old address."""
    old = seat.email
    ctx.store.seats.set_seat_address(view.id, seat.name, new)
    ctx.store.history.log(view.id, view.turn, actor or seat.name, "address", f"seat {seat.name}: {old} -> "
                          f"{new}; {why}", ctx.clock())
    if not ctx.store.seats.player_seats_at(old):  # its delivery state is settled once no seat is left there
        from gm.service.outgoing import delivery_state  # a moved seat's old address: rare

        delivery_state.clear(ctx, old, f"{seat.name} of game {view.id} moved to {new}", release=False)
    return old


def confirm_address(ctx: Context, row: CodeRow) -> tuple[GameView, Seat] | str:
    """An address code confirmed from the new address: the seat moves there and the old address is
    mailed a revert code.  Returns (game, seat), or why not (a reset waits)."""
    game = games.load_seats(ctx.store, row.game_id)
    seat = game.player(row.player)
    if seat is None or not seat.active:
        return Text(SEAT_GONE)
    if reset_waiting(ctx, game.id, seat.name):
        return Text("a PASSWORD RESET of this seat waits for its confirmation at the address the seat is "
                    "registered to; no address change completes until it is confirmed or has expired.")
    ctx.store.credentials.end_code(row.code_hash, "confirmed")
    ctx.store.optin.confirm_pending_request(row.code_hash, ctx.clock())  # its place in the caps on codes
    old = move(ctx, game, seat, row.new_email, "SET ADDRESS confirmed from the new address")
    game = games.load_seats(ctx.store, game.id)
    code = _new_code(ctx, game.id, seat.name, REVERT, old, REVERT_DAYS * DAY)
    text = ctx.outbox.render("answer", game_id=None, lines=[
        Text("Since {at} your seat {seat} of game {game} now receives its mail at {new}: the change "
             "asked by SET ADDRESS was confirmed from there. gm sends nothing more here.",
             at=stamp(ctx), seat=seat.name, game=game.id, new=row.new_email), "",
        Text("If this was not you, reply to this mail, or mail {address} a line: CONFIRM {code}",
             address=ctx.config.address, code=code), "",
        Plural("That moves the seat back here and makes a new password, mailed here only; every "
               "password and reply address of the seat before it stops working. The code works once, "
               "for {n} day.",
               "That moves the seat back here and makes a new password, mailed here only; every "
               "password and reply address of the seat before it stops working. The code works once, "
               "for {n} days.", n=REVERT_DAYS)])
    # No "[gm nb7]" tag and no word "game" in the subject: a reply must read as CONFIRM <code>.
    ctx.outbox.queue(old, Text("CONFIRM {code}: your address changed; reply to undo it ({game})", code=code,
                               game=game.id), text, kind="notice", game_id=game.id, secret=True)
    return game, seat_named(game, seat.name)


def revert(ctx: Context, row: CodeRow) -> tuple[GameView, Seat, str] | str:
    """A revert code confirmed from the old address: the seat moves back, as a reset.  Returns
    (game, seat, new password), or why not."""
    game = games.load_seats(ctx.store, row.game_id)
    seat = game.player(row.player)
    if seat is None or not seat.active:
        return Text(SEAT_GONE)
    ctx.store.credentials.end_code(row.code_hash, "confirmed")
    taken_from = seat.email
    if taken_from.lower() != row.new_email:
        move(ctx, game, seat, row.new_email, "moved back by the revert code mailed to this address")
    # The moves after this one are undone with it: their revert codes die; older ones stay.
    for later in ctx.store.credentials.pending_codes(game.id, seat.name, (REVERT,), ctx.clock()):
        if later.created >= row.created:
            ctx.store.credentials.end_code(later.code_hash, "revoked by an earlier address's revert")
    secret = _renew(ctx, game, seat.name, "revert")
    game = games.load_seats(ctx.store, game.id)
    if taken_from.lower() != row.new_email:
        tell_owner(ctx, game, taken_from, Text("Your seat moved back"), [
            Text("At {at} the seat {seat} moved back to the address it had before (with the code gm "
                 "mailed there when it moved). Its password and reply addresses changed; gm sends "
                 "nothing more here.", at=stamp(ctx), seat=seat.name)])
    return game, seat_named(game, seat.name), secret


def seat_named(game: GameView, name: str) -> Seat:
    """The seat ``name`` of ``game``, read again after a change that kept it in the game."""
    seat = game.player(name)
    assert seat is not None
    return seat


def _renew(ctx: Context, view: GameView, name: str, why: str) -> str:
    """A new generated password; the old one, every token and every waiting code but the revert
    codes die, and a lock on the seat ends.  Returns the password (mail it to the registered address)."""
    secret = passwords.generate()
    ctx.store.seats.set_seat_password(view.id, name, passwords.hash_password(secret))
    _end_codes(ctx, view.id, name, (ADDRESS, RESET), f"revoked by {why}")
    ctx.store.credentials.end_seat_locks(view.id, name, ctx.clock())
    return secret


# --- reset ------------------------------------------------------------------------------
def cannot_mail(ctx: Context, view: GameView, seat: Seat) -> str | None:
    """Why a reset's code cannot be mailed to the seat's address now (nothing is changed then)."""
    address, now = seat.email.lower(), ctx.clock()
    ctx.store.locks.lock_addresses(address)  # its state: locked by the mail already, unless it moved since
    last = ctx.store.credentials.last_code_at(view.id, seat.name, RESET)
    if last is not None and last > now - HOUR / RESETS_PER_HOUR:
        return "a confirmation was mailed to the seat's address within the hour"
    if holding.is_bouncing(ctx.store, address):
        return "the seat's address bounces"
    if not ctx.outbox.room_for(address):
        return "this mail has made gm write to that address as often as one mail may"
    return None


def request_reset(ctx: Context, view: GameView, seat: Seat, inbound: Inbound) -> str | None:
    """PASSWORD RESET for ``seat``: mail its registered address a code, or record why not (returned)."""
    why_not = cannot_mail(ctx, view, seat)
    asked = inbound.sender or "an unknown address"  # as the history says it
    if why_not:
        ctx.store.history.log(view.id, view.turn, seat.name, "reset", f"PASSWORD RESET from {asked} not "
                              f"sent: {why_not}; nothing changed", ctx.clock())
        log.warning("PASSWORD RESET of %s/%s from %s not sent: %s", view.id, seat.name, asked, why_not)
        return why_not
    code = _new_code(ctx, view.id, seat.name, RESET, seat.email, RESET_HOURS * HOUR)
    text = ctx.outbox.render("answer", game_id=None, lines=[
        Text("At {at} a mail from {sender} asked for a new password for your seat {seat} of game "
             "{game}. Nothing has changed yet.", at=stamp(ctx), sender=who_sent(inbound), seat=seat.name,
             game=view.id), "",
        Text("To get a new password, reply to this mail, or mail {address} a line: CONFIRM {code}",
             address=ctx.config.address, code=code), "",
        Plural("It must come from this address. Then gm mails the new password here, and the old "
               "password, every reply address and every change of address still waiting stop working. "
               "The code works once, for {n} hour; until then no change of address completes.",
               "It must come from this address. Then gm mails the new password here, and the old "
               "password, every reply address and every change of address still waiting stop working. "
               "The code works once, for {n} hours; until then no change of address completes.",
               n=RESET_HOURS),
        "", Text("If you did not ask for this, ignore this mail: nothing changes.")])
    # Kind "code": an owner's, counted by the seat's own limit above, not with answers to strangers.
    ctx.outbox.queue(seat.email, Text("CONFIRM {code}: confirm your password reset ({game})", code=code,
                                      game=view.id), text, kind="code", game_id=view.id, secret=True)
    ctx.store.history.log(view.id, view.turn, seat.name, "reset", f"asked from {asked}; a code was mailed "
                          "to the registered address", ctx.clock())
    return None


def confirm_reset(ctx: Context, row: CodeRow, sender: str) -> tuple[GameView, Seat, str] | str:
    """A reset's code from the registered address: a new password (returned, to be mailed back)."""
    game = games.load_seats(ctx.store, row.game_id)
    seat = game.player(row.player)
    if seat is None or not seat.active:
        return Text(SEAT_GONE)
    if seat.email.lower() != sender:
        return Text("it must come from the address the seat is registered to.")
    ctx.store.credentials.end_code(row.code_hash, "confirmed")
    secret = _renew(ctx, game, seat.name, "a confirmed PASSWORD RESET")
    ctx.store.history.log(game.id, game.turn, seat.name, "password", "reset by PASSWORD RESET, confirmed "
                          "from the registered address", ctx.clock())
    return games.load_seats(ctx.store, game.id), seat, secret


# --- the game master -----------------------------------------------------------------------
def gm_reset(ctx: Context, view: GameView, seat: Seat, who: str, why: str) -> None:
    """`gm seat reset`: a new password mailed to the registered address; everything old dies."""
    secret = _renew(ctx, view, seat.name, "the game master's reset")
    ctx.store.history.log(view.id, view.turn, who, "password", f"seat {seat.name}: reset; why: {why}", ctx.clock())
    _mail_password(ctx, games.load(ctx.store, view.id), seat.name, secret, [
        Text("At {at} the game master made a new password for your seat {seat}.", at=stamp(ctx),
             seat=seat.name),
        Text(REASON, why=why)])


def gm_move(ctx: Context, view: GameView, seat: Seat, new: str, who: str, why: str) -> None:
    """`gm seat address`: the seat moves to ``new`` now, with a new password mailed there; the old
    address is told, and every old credential dies (revert codes too: the GM decided)."""
    end_all(ctx, view.id, seat.name, "the game master's change of address")
    secret = _renew(ctx, view, seat.name, "the game master's change of address")
    old = move(ctx, view, seat, new, f"by the game master, with a new password; why: {why}", who)
    after = games.load(ctx.store, view.id)
    tell_owner(ctx, after, old, Text("Your seat moved"), [
        Text("At {at} the game master moved your seat {seat} to {new}; gm sends nothing more here, and "
             "its old password and reply addresses stop working.", at=stamp(ctx), seat=seat.name, new=new),
        Text(REASON, why=why)])
    _mail_password(ctx, after, seat.name, secret, [
        Text("At {at} the game master moved your seat {seat} to this address (from {old}).",
             at=stamp(ctx), seat=seat.name, old=old), Text(REASON, why=why)])


def end_all(ctx: Context, game_id: str, name: str, why: str) -> int:
    """Whoever held the seat keeps no way back into it: every code waiting (address, revert and
    reset) ends, every reply token dies (a new generation), and a lock on the seat ends (it
    guarded them).  Every path that takes a seat from its holder calls this: gm replace, gm
    eject, a resignation or concession (gm.service.people.seats.remove), LEAVE, gm seat address.
    A revert or address code left alive moves the seat back to them, or to their new address,
    over whoever has it now.  Their password is left to the caller: a seat that left keeps it,
    useless while the seat is out and theirs again if a rollback seats them.  Returns the codes
    ended."""
    ended = _end_codes(ctx, game_id, name, (ADDRESS, REVERT, RESET), f"revoked by {why}")
    ctx.store.seats.bump_generation(game_id, name)
    ctx.store.credentials.end_seat_locks(game_id, name, ctx.clock())
    return ended


def _mail_password(ctx: Context, view: GameView, name: str, secret: str, lines: list[str]) -> None:
    seat = seat_named(view, name)
    body = ctx.outbox.notice_body(view, lines + ["", Text("Your new password: {secret}", secret=secret), "",
                                                 Text("The old password and reply addresses no longer work.")])
    ctx.outbox.to_game(view, seat.email, Text("Your new password"), body, secret=True)


# --- what a reply token may do ----------------------------------------------------------------
# A token travels in every mail to the seat and in every reply to it (quoted, forwarded): it may
# play (orders, press), set how mail looks, and read.  What changes who holds the seat, or ends
# or suspends it, needs the password.
NEEDS_PASSWORD = ("SET PASSWORD", "SET ADDRESS", "RESIGN", "CONCEDE", "ABSENCE", "LEAVE")


def needs_password(command: str) -> bool:
    words = command.upper().split()
    return bool(words) and (words[0] in NEEDS_PASSWORD or " ".join(words[:2]) in NEEDS_PASSWORD)


def refuse_token(ctx: Context, view: GameView, command: str, inbound: Inbound) -> None:
    """The answer to a command that needs the password, sent with only a reply token."""
    word = " ".join(command.upper().split()[:2]) if command.upper().startswith("SET") \
        else command.upper().split()[0]
    body = ctx.outbox.error_body(view, Text(
        "{word} needs your password: a reply to a report (its reply address) sends orders, press, SET "
        "FORMAT, SET TIMEZONE and the commands that only read, nothing more. Write GAME {game} "
        "PASSWORD <password> above it; PASSWORD RESET {game} mails a new password to the address your "
        "seat is registered to.", word=word, game=view.id))
    ctx.outbox.reply(inbound, view, Text("{word} refused (no password)", word=word), body, kind="reply")


def notify_press_elsewhere(ctx: Context, view: GameView, seat: Seat, inbound: Inbound, texts: list[str]) -> None:
    """Press sent for a seat from another address than its own: the registered address is told,
    as orders are (gm.service.outgoing.reports.notify_other_address)."""
    if inbound.sender == seat.email.lower():
        return
    shown = [line[:100] for text in texts for line in text.splitlines()[:20]]
    tell_owner(ctx, view, seat.email, Text("Press from another address"), [
        Text("Press for your seat {seat} came at {at} from {sender}, not from this address; it was "
             "handled as usual:", seat=seat.name, at=stamp(ctx), sender=who_sent(inbound)),
        ""] + ["    " + line for line in shown] + [
        "", Text("If this was not you, send PASSWORD RESET {game} from this address.", game=view.id)])


READ_ELSEWHERE = "read elsewhere"  # the history line of a notice below: when the owner was last told


def notify_read_elsewhere(ctx: Context, view: GameView, seat: Seat, inbound: Inbound, commands: list[str]) -> None:
    """Commands sent with a seat's reply token from another address than its own (reads: BOARD,
    HISTORY...), in a mail with no orders or press (those have notices of their own): the
    registered address is told, at most once a day per seat.  A token travels in every quoted or
    forwarded copy of gm's mail, so a stranger reading the game with it is worth one word to the
    owner; once a day keeps a forwarded report's reader from filling their mailbox.  When the
    seat was last told is its latest history line READ_ELSEWHERE, written with each notice."""
    if not commands or inbound.sender == seat.email.lower():
        return
    now = ctx.clock()
    last = ctx.store.history.last_logged(view.id, seat.name, READ_ELSEWHERE)
    if last is not None and last > now - DAY:
        return
    words = ", ".join(dict.fromkeys(command.split()[0].upper() for command in commands if command.split()))
    sender = inbound.sender or "an unknown address"  # as the history says it
    tell_owner(ctx, view, seat.email, Text("Your reply address was used from another address"), [
        Text("At {at} a mail from {sender}, not from this address, came to the reply address of your "
             "seat {seat} (the Reply-To of gm's mail to you) and was answered: {words}.", at=stamp(ctx),
             sender=who_sent(inbound), seat=seat.name, words=words),
        Text("Anyone with a copy of a mail gm sent you (forwarded, or quoted in a reply) can use that "
             "reply address for your seat. gm tells you of this at most once a day."), "",
        Text("If this was not you, send PASSWORD RESET {game} from this address: once you confirm it, "
             "your password and reply addresses are new and the old ones stop working.", game=view.id)])
    ctx.store.history.log(view.id, view.turn, seat.name, READ_ELSEWHERE, f"{words} through the reply address "
                          f"from {sender}; told to {seat.email}", now)
