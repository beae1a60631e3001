"""The one-line answers of the commands players use to help themselves (gm.service.people.lobby,
seats, observers): a done thing, or a refusal that changed nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.text import Text
from gm.core.model import GameView
from gm.service.context import Context

if TYPE_CHECKING:
    from gm.mail.inbound import Inbound


def done(ctx: Context, inbound: Inbound, view: GameView | None, label: str, text: str,
         kind: str = "reply", game_id: str | None = None, archive_player: str | None = None,
         secret: bool = False) -> None:
    """Tell the sender what was done (``kind`` "help": rate-limited, for commands anyone can send;
    ``secret``: the text holds a password or a code, so no stored copy keeps it)."""
    lines = [text] if isinstance(text, Text) else text.split("\n")  # a Text is said whole
    body = ctx.outbox.render("answer", lines=lines,
                             game_id=view.id if view is not None else game_id)
    ctx.outbox.reply(inbound, view, label, body, kind=kind, archive_player=archive_player, secret=secret)


def refuse(ctx: Context, inbound: Inbound, view: GameView | None, label: str, text: str) -> None:
    """Tell the sender why nothing was done (rate-limited: errors need no password)."""
    ctx.outbox.reply(inbound, view, label, ctx.outbox.error_body(view, text), kind="error")
