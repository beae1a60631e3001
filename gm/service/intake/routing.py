"""Where a mail goes: the game it is for, what it locks, and the mail that needs no game.

The game is the one its GAME line names, else the one of the seat reply
address it came to (gm.service.outgoing.replies), else the one a retried or
held mail was authenticated for.  A mail to a confirmation address confirms
its code; one to an observer's unsubscribe address ends that subscription
and does nothing else (gm.service.outgoing.observers.unsubscribe_mail).
Orders and press lock their game, then the sender's address; a mail with
commands locks what its commands may change (people.commandlocks).
"""

from __future__ import annotations

from gm.core.model import NotStarted, Outcome, ServiceError
from gm.mail import orders as order_mail
from gm.service.intake.case import MailCase
from gm.service.intake.words import say
from gm.service.people import commandlocks, mailcommands, optin

MAX_NAMED = 20  # games named in one unknown-game reply


def route_and_lock(case: MailCase) -> None:
    """Read the mail's lines, find the game it is for, and lock what it may change."""
    ctx, inbound, trusted = case.ctx, case.inbound, case.trusted
    unsubscribing = ctx.outbox.tokens.unsubscribing(inbound.recipient)  # gm+unobserve-nb7-<token>@
    if unsubscribing is not None:  # nothing in the mail is read: its address says it all
        case.mail = order_mail.read("", "")
        inbound.unread_after_quote, inbound.unread_may_be_orders = [], []
        ctx.store.locks.lock_games(unsubscribing[0])
        ctx.store.locks.lock_addresses(inbound.sender)
        return
    mail = case.mail = order_mail.read(inbound.subject, inbound.text, inbound.answered)
    code = optin.code_addressed(ctx, inbound)  # a reply to gm+confirm.<code>@host, with the code
    if code and mail.game_id is None and not any(c.startswith("CONFIRM") for c in mail.commands):
        mail.commands.insert(0, f"CONFIRM {code}")
    addressed = case.addressed = ctx.outbox.tokens.addressed(inbound.recipient)  # gm+nb7.ada.<token>@
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


def find_game(case: MailCase) -> Outcome | None:
    """The game the mail is for, as stored; a mail for no game, or one not started, is done here."""
    ctx, inbound, mail = case.ctx, case.inbound, case.mail
    unsubscribing = ctx.outbox.tokens.unsubscribing(inbound.recipient)
    if unsubscribing is not None:
        from gm.service.outgoing import observers

        return case.help(observers.unsubscribe_mail(ctx, inbound, *unsubscribing), unsubscribing[0])
    if mail.game_id is None:  # HELP, LIST, SUMMARY need no game and no password
        if mailcommands.without_game(ctx, inbound, mail.commands, mail.empty):
            return case.help("general help" if not mail.commands or mail.commands == ["HELP"]
                             else "commands: " + ", ".join(c.split()[0] for c in mail.commands))
        return case.refuse(say("no_game"))
    from gm.service.table import games  # a mail for a game: what games need loads now

    try:
        case.view = games.load(ctx.store, mail.game_id)
    except NotStarted:  # seats to fill, no position yet: only LEAVE can be done
        from gm.service.people import lobby

        # the open game and the sender's address are locked above: a LEAVE changes no more
        if not lobby.wants_leave(mail.commands) and mailcommands.without_game(ctx, inbound, mail.commands,
                                                                             False):
            return case.help("commands", mail.game_id)
        return case.help(lobby.game_mail(ctx, inbound, mail.game_id, mail.password, mail.commands),
                         mail.game_id)
    except ServiceError:
        return case.refuse(say("unknown_game", quoted=repr(mail.game_id),
                               games=games_of(case, inbound.sender)))
    return None


def games_of(case: MailCase, sender: str) -> list[str]:
    """The games this address plays, for the unknown-game reply: only the sender's own (the From
    address can be forged: never anyone else's games)."""
    return case.ctx.store.games.game_ids_of_address(sender, MAX_NAMED) if sender else []
