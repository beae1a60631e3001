"""A player's own seat, by mail: RESIGN, SET PASSWORD, PASSWORD RESET, SET ADDRESS and CONFIRM.

RESIGN, SET PASSWORD and SET ADDRESS need the seat's password (a reply token
is refused for them: gm.service.intake.ingest); PASSWORD RESET and CONFIRM prove
themselves otherwise, by a code mailed to an address.  These handlers read
the command and answer the sender; every change to a seat's credentials is
made by gm.service.people.credentials, which says the rules.
"""

from __future__ import annotations

from typing import Callable

from games.text import Plural, Text, mark
from gm.core import addresses, passwords
from gm.core.model import GameView, Status
from gm.mail.inbound import Inbound
from gm.service.outgoing import reports
from gm.service.people import credentials, draws, holds
from gm.service.table import deadlines, games
from gm.service.outgoing.answers import done, refuse
from gm.service.context import Context

CODE_DAYS = credentials.ADDRESS_DAYS  # a new address confirms within this
NOT_RESET, NOT_MOVED = mark("Password not reset"), mark("Address not changed")
NOTHING_CHANGED = mark("CONFIRM {code}: nothing changed: {why}")


def given_away(ctx: Context, view: GameView, address: str) -> str | None:
    """The seat of ``view`` that the game master gave from ``address`` to another player (gm
    replace: its history line "seat <name>: <old> -> <new>"), when no seat is at ``address`` now;
    else None.  Such a sender can do nothing with the seat any more: PASSWORD RESET would mail
    the new player, so they are told the seat passed on."""
    if not address or any(p.email.lower() == address.lower() for p in view.players):
        return None
    for row in reversed(ctx.store.history.history_of(view.id)):
        detail = row.detail or ""
        if row.action != "replace" or not detail.startswith("seat "):
            continue
        name, _, moved = detail[len("seat "):].partition(": ")
        old, _, _ = moved.partition(" -> ")
        if old.strip().lower() == address.lower():
            return name
    return None


def remove(ctx: Context, view: GameView, name: str, who: str, why: str) -> tuple[GameView, int]:
    """Take a seat out of the game as its rules for leaving say (RULINGS G5): the rules' ``leave``
    gives the state without it; the others get a report.  Inside a write; returns (the game after,
    the seq of its new state).  The seat's codes and reply tokens end with it
    (credentials.end_all).  When too few are left the one removed forfeits (G7: one player
    left of a game begun with two or more wins at once); when every player still in has a
    standing draw proposal, the game ends drawn (G6)."""
    rules, now = view.rules, ctx.clock()
    ctx.store.seats.deactivate_player(view.id, name)
    credentials.end_all(ctx, view.id, name, f"{name} leaving the game ({why})")
    result = rules.leave(view.state, name, now)
    seq = games.save_gm_state(ctx.store, view, rules.dump(result.state), "edit", view.seq,
                              f"{name} left", now)
    after = games.load(ctx.store, view.id)
    if rules.is_over(after.state):  # too few left: the one removed forfeits
        reason = f"{name} forfeited: {why}"
        ctx.store.results.set_result(view.id, reason, rules.winners(after.state) or None, now)
        ctx.store.history.log(view.id, after.turn, who, "forfeit", reason, now)
    deadlines.open_turn(ctx.store, after)
    reports.queue_reports(ctx, after, result.events)
    if draws.settle(ctx, after, who):  # G6: everyone still in now has a standing proposal
        after = games.load(ctx.store, view.id)
    return after, seq


# --- RESIGN (CONCEDE) ----------------------------------------------------------------------
def resign(ctx: Context, view: GameView, player, args: str, inbound: Inbound) -> None:
    """RESIGN, or CONCEDE (the same, RULINGS G7): the player leaves the game under way; the others
    are told (the GM can still give the seat to someone else with gm replace)."""
    name = player.name
    if view.status == Status.FINISHED or view.rules.is_over(view.state):
        refuse(ctx, inbound, view, Text("Not resigned"), Text(
            "Game {game} is over; there is nothing to resign from.", game=view.id))
        return
    ctx.store.history.log(view.id, view.turn, name, "resign", f"{name} resigned by mail", ctx.clock())
    reports.notice(ctx, view, [n for n in view.seated_names if n != name],
                   [Text("{name} has resigned from the game.", name=name)], Text("{name} resigned", name=name))
    after, _ = remove(ctx, view, name, name, "resigned")
    over = after.rules.is_over(after.state)
    done(ctx, inbound, view, Text("Resigned"), Text(
        "You have resigned from game {game}. Too few players are left: the game is over.", game=view.id)
         if over else Text("You have resigned from game {game}. The game goes on without you; gm sends "
                           "you no more of its mail, and orders from your seat are refused.", game=view.id),
         archive_player=name)


