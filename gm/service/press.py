"""Press: players writing to each other through gm.

    PRESS TO <name|ALL>
    any text
    ENDPRESS

The game's ``press`` setting: ``none`` (refused), ``white`` (the sender is
named) or ``grey`` (the sender is hidden).  Every press message is archived
with the turn: one copy per recipient and one archive copy (player NULL);
the history log names the sender.
"""

from __future__ import annotations

from gm.core.model import GameView
from gm.mail.inbound import Inbound
from gm.present.reports import help_hint
from gm.service import deadlines
from gm.service.context import Context

MAX_PRESS = 20_000


def send(ctx: Context, view: GameView, player, target: str, text: str, inbound: Inbound) -> None:
    """Deliver one press message (inside the ingest transaction), or tell the sender why not."""
    mode = deadlines.settings(ctx.store, view.id)["press"]
    sender = player["name"]
    problem = _problem(view, sender, target, text, mode)
    if problem:
        ctx.outbox.reply(inbound, view, "Press not delivered", ctx.outbox.error_body(view, problem),
                         kind="error")
        return
    if target.upper() == "ALL":
        recipients, to_label = [p for p in view.seated if p["name"] != sender], "ALL"
    else:
        found = view.player(target)
        recipients, to_label = [found], found["name"]
    shown = "anonymous (grey press)" if mode == "grey" else sender
    body = ctx.outbox.render("press", game_id=view.id, turn=view.turn, sender=shown, to=to_label,
                             text=text, hint=help_hint(view.id))
    for p in recipients:
        oid = ctx.outbox.to_game(view, p["email"], f"Press from {shown}", body)
        ctx.outbox.archive(view, p["name"], "press", body, oid)
    # The archive's copy is what the recipients read; the history log names the sender.
    ctx.outbox.archive(view, None, "press", body, None)
    ctx.store.log(view.id, view.turn, sender, "press", f"to {to_label} ({mode})", ctx.clock())
    confirm = ctx.outbox.notice_body(view, [f"Your press to {to_label} was delivered"
                                            + (" without your name (grey press)." if mode == "grey"
                                               else ".")])
    ctx.outbox.reply(inbound, view, "Press delivered", confirm, kind="reply", archive_player=sender)


def _problem(view: GameView, sender: str, target: str, text: str, mode: str | None) -> str | None:
    """Why this press cannot be delivered, or None."""
    if mode == "none":
        return "Press is off in this game (option press: none); your message was not delivered."
    if not text.strip():
        return "Your PRESS block was empty; nothing was delivered."
    if len(text) > MAX_PRESS:
        return f"Press messages are limited to {MAX_PRESS} characters."
    if target.upper() == "ALL":
        return None
    found = view.player(target)
    if found is None or not found["active"]:
        return (f"There is no player {target!r} to write to (players: {', '.join(view.seated_names)}, "
                "or ALL); your press was not delivered.")
    if found["name"] == sender:
        return "You cannot send press to yourself."
    return None
