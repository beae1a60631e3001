"""A player's own seat, by mail: RESIGN, SET PASSWORD, PASSWORD RESET, SET ADDRESS and CONFIRM.

Each needs the seat's password or reply token, except PASSWORD RESET and
CONFIRM, which prove themselves otherwise: a reset mails the new password
only to the address the seat is registered to, and only when asked from it;
an address moves only when the new address sends back the code gm mailed to
it.  A seat's new password or address bumps its generation, so every reply
address (gm.core.tokens) made before stops working.
"""

from __future__ import annotations

import hashlib

from gm.core import passwords
from gm.core.model import GameView, Status
from gm.mail import orders as order_mail
from gm.mail.inbound import Inbound
from gm.mail.rawmail import valid_addr_spec
from gm.service import deadlines, delivery_state, games, reports
from gm.service.answers import done, refuse
from gm.service.context import Context
from gm.service.outbox import HOUR, LIMITED_KINDS

MIN_PASSWORD, MAX_PASSWORD = 8, 64
CODE_LENGTH = order_mail.CODE_LENGTH  # the grammar knows a code by its shape in a reply's subject
CODE_DAYS = 3  # an address code works this long, once


def remove(ctx: Context, view: GameView, name: str, who: str, why: str) -> tuple[GameView, int]:
    """Take a seat out of the game as its rules for leaving say (RULINGS G5): the rules' ``leave``
    gives the state without it; the others get a report.  Inside a write; returns (the game after,
    the seq of its new state).  When too few are left the one removed forfeits."""
    rules, now = view.rules, ctx.clock()
    ctx.store.deactivate_player(view.id, name)
    result = rules.leave(view.state, name, now)
    seq = games.save_gm_state(ctx.store, view, rules.dump(result.state), "edit", view.seq,
                              f"{name} left", now)
    after = games.load(ctx.store, view.id)
    if rules.is_over(after.state):  # too few left: the one removed forfeits
        reason = f"{name} forfeited: {why}"
        ctx.store.set_result(view.id, reason, rules.winners(after.state) or None, now)
        ctx.store.log(view.id, after.turn, who, "forfeit", reason, now)
    deadlines.open_turn(ctx.store, after)
    reports.queue_reports(ctx, after, result.events)
    return after, seq


# --- RESIGN -------------------------------------------------------------------------------
def resign(ctx: Context, view: GameView, player, args: str, inbound: Inbound) -> None:
    """RESIGN: the player leaves the game under way; the others are told (the GM can still
    give the seat to someone else with gm replace)."""
    name = player["name"]
    if view.status == Status.FINISHED or view.rules.is_over(view.state):
        refuse(ctx, inbound, view, "Not resigned", f"Game {view.id} is over; there is nothing to "
               "resign from.")
        return
    ctx.store.log(view.id, view.turn, name, "resign", f"{name} resigned by mail", ctx.clock())
    reports.notice(ctx, view, [n for n in view.seated_names if n != name],
                   [f"{name} has resigned from the game."], f"{name} resigned")
    after, _ = remove(ctx, view, name, name, "resigned")
    over = after.rules.is_over(after.state)
    done(ctx, inbound, view, "Resigned", f"You have resigned from game {view.id}. "
         + ("Too few players are left: the game is over." if over else
            "The game goes on without you; gm sends you no more of its mail, and orders from "
            "your seat are refused."), archive_player=name)


# --- passwords ------------------------------------------------------------------------------
def set_password(ctx: Context, view: GameView, player, value: str, inbound: Inbound) -> None:
    """SET PASSWORD <new> (with the old one, or a reply token): the seat's password changes, and
    its old password and reply addresses stop working."""
    problem = password_problem(value)
    if problem:
        refuse(ctx, inbound, view, "Password not changed", f"SET PASSWORD: {problem}")
        return
    ctx.store.set_seat_password(view.id, player["name"], passwords.hash_password(value))
    ctx.store.log(view.id, view.turn, player["name"], "password", "changed by SET PASSWORD", ctx.clock())
    done(ctx, inbound, view, "Password changed", f"The password of your seat {player['name']} in game "
         f"{view.id} is changed. Your old password, and the reply addresses of the reports sent "
         "before, no longer work; the next reports carry new ones.", archive_player=player["name"])


def password_problem(value: str) -> str | None:
    """Why ``value`` cannot be a password, or None (it is typed after PASSWORD, as one word)."""
    if len(value.split()) != 1 or not value.isascii() or not value.isprintable():
        return "a password is one word of plain letters, digits and signs (no spaces)."
    if not MIN_PASSWORD <= len(value) <= MAX_PASSWORD:
        return f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters long."
    return None


def password_reset(ctx: Context, view, player, args: str, inbound: Inbound) -> None:
    """PASSWORD RESET <id> (no password): a new password, mailed only to the address a seat of
    that game is registered to, and only when asked from it; from anywhere else nothing changes,
    and the answer does not say whether the address or the game was wrong."""
    words = args.split()
    if len(words) != 2 or words[0].upper() != "RESET":
        refuse(ctx, inbound, None, "Password not reset", f"PASSWORD {args[:60]}: write PASSWORD RESET "
               "<game id>, e.g. PASSWORD RESET nb7, from the address your seat is registered to.")
        return
    game_id, sender = words[1].lower(), inbound.sender
    row = ctx.store.game(game_id)
    mine = [p for p in ctx.store.players_at(game_id, sender) if p["active"]] if row and sender else []
    if not mine or _over_the_hour(ctx, sender):
        refuse(ctx, inbound, None, "Password not reset", f"PASSWORD RESET {game_id[:40]}: nothing was "
               "reset for the address this mail came from. gm mails a new password only to the "
               "address a seat of the game is registered to, and only when it asks from there.")
        return
    lines = []
    for seat in mine:
        secret = passwords.generate()
        ctx.store.set_seat_password(game_id, seat["name"], passwords.hash_password(secret))
        ctx.store.log(game_id, 0, seat["name"], "password", "reset by PASSWORD RESET", ctx.clock())
        lines += [f"Your new password for game {game_id} (seat {seat['name']}): {secret}", ""]
    lines.append("Your old password, and the reply addresses of the reports sent before, no longer "
                 "work. If you did not ask for this, someone sent PASSWORD RESET with your address; "
                 "only you received the new password.")
    done(ctx, inbound, None, f"New password for {game_id}", "\n".join(lines), kind="help", game_id=game_id,
         secret=True)


