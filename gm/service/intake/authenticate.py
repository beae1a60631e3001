"""Whom a mail speaks for: a seat's password, else the seat's reply address it came to.

A retried or held mail is played as whom it authenticated as when it came
(gm.service.intake.setaside): its password and token are masked in the copy
kept.  A mail that speaks for no seat is refused with why, held during a
lock-out (gm.service.intake.held), or, with only commands that need no
password, done as such.  A seat that has left the game is refused too.
"""

from __future__ import annotations

from games.text import Text
from gm.core.model import Outcome
from gm.service.intake.case import MailCase
from gm.service.intake.setaside import speaks_for
from gm.service.intake.words import say
from gm.service.outgoing import delivery_state
from gm.service.people import mailcommands, seats


def authenticate(case: MailCase) -> Outcome | None:
    """Find the seat the mail speaks for, or refuse it; a seat that has left is refused."""
    ctx, inbound, view = case.ctx, case.inbound, case.view
    find_seat(case)
    if case.player is None:
        return refuse_stranger(case)
    ctx.outbox.authenticated(inbound)  # its answer is not cut as a stranger's
    # the delivery states of the game's addresses, read together: this one's now, the others' as
    # the reports to them are queued (gm.service.outgoing.holding)
    ctx.store.delivery.read_address_states([p.email for p in view.players])
    player = case.player
    if player.email.lower() == inbound.sender:  # their own address works again, if it bounced
        delivery_state.clear(ctx, inbound.sender, f"{player.name} mailed gm from it")
    if not player.active:  # resigned or removed (RULINGS G5): nothing of theirs is read
        return case.refuse(say("left_game", game=view.id), view=view,
                           label=Text("Orders refused (you left the game)"))
    return None


def find_seat(case: MailCase) -> None:
    """case.player (None: no seat), case.by_token and case.refused, from the mail's credentials."""
    view, mail, addressed = case.view, case.mail, case.addressed
    if case.trusted is not None:  # its password and token are masked, its authentication kept
        case.player, case.by_token = case.trusted.player(view), case.trusted.method == "token"
        return
    case.player, case.by_token, case.refused = speaks_for(case.ctx, view, case.inbound.sender,
                                                          mail.password, addressed)


def refuse_stranger(case: MailCase) -> Outcome:
    """A mail that speaks for no seat: its password-free commands done, else held or refused."""
    ctx, inbound, view, mail = case.ctx, case.inbound, case.view, case.mail
    if mail.commands and not mail.order_lines and not mail.press \
            and mailcommands.without_game(ctx, inbound, mail.commands, False):
        return case.help("commands without a password", view.id)  # PASSWORD RESET, LIST...
    if (passed := seats.given_away(ctx, view, inbound.sender)) is not None:
        return case.refuse(say("seat_passed", game=view.id, seat=passed, by_token=case.by_token),
                           view=view, label=Text("Not read (your seat passed on)"))
    if case.by_token:
        return case.refuse(say("old_reply_address", game=view.id), view=view)
    if case.refused == "locked":  # the right password from the seat's address is held
        from gm.service.intake import held  # its room: for a mail held, and loaded then

        return held.hold_or_refuse(ctx, view, inbound, case.row_id, mail.password, case.now)
    return case.refuse(say("no_password", game=view.id, given=bool(mail.password),
                           replies=bool(ctx.config.reply_tokens)), view=view)
