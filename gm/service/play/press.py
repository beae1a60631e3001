"""Press: players writing to each other, or to the game master, through gm.

    PRESS TO <names|ALL|GM>      (names split by commas and/or spaces:
    any text                      PRESS TO hal, jon)
    ENDPRESS

The game's ``press`` setting: ``none`` (refused), ``white`` (the sender is
named) or ``grey`` (the sender is hidden).  Each named player receives one
copy; ``GM`` is the game master's address (config ``gm_address``).  Every
press message is archived with the turn: one copy per player who received it
and one archive copy (player NULL); the history log names the sender.

Each copy keeps who the message went to as data (reports.audience): ALL (public:
the archive, the Atom feed, observers and every player's HTML report show it),
PLAYERS (named players, with or without the GM) or GM_ONLY (the game master
alone).  Public views read that field, never the message's text.
"""

from __future__ import annotations

import secrets

from typing import Sequence

from gm.core.model import AUDIENCE_ALL, AUDIENCE_GM, AUDIENCE_PLAYERS, GameView
from gm.mail.inbound import Inbound
from gm.service.outgoing import observers
from gm.service.table import deadlines
from gm.service.context import Context

MAX_PRESS = 20_000
GM = "GM"
ALL, PLAYERS, GM_ONLY = AUDIENCE_ALL, AUDIENCE_PLAYERS, AUDIENCE_GM  # reports.audience
# Grey press leaves after a random delay, never in the batch of mail that the sender's own
# orders cause (a bid's news names its author, and the timing would name the press's).
GREY_DELAY = (10 * 60, 40 * 60)  # seconds


def send(ctx: Context, view: GameView, player, targets: Sequence[str] | str, text: str,
         inbound: Inbound) -> None:
    """Deliver one press message (inside the ingest transaction), or tell the sender why not.

    ``targets``: the names on the PRESS TO line (a player, ALL or GM, each once).
    """
    names = [targets] if isinstance(targets, str) else list(targets)
    mode = deadlines.settings(ctx.store, view.id)["press"]
    sender = player["name"]
    problem = _problem(ctx, view, sender, names, text, mode)
    if problem:
        ctx.outbox.reply(inbound, view, "Press not delivered", ctx.outbox.error_body(view, problem),
                         kind="error")
        return
    to_gm = any(_is_gm(n) for n in names)
    public = any(n.upper() == "ALL" for n in names)
    if public:
        recipients, labels = [p for p in view.seated if p["name"] != sender], ["ALL"]
    else:
        recipients = []
        for found in (view.player(n) for n in names if not _is_gm(n)):
            if all(found["name"] != p["name"] for p in recipients):
                recipients.append(found)
        labels = [p["name"] for p in recipients]
    audience = ALL if public else PLAYERS if recipients else GM_ONLY
    if to_gm:
        labels.append(GM)
    to_label = ", ".join(labels)
    shown = "anonymous (grey press)" if mode == "grey" else sender
    body = ctx.outbox.render("press", game_id=view.id, turn=view.turn, sender=shown, to=to_label,
                             text=text)
    later = None
    if mode == "grey":
        later = ctx.clock() + secrets.SystemRandom().uniform(*GREY_DELAY)
    for p in recipients:
        oid = ctx.outbox.to_game(view, p["email"], f"Press from {shown}", body, not_before=later)
        ctx.outbox.archive(view, p["name"], "press", body, oid, audience=audience)
    if audience == ALL:  # public press: the observers read it too
        observers.send(ctx, view, f"Press from {shown}", body, not_before=later)
    if to_gm:
        ctx.outbox.to_game(view, ctx.config.gm_address, f"Press from {shown}", body, not_before=later)
    # The archive's copy is what the recipients read; the history log names the sender.
    ctx.outbox.archive(view, None, "press", body, None, audience=audience)
    ctx.store.log(view.id, view.turn, sender, "press", f"to {to_label} ({mode})", ctx.clock())
    told = ", ".join(labels[:-1] + ["the game master"]) if to_gm else to_label
    confirm = ctx.outbox.notice_body(view, [f"Your press to {told} was delivered"
                                            + (" without your name (grey press)." if mode == "grey"
                                               else ".")])
    ctx.outbox.reply(inbound, view, "Press delivered", confirm, kind="reply", archive_player=sender)


def _is_gm(name: str) -> bool:
    return name.upper() == GM


def _problem(ctx: Context, view: GameView, sender: str, names: list[str], text: str,
             mode: str | None) -> str | None:
    """Why this press cannot be delivered, or None."""
    if mode == "none":
        return "Press is off in this game (option press: none); your message was not delivered."
    if not text.strip():
        return "Your PRESS block was empty; nothing was delivered."
    if len(text) > MAX_PRESS:
        return f"Press messages are limited to {MAX_PRESS} characters."
    if not names:
        return "Your PRESS TO line named nobody; nothing was delivered."
    if any(_is_gm(n) for n in names) and not ctx.config.gm_address:
        return ("This game has no game master address, so PRESS TO GM cannot be delivered; "
                "nothing was delivered.")
    for target in names:
        if target.upper() == "ALL" or _is_gm(target):
            continue
        found = view.player(target)
        if found is None or not found["active"]:
            return (f"There is no player {target!r} to write to (players: "
                    f"{', '.join(view.seated_names)}, or ALL, or GM for the game master); "
                    "your press was not delivered.")
        if found["name"] == sender:
            return "You cannot send press to yourself."
    return None