# --- passwords ------------------------------------------------------------------------------
def set_password(ctx: Context, view: GameView, player, value: str, inbound: Inbound) -> None:
    """SET PASSWORD <new> (with the old one): the seat's password changes, and its old password,
    reply addresses and waiting address codes stop working; the registered address is told."""
    problem = passwords.chosen_problem(value, (player.name, view.id, player.email.partition("@")[0]))
    if problem:
        refuse(ctx, inbound, view, Text("Password not changed"), Text("SET PASSWORD: {problem}", problem=problem))
        return
    credentials.set_password(ctx, view, player, value, inbound)
    done(ctx, inbound, view, Text("Password changed"), Text(
        "The password of your seat {seat} in game {game} is changed. Your old password, and the reply "
        "addresses of the reports sent before, no longer work; the next reports carry new ones.",
        seat=player.name, game=view.id), archive_player=player.name)


def password_reset(ctx: Context, view, player, args: str, inbound: Inbound) -> None:
    """PASSWORD RESET <id> [<seat>] (no password): nothing changes, but the registered address of
    the seat (the sender's own seats of that game, or the seat named) is mailed a code; the answer
    to anyone else does not say whether the game, the seat or the address was wrong.  A seat of a
    game not started yet is reset the same way (its password is what LEAVE needs)."""
    words = args.split()
    if len(words) not in (2, 3) or words[0].upper() != "RESET":
        refuse(ctx, inbound, None, Text(NOT_RESET), Text(
            "PASSWORD {args}: write PASSWORD RESET <game id>, e.g. PASSWORD RESET nb7, from the address "
            "your seat is registered to.", args=args[:60]))
        return
    game_id, sender = words[1].lower(), inbound.sender
    named = words[2] if len(words) == 3 else None
    row = ctx.store.games.game(game_id) if sender else None
    game = games.load_seats(ctx.store, game_id) if row is not None else None  # an open game's seats too
    mine: list = []
    if game is not None:
        if named is not None:
            mine = [p for p in game.seated if p.name.lower() == named.lower()]
        else:
            mine = [p for p in game.seated if p.email.lower() == sender]
    for seat in mine:  # a code, or the attempt recorded in the history
        credentials.request_reset(ctx, game, seat, inbound)
    if mine and all(seat.email.lower() == sender for seat in mine):
        # The code's own mail is the answer.  When none was sent (one went within the hour, the
        # caps, a bouncing address) nothing is sent either: From may be forged, and the owner
        # must not receive more than the one confirmation an hour.
        return
    refuse(ctx, inbound, None, Text(NOT_RESET), Text(
        "PASSWORD RESET {game}: nothing was reset. gm mails a code only to the address a seat of the "
        "game is registered to (the seats of the sender's address, or the seat named: PASSWORD RESET "
        "<id> <seat>), and changes the password only when that address sends the code back.",
        game=game_id[:40]))


# --- address ---------------------------------------------------------------------------------
def address_asked(value: str) -> str | None:
    """The address a SET ADDRESS line asks for, or None if it is not one address."""
    return addresses.normal(value.strip().strip("<>")) if len(value.split()) == 1 else None


