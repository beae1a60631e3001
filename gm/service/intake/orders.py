"""A mail's orders: the lines in the game's notation, judged for the seat the mail speaks for.

Orders written for another turn than the open one are refused with the
position as it is; the lines around the orders that are not in the notation
(greetings, sign-offs) are set aside and named in the reply.  The rest goes
to gm.service.play.moves (the clock, the order, then the conditional lines).
"""

from __future__ import annotations

from games.text import Text
from games.base import OrderSyntaxError
from gm.core.model import GameView, Outcome, OutcomeKind, Status
from gm.mail import orders as order_mail
from gm.service.intake.case import MailCase
from gm.service.intake.words import say, shown
from gm.service.outgoing import reports
from gm.service.people import lines as conditional_lines
from gm.service.play import moves
from gm.service.table import games

MAX_SCREENED = 50  # candidate lines screened one by one; a longer mail is judged as written


def judge_orders(case: MailCase) -> Outcome:
    """Judge the mail's order lines, then keep its IF lines (RULINGS G8): an order applied keeps
    them from the position after it (gm.service.play.conditional), else they start from now."""
    outcome = judge_order_lines(case)
    if case.mail.if_lines and outcome.outcome != OutcomeKind.APPLIED:
        conditional_lines.take(case.ctx, games.load(case.ctx.store, case.view.id), case.player.name,
                               case.mail.if_lines, case.inbound)
    return outcome


def judge_order_lines(case: MailCase) -> Outcome:
    """Judge the mail's order lines, as the commands before them left the game."""
    ctx, mail, view, name = case.ctx, case.mail, case.view, case.player.name
    if not mail.order_lines:
        return case.help("commands", view.id)
    after = games.load(ctx.store, view.id) if mail.commands else view  # as the commands left it
    if mail.turn is not None and mail.turn != after.turn and after.status == Status.ACTIVE:
        return refuse_old_turn(case, after)
    lines, not_read = order_lines(after, name, mail.order_lines,
                                  did_more=bool(mail.commands or mail.press))
    if not lines:  # only greetings, beside commands that were done
        tell_not_read(case, after, not_read)
        return case.help("commands", view.id)
    outcome = moves.play_order(ctx, after, name, "\n".join(lines), origin="mail",
                                inbound=case.inbound, message_row=case.row_id, now=case.now,
                                turn_closed=case.turn_closed)
    tell_not_read(case, after, not_read)
    return outcome


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
    if len(candidates) > MAX_SCREENED or in_notation(view, name, "\n".join(candidates)):
        return candidates, []
    kept = [i for i, line in enumerate(candidates)
            if order_mail.starts_with_command(line) or in_notation(view, name, line)]
    if not kept:
        return ([], candidates) if did_more else (candidates, [])
    first, last = kept[0], kept[-1]
    return candidates[first:last + 1], candidates[:first] + candidates[last + 1:]


def in_notation(view: GameView, name: str, text: str) -> bool:
    """The rules read ``text`` as an order (legal or not): it is not refused as bad syntax."""
    try:
        view.rules.parse_order(view.state, name, text)
    except OrderSyntaxError:
        return False
    except Exception:  # any other refusal or fault: an order, for apply_order to judge
        return True
    return True


def tell_not_read(case: MailCase, view: GameView, lines: list[str]) -> None:
    """The part of the reply that lists the lines set aside as not orders."""
    if not lines:
        return
    outbox = case.ctx.outbox
    body = outbox.notice_body(view, [say("not_orders")]
                              + ["    " + line for line in shown(lines, more="lines")])
    outbox.reply(case.inbound, view, Text("Not read"), body, kind="reply", archive_player=case.player.name)


def refuse_old_turn(case: MailCase, view: GameView) -> Outcome:
    """Refuse orders written for another turn than the open one, with the position as it is."""
    ctx, mail, name = case.ctx, case.mail, case.player.name
    written = mail.turn
    error = say("old_turn", written=written, turn=view.turn,
                closed=case.turn_closed is not None and written == case.turn_closed)
    text = mail.order_text
    ctx.store.turns.add_order(view.id, "order", name, view.turn, text, accepted=False, origin="mail",
                              at=case.now, error=error, message_row=case.row_id)
    body = ctx.outbox.render("rejected", game_id=view.id, text=text, error=error, kind="StaleTurn",
                             legal=None, report=reports.report_body(ctx, view, name, []))
    ctx.outbox.reply(case.inbound, view, Text("Orders refused (old turn)"), body, kind="error")
    return Outcome(OutcomeKind.REJECTED, error, view.id, [body])