def _over_the_hour(ctx: Context, address: str) -> bool:
    """This address has had all the replies that need no password this hour: a reset now would
    change a password whose answer gm cannot send."""
    sent = ctx.store.replies_since(LIMITED_KINDS, ctx.clock() - HOUR, address)
    return sent >= ctx.config.error_replies_per_hour


# --- address ---------------------------------------------------------------------------------
def _code_hash(code: str) -> str:
    return hashlib.sha256(code.strip().lower().encode()).hexdigest()


def set_address(ctx: Context, view: GameView, player, value: str, inbound: Inbound) -> None:
    """SET ADDRESS <new>: a code goes to the new address; the seat moves only when that address
    sends it back (CONFIRM <code>, or a reply to the code's mail), within CODE_DAYS days."""
    new = value.strip().strip("<>").lower()
    if len(value.split()) != 1 or not valid_addr_spec(new):
        refuse(ctx, inbound, view, "Address not changed", f"SET ADDRESS {value[:60]}: write SET ADDRESS "
               "name@example.org (one address).")
        return
    if new == player["email"].lower():
        refuse(ctx, inbound, view, "Address not changed", f"Your seat is registered to {new} already.")
        return
    if any(p["email"].lower() == new and p["name"] != player["name"] for p in view.players):
        refuse(ctx, inbound, view, "Address not changed", f"{new} is the address of another seat of "
               f"game {view.id}; each seat needs an address of its own.")
        return
    code = passwords.generate(CODE_LENGTH)
    expires = ctx.clock() + CODE_DAYS * 86400
    ctx.store.add_address_code(_code_hash(code), view.id, player["name"], new, expires)
    ctx.store.log(view.id, view.turn, player["name"], "address", f"code sent to {new}", ctx.clock())
    text = ctx.outbox.render("answer", game_id=None, lines=[
        f"The player {player['name']} of game {view.id} asked gm to send their game mail to this "
        "address from now on.", "",
        f"To confirm, reply to this mail, or mail {ctx.config.address} a line: CONFIRM {code}", "",
        f"The code works once, for {CODE_DAYS} days. If you did not ask for this, ignore this mail: "
        "nothing changes."])
    # No "[nb7 T3]" tag and no word "game" in the subject: a reply to it must read as CONFIRM
    # <code> from the subject (gm.mail.orders), not as a game mail needing a password.
    ctx.outbox.queue(new, f"CONFIRM {code}: confirm your new address ({view.id})", text, kind="notice",
                     game_id=view.id, secret=True)
    done(ctx, inbound, view, "Address change started", f"gm mailed a code to {new}. Your seat moves "
         f"there when that address sends it back (a reply to the code's mail, or CONFIRM <code>) "
         f"within {CODE_DAYS} days; until then nothing changes and your mail still comes here.",
         archive_player=player["name"])


def confirm(ctx: Context, view, player, args: str, inbound: Inbound) -> None:
    """CONFIRM <code> from the new address: the seat moves there (its reply addresses change)."""
    words = args.split()
    row = ctx.store.address_code(_code_hash(words[0])) if len(words) == 1 else None
    if row is None or row["used"] or row["expires"] < ctx.clock() or row["new_email"] != inbound.sender:
        refuse(ctx, inbound, None, "Not confirmed", f"CONFIRM {args[:30]}: this code is unknown, used "
               "or expired, or this is not the address it was sent to. Ask again with SET ADDRESS.")
        return
    game = games.load(ctx.store, row["game_id"])
    seat = game.player(row["player"])
    old = seat["email"]
    ctx.store.use_address_code(_code_hash(words[0]))
    ctx.store.set_seat_address(game.id, seat["name"], row["new_email"])
    ctx.store.log(game.id, game.turn, seat["name"], "address", f"{old} -> {row['new_email']}", ctx.clock())
    body = ctx.outbox.notice_body(game, [f"Your seat {seat['name']} now receives its mail at "
                                         f"{row['new_email']}; gm sends nothing more here."])
    ctx.outbox.to_game(game, old, "Your address changed", body)  # held, if the old address bounces
    address_confirmed(ctx, game.id, seat["name"], old, row["new_email"])
    done(ctx, inbound, game, "Address changed", f"Your seat {seat['name']} in game {game.id} now "
         "receives its mail at this address. Send BOARD (with GAME "
         f"{game.id}) for the position, or wait for the next report.", archive_player=seat["name"])


def address_confirmed(ctx: Context, game_id: str, name: str, old: str, new: str) -> None:
    """A seat moved from ``old`` to ``new`` (inside the write).  The seat's delivery state is now
    its new address's (a bouncing old address no longer holds the game up).  The old address's
    own state is cleared once no seat is left there, so the GM sees it settled; its held mail
    stays held, addressed and signed for the old address (gm outbox lists it)."""
    if not ctx.store.player_seats_at(old):
        delivery_state.clear(ctx, old, f"{name} of game {game_id} moved to {new}", release=False)
