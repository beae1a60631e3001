"""PREVIEW: a mail's orders judged and shown to their sender alone, never played.

A mail with a PREVIEW line does nothing else: its commands and press are
named as not done, and its orders are judged on a copy of the game
(gm.service.play.preview), screened as real orders are (intake.orders).  The
one reply goes to the sender and is never archived, so no other player,
observer, archive page or feed learns of it; the store keeps the mail and
that reply, nothing more.  It is bounded and rate-limited as every reply.
"""

from __future__ import annotations

import textwrap
from games.text import Text
from gm.core.value import changed
from typing import TYPE_CHECKING

from gm.core.model import GameView, Outcome, OutcomeKind, Status
from gm.mail.orders import OrderMail
from gm.service.intake import orders
from gm.service.intake.case import MailCase
from gm.service.intake.words import say, shown
from gm.service.outgoing import reportmail, reports
from gm.service.outgoing.outbox import page_part
from gm.service.play import preview, turns
from gm.service.table import deadlines

if TYPE_CHECKING:
    from gm.mail.outbound import HtmlPart


def preview_orders(case: MailCase) -> Outcome | None:
    """A mail with PREVIEW: its orders judged on a copy and shown to the sender; else go on."""
    mail = case.mail
    if not mail.preview:
        return None
    view, name = case.view, case.player.name
    lines, not_read = orders.order_lines(view, name, mail.order_lines) if mail.order_lines else ([], [])
    text = "\n".join(lines)
    head = dict(game_id=view.id, turn=view.turn, text=text, skipped=skipped(mail),
                not_read=shown(not_read, more="lines") if not_read else [])
    if not text:
        return reply(case, case.ctx.outbox.render("preview", **head, order=None, lines=[]), None,
                     "preview: no orders", kind="error")
    if mail.turn is not None and mail.turn != view.turn and view.status == Status.ACTIVE:
        error = say("old_turn", written=mail.turn, turn=view.turn,
                    closed=case.turn_closed is not None and mail.turn == case.turn_closed)
        return refused(case, head, error, "StaleTurn", None)
    result = preview.judge(view, name, text, case.now)
    if result.error is not None:
        return refused(case, head, turns.refusal(view, result.error, case.turn_closed),
                       type(result.error).__name__, getattr(result.error, "legal", None))
    letter = case.ctx.outbox.render("preview", **head, order=result.order, lines=wrapped(result.lines))
    report, html = shown_report(case, view, name, result, letter)
    return reply(case, letter + "\n" + report, html, f"preview: {result.order}")


def skipped(mail: OrderMail) -> list[str]:
    """The commands, press and conditional lines of a preview mail, which it does not do."""
    words = list(dict.fromkeys(command.split()[0] for command in mail.commands))
    return words + (["PRESS"] if mail.press else []) + (["IF"] if mail.if_lines else [])


def wrapped(lines: list[str], width: int = 72) -> list[str]:
    """The game's account within ``width`` columns, a wrapped line indented under its start; a
    sentence that fits stays a Text (said in the reader's language)."""
    out = []
    for line in lines:
        indent = line[:len(line) - len(line.lstrip())]
        indent += "  " if indent else ""
        pieces = textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False)
        out += [line] if pieces == [line] else pieces
    return out


def shown_report(case: MailCase, view: GameView, name: str, result: preview.Preview,
                 letter: str) -> tuple[str, HtmlPart | None]:
    """The report the orders would give ``name`` (text, and for a reader of HTML the page with
    its picture and ``letter`` above it), with no deadline: none is set by a preview."""
    ctx = case.ctx
    after = changed(view, state=result.state)
    table = changed(deadlines.turn_table(ctx.store, view), due=None)
    mail = reportmail.TurnMail(ctx, after, result.events, only=[name], table=table)
    page = mail.page(name, letter, "Preview")
    return mail.texts[name], page_part(page, mail.images(name), "") if page is not None else None


def refused(case: MailCase, head: dict, error: str, kind: str, legal: list[str] | None) -> Outcome:
    """The refusal a real order would get, under the preview's head, with the game as it
    stands as the sender's report shows it."""
    ctx, view, name = case.ctx, case.view, case.player.name
    letter = ctx.outbox.render("preview", **head, order=None, lines=[])
    body = ctx.outbox.render("rejected", game_id=view.id, text=head["text"], error=error, kind=kind,
                             legal=legal, report=reports.report_body(ctx, view, name, []))
    return reply(case, letter + "\n" + body, None, f"preview refused: {error}", kind="error")


def reply(case: MailCase, body: str, html: HtmlPart | None, detail: str,
          kind: str = "preview") -> Outcome:
    """The one reply to the sender, about no game (so never archived), and the mail's outcome."""
    view = case.view
    case.ctx.outbox.reply(case.inbound, None, Text("Preview for {game} turn {turn}", game=view.id, turn=view.turn),
                          body, kind=kind, html=html)
    return Outcome(OutcomeKind.HELP, detail, view.id)
