"""The code that releases mail held while a seat is locked against guessing.

Strangers can lock any seat (gm.service.people.guessing; From can be forged), and the
owner's right password must not become useless by it.  A mail from the seat's registered
address with the right password is held (gm.service.intake.held), and the address is
mailed a code (purpose 'held'): a password guessed during the lock is worth nothing
without the mailbox.  Confirmed from there, every mail held for the seat is judged, each
as it came (gm.service.intake.held.release).  One code mail a seat an hour: mails held
meanwhile share it.  Only the password's holder can make a mail held, so a forger gets the
owner no code mail at all.
"""

from __future__ import annotations

from games.text import Plural, Text
from gm.core import times
from gm.core.model import GameView, Seat
from gm.mail.inbound import Inbound
from gm.service.people import credentials, guessing
from gm.service.table import games
from gm.service.context import Context
from gm.service.outgoing.answers import done, refuse
from gm.service.outgoing.outbox import HOUR
from gm.store.seatrows import CodeRow

HELD = "held"  # the purpose of the code in address_codes
CODE_HOURS = 24  # a code's life; a turn that closes first makes its held orders old anyway
CODES_PER_HOUR = 1  # code mails to one seat's address while one waits unconfirmed


def waiting_code(ctx: Context, view: GameView, name: str) -> float | None:
    """When the seat's code mailed within the hour and still unconfirmed was made, or None."""
    now = ctx.clock()
    made = [row.created for row in ctx.store.credentials.pending_codes(view.id, name, (HELD,), now)
            if row.created > now - HOUR / CODES_PER_HOUR]
    return max(made) if made else None


def ask(ctx: Context, view: GameView, seat: Seat, inbound: Inbound, came: float) -> None:
    """Answer a mail held for ``seat`` (it came at ``came``, from the seat's registered address):
    with a code to confirm it, or, while a code mailed within the hour waits, with a note that
    this one waits for it too."""
    name, address = seat.name, seat.email
    waiting = waiting_code(ctx, view, name)
    if waiting is not None:
        done(ctx, inbound, view, Text("Held until you confirm"), Text(
            "Your mail is held, not read yet: {why}. It is judged as it came (at {came}) once this "
            "address confirms the code gm mailed here at {mailed} (reply to that mail), if turn "
            "{turn} is still open then: its deadline does not wait.\n\n{note}If you did not send "
            "this mail, do not confirm: send PASSWORD RESET {game} from this address.",
            why=why_held(name), came=times.format_stamp(came), mailed=times.format_stamp(waiting),
            turn=view.turn, note=guessing.reply_note(ctx), game=view.id))
        return
    code = credentials.new_code(ctx, view.id, name, HELD, address, CODE_HOURS * HOUR)
    text = ctx.outbox.render("answer", game_id=None, lines=[
        Text("A mail from this address with the right password for your seat {seat} of game {game} "
             "came at {came}, and is held, not read yet: {why}.", seat=name, game=view.id,
             came=times.format_stamp(came), why=why_held(name)), "",
        Text("To have it judged, reply to this mail, or mail {address} a line: CONFIRM {code}",
             address=ctx.config.address, code=code), "",
        Plural("It must come from this address. Your mail is then judged as it came, if turn {turn} "
               "is still open: its deadline does not wait for you. Mails held for the seat until then "
               "are judged with it, each as it came. The code works once, for {n} hour.",
               "It must come from this address. Your mail is then judged as it came, if turn {turn} "
               "is still open: its deadline does not wait for you. Mails held for the seat until then "
               "are judged with it, each as it came. The code works once, for {n} hours.",
               turn=view.turn, n=CODE_HOURS), "",
        Text("{note}If you did not send that mail, do not confirm: someone knows your password. Send "
             "PASSWORD RESET {game} from this address.", note=guessing.reply_note(ctx), game=view.id)])
    # No "[gm nb7]" tag and no word "game" in the subject: a reply must read as CONFIRM <code>.
    ctx.outbox.queue(address, Text("CONFIRM {code}: confirm your held mail ({game})", code=code, game=view.id),
                     text, kind="notice",
                     game_id=view.id, in_reply_to=inbound.message_id, references=inbound.references,
                     auto="auto-replied", secret=True)


def why_held(name: str) -> str:
    return Text("after {count} wrong passwords within the hour, gm judges no mail for your seat {seat} "
                "by its password alone until the address it is registered to confirms it",
                count=guessing.FAILURE_LIMIT, seat=name)


def confirm(ctx: Context, row: CodeRow, inbound: Inbound) -> None:
    """A hold's code, from the address it was mailed to (seats.confirm checked): the mails held for
    the seat are released, to be judged once this mail's answer is out (ctx.released)."""
    game = games.load_seats(ctx.store, row.game_id)
    seat = game.player(row.player)
    if seat is None or not seat.active or seat.email.lower() != row.new_email:
        refuse(ctx, inbound, None, Text("Not confirmed"), Text(
            "CONFIRM: the held mail was not judged: the seat has left the game, or moved to another "
            "address, since it came."))
        return
    ctx.store.credentials.end_code(row.code_hash, "confirmed")
    ctx.released[(game.id, seat.name)] = ctx.clock()
    done(ctx, inbound, game, Text("Held mail confirmed"), Text(
        "Confirmed: the mails held for your seat {seat} of game {game} are judged now, each as it "
        "came; gm answers each of them as usual.", seat=seat.name, game=game.id))