def set_address(ctx: Context, view: GameView, player, value: str, inbound: Inbound,
                refused: Callable[[Context, str], str | None] = lambda ctx, new: None) -> str | None:
    """SET ADDRESS <new> (with the password): a code goes to the new address; the seat moves only
    when that address sends it back (CONFIRM <code>, or a reply to the code's mail), within
    CODE_DAYS days; the old address then gets a code that moves it back.  ``refused``: why no
    code may be mailed to the new address now (the caps on code mails), or None.  Returns the
    code mailed, or None."""
    new = address_asked(value)
    if new is None:
        refuse(ctx, inbound, view, Text(NOT_MOVED), Text(
            "SET ADDRESS {value}: write SET ADDRESS name@example.org (one address).", value=value[:60]))
        return None
    if addresses.same(player.email, new):
        refuse(ctx, inbound, view, Text(NOT_MOVED), Text("Your seat is registered to {new} already.", new=new))
        return None
    if any(addresses.same(p.email, new) and p.name != player.name for p in view.players):
        refuse(ctx, inbound, view, Text(NOT_MOVED), Text(
            "{new} is the address of another seat of game {game}; each seat needs an address of its own.",
            new=new, game=view.id))
        return None
    if credentials.reset_waiting(ctx, view.id, player.name):
        refuse(ctx, inbound, view, Text(NOT_MOVED), Text(
            "A PASSWORD RESET of your seat waits for its confirmation at the address the seat is "
            "registered to; the address cannot change until it is confirmed or has expired."))
        return None
    why = refused(ctx, new)
    if why:
        refuse(ctx, inbound, view, Text(NOT_MOVED), Text(
            "gm cannot mail a code to {new} now ({why}), so your address was not changed. Try again later.",
            new=new, why=why))
        return None
    code = credentials.start_address_change(ctx, view, player, new, inbound)
    text = ctx.outbox.render("answer", game_id=None, lines=[
        Text("The player {name} of game {game} asked gm to send their game mail to this address from "
             "now on.", name=player.name, game=view.id), "",
        Text("To confirm, reply to this mail, or mail {address} a line: CONFIRM {code}",
             address=ctx.config.address, code=code), "",
        Plural("The code works once, for {n} day. If you did not ask for this, ignore this mail: nothing "
               "changes.", "The code works once, for {n} days. If you did not ask for this, ignore this "
               "mail: nothing changes.", n=CODE_DAYS)])
    # No "[gm nb7]" tag and no word "game" in the subject: a reply to it must read as CONFIRM
    # <code> from the subject (gm.mail.orders), not as a game mail needing a password.
    ctx.outbox.queue(new, Text("CONFIRM {code}: confirm your new address ({game})", code=code, game=view.id),
                     text, kind="notice", game_id=view.id, secret=True)
    done(ctx, inbound, view, Text("Address change started"), Plural(
        "gm mailed a code to {new}. Your seat moves there when that address sends it back (a reply to "
        "the code's mail, or CONFIRM <code>) within {n} day; until then nothing changes and your mail "
        "still comes here.",
        "gm mailed a code to {new}. Your seat moves there when that address sends it back (a reply to "
        "the code's mail, or CONFIRM <code>) within {n} days; until then nothing changes and your mail "
        "still comes here.", new=new, n=CODE_DAYS), archive_player=player.name)
    return code


NOT_CONFIRMED = mark("CONFIRM {code}: this code is unknown, used or expired (a later SET ADDRESS, SET "
                     "PASSWORD or PASSWORD RESET may have superseded it), or this is not the address it "
                     "was sent to. Ask again with SET ADDRESS or PASSWORD RESET.")


def confirm(ctx: Context, view, player, args: str, inbound: Inbound) -> None:
    """CONFIRM <code>: every code about a seat's credentials, from the address it was mailed to: a
    new address (the seat moves there), a revert (the seat moves back, with a new password), a
    reset (a new password), a mail held during a lock-out (judged: gm.service.people.holds)."""
    words = args.split()
    row = credentials.find_code(ctx, words[0]) if len(words) == 1 else None
    if row is None or row.used or row.expires < ctx.clock() or row.new_email != inbound.sender:
        refuse(ctx, inbound, None, Text("Not confirmed"), Text(NOT_CONFIRMED, code=args[:30]))
        return
    purpose = row.purpose
    if purpose == holds.HELD:  # a mail held during a lock-out, to be judged
        holds.confirm(ctx, row, inbound)
        return
    if purpose == credentials.ADDRESS:
        result = credentials.confirm_address(ctx, row)
        if isinstance(result, str):
            refuse(ctx, inbound, None, Text("Not confirmed"), Text(NOTHING_CHANGED, code=words[0],
                                                                             why=result))
            return
        game, seat = result
        done(ctx, inbound, game, Text("Address changed"), Text(
            "Your seat {seat} in game {game} now receives its mail at this address. Send BOARD (with GAME "
            "{game}) for the position, or wait for the next report.", seat=seat.name, game=game.id),
            archive_player=seat.name)
        return
    renewed = (credentials.revert(ctx, row) if purpose == credentials.REVERT
               else credentials.confirm_reset(ctx, row, inbound.sender))
    if isinstance(renewed, str):
        refuse(ctx, inbound, None, Text("Not confirmed"), Text(NOTHING_CHANGED, code=words[0],
                                                                         why=renewed))
        return
    game, seat, secret = renewed
    new_password = Text("Your new password for game {game} (seat {seat}): {secret}", game=game.id,
                        seat=seat.name, secret=secret)
    body = ctx.outbox.render("answer", game_id=game.id, lines=[
        Text("Your seat is back at this address. {new_password}", new_password=new_password)
        if purpose == credentials.REVERT else new_password, "",
        Text("Your old password, the reply addresses of the reports sent before and every change of "
             "address still waiting no longer work; only this address received the new password.")])
    ctx.outbox.reply(inbound, game, Text("New password for {game}", game=game.id), body, kind="reply",
                     archive_player=None, secret=True)

