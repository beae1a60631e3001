"""A mail's commands and press, run as the seat it speaks for (gm.service.people.mailcommands,
gm.service.play.press).  A command that needs the password is refused to a mail that came by a
seat's reply address alone."""

from __future__ import annotations

from gm.core.model import Outcome
from gm.service.context import reply_language
from gm.service.intake.case import MailCase
from gm.service.intake.words import say
from gm.service.people import credentials, mailcommands
from gm.service.play import press


def run_commands(case: MailCase) -> Outcome | None:
    """Each command of the mail, once (500 BOARD lines: one board); a mail with nothing in it is
    refused, and a mail with PREVIEW previewed instead."""
    ctx, inbound, view, mail, player = case.ctx, case.inbound, case.view, case.mail, case.player
    if mail.preview:  # its orders judged on a copy and shown; nothing else done (intake.preview)
        from gm.service.intake.preview import preview_orders

        return preview_orders(case)
    if mail.empty:
        return case.refuse(say("empty", reply_language(ctx)), view=view)
    answered = []
    for command in mailcommands.each_once(mail.commands):
        if case.by_token and credentials.needs_password(command):
            credentials.refuse_token(ctx, view, command, inbound)
            continue
        if command.split(None, 1)[:1] == ["TAKEBACK"]:  # RULINGS G9: a play room's, not mailcommands'
            from gm.service.play import takebacks

            takebacks.by_mail(ctx, view, player, command, inbound)
        else:
            mailcommands.run(ctx, view, player, command, inbound)
        answered.append(command)
    if case.by_token and not mail.press and not mail.order_lines:  # orders and press have their notices
        credentials.notify_read_elsewhere(ctx, view, player, inbound, answered)
    return None


def send_press(case: MailCase) -> None:
    """The mail's PRESS blocks, to whom they name."""
    press.send_all(case.ctx, case.view, case.player, case.mail.press, case.inbound)
