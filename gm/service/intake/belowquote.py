"""The lines below a quote, gm's marker line or a signature (gm.mail.quotes): never read, as they
may be someone else's words; the reply names the commands and orders among them."""

from __future__ import annotations

from games.text import Text
from gm.core.model import GameView, NotStarted, ServiceError
from gm.service.intake.case import MailCase
from gm.service.intake.words import body, shown


def tell_unread(case: MailCase, game_id: str | None) -> None:
    """The part of the reply naming the commands and orders (for ``game_id``) below the quote."""
    lines = case.inbound.unread_after_quote + orders_below_quote(case, game_id)
    if not lines:
        return
    text = body("below_quote", lines=shown(lines, more=""))
    case.ctx.outbox.reply(case.inbound, None, Text("Not read (below the quote)"), text, kind="help")


def orders_below_quote(case: MailCase, game_id: str | None) -> list[str]:
    """The lines below a stop (and above any mail of gm's quoted there) that the game the mail was
    for reads as orders of the sender's seat; none where the sender holds no seat of it."""
    inbound = case.inbound
    if not inbound.unread_may_be_orders or not game_id:
        return []
    from gm.service.table import games  # the game's rules, for lines below a quote alone

    try:
        view = games.load(case.ctx.store, game_id)
    except (NotStarted, ServiceError):
        return []
    seat = next((p for p in view.players if p.active and p.email.lower() == inbound.sender), None)
    if seat is None:
        return []
    return [line for line in inbound.unread_may_be_orders if reads_as_order(view, seat.name, line)]


def reads_as_order(view: GameView, name: str, text: str) -> bool:
    """The rules read ``text`` as an order of ``name`` now, legal or not.  Stricter than
    orders.in_notation: a refusal that is not about the order itself (not your turn) tells
    nothing, and a signature's "Ada" must not be named as an order."""
    from games.base import AmbiguousOrderError, IllegalOrderError  # loaded with the game's rules

    try:
        view.rules.parse_order(view.state, name, text)
    except (IllegalOrderError, AmbiguousOrderError):
        return True
    except Exception:
        return False
    return True
