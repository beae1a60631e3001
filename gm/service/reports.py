"""The mail a game sends its players: reports after a move, confirmations, notices, welcomes.

Each body is rendered by gm.present and queued with gm.service.outbox, and
every copy a player was sent is archived with the turn.  Only players still in
the game receive game mail (RULINGS G5).
"""

from __future__ import annotations

from typing import Any

from games.base import Event
from gm.core.model import GameView
from gm.mail.inbound import Inbound
from gm.present import reports as present
from gm.service import deadlines, observers
from gm.service.context import Context


def report_body(ctx: Context, view: GameView, viewer: str | None, events: list[Event]) -> str:
    """The report of the game as it stands, as ``viewer`` (None: the GM) sees it."""
    deadline = deadlines.deadline_text(ctx.store, view, ctx.clock())
    return present.render_report(present.ReportInput(view.id, view.rules, view.state, viewer, events,
                                                     deadline=deadline))


def queue_reports(ctx: Context, view: GameView, events: list[Event],
                  reply_to: tuple[str, Inbound | None] | None = None) -> None:
    """A report to every player still in the game, threaded under the mail that caused it."""
    rules, state = view.rules, view.state
    label = "final report" if rules.is_over(state) else "report"
    readers = view.seated
    watching = observers.following(ctx, view.id)
    viewers = [p["name"] for p in readers] + ([present.OBSERVER] if watching else [])
    bodies = present.render_reports(view.id, rules, state, viewers, events,
                                    deadline=deadlines.deadline_text(ctx.store, view, ctx.clock()))
    if watching:  # the observer's view: no private line, no sealed order
        observers.send(ctx, view, f"{rules.title} {label}", bodies[present.OBSERVER], kind="report")
    for player in readers:
        body = bodies[player["name"]]
        threading: dict[str, Any] = {}
        if reply_to and reply_to[0] == player["name"] and reply_to[1] is not None:
            threading = {"in_reply_to": reply_to[1].message_id, "references": reply_to[1].references}
        oid = ctx.outbox.to_game(view, player["email"], f"{rules.title} {label}", body,
                                 kind="report", **threading)
        ctx.outbox.archive(view, player["name"], "report", body, oid)


def gm_reports(ctx: Context, view: GameView, note: str) -> None:
    """A fresh report to every player after a GM override, with the GM's note as its event."""
    queue_reports(ctx, view, [Event(note, kind="gm")])


def announce(ctx: Context, view: GameView, events: list[Event], sender: str,
             inbound: Inbound | None) -> None:
    """Simultaneous games: confirm a sealed order privately, publish what is public."""
    private = [e.text for e in events if e.to is not None and sender in e.to]
    public = [e.text for e in events if e.to is None]
    body = ctx.outbox.render("confirm", game_id=view.id, turn=view.turn,
                             lines=private or ["Orders received."],
                             to_move=view.rules.to_move(view.state), hint=present.help_hint(view.id),
                             deadline=deadlines.deadline_text(ctx.store, view, ctx.clock()))
    if inbound is not None:
        ctx.outbox.reply(inbound, view, "Orders received", body, kind="reply", archive_player=sender)
    else:
        oid = ctx.outbox.to_game(view, view.player(sender)["email"], "Orders received", body,
                                 kind="reply")
        ctx.outbox.archive(view, sender, "reply", body, oid)
    if public:
        notice(ctx, view, view.seated_names, public, f"{view.rules.title} news")
        observers.send(ctx, view, f"{view.rules.title} news", ctx.outbox.notice_body(view, public))


def notify_other_address(ctx: Context, view: GameView, player, inbound: Inbound | None,
                         text: str) -> None:
    """An order from an unregistered address: tell the registered one what was done."""
    if inbound is None or inbound.sender == player["email"].lower():
        return
    body = ctx.outbox.render("other_address", game_id=view.id, sender=inbound.sender, text=text,
                             hint=present.help_hint(view.id))
    ctx.outbox.to_game(view, player["email"], "Orders from another address", body, kind="notice")


def notice(ctx: Context, view: GameView, names: list[str], lines: list[str], label: str,
           kind: str = "notice") -> None:
    """A short notice to the named players (archived with the turn)."""
    body = ctx.outbox.notice_body(view, lines)
    for name in names:
        player = view.player(name)
        if player is None:
            continue
        oid = ctx.outbox.to_game(view, player["email"], label, body)
        ctx.outbox.archive(view, player["name"], kind, body, oid)


def tell_gm(ctx: Context, view: GameView, lines: list[str], label: str) -> None:
    """A notice to the human game master, when the config names one."""
    address = ctx.config.gm_address
    if not address:
        return
    body = ctx.outbox.notice_body(view, lines)
    oid = ctx.outbox.to_game(view, address, label, body)
    ctx.outbox.archive(view, None, "notice", body, oid)


def welcome(ctx: Context, view: GameView, player, password: str | None, commands: list[str] = (),
            press: str | None = None) -> None:
    """The first mail of a seat: the password, the mail commands (``commands``: HELP's lines,
    from gm.service.mailcommands), the game's press mode, and the starting report."""
    rules = view.rules
    report = report_body(ctx, view, player["name"], [])
    body = ctx.outbox.render("welcome", game_id=view.id, title=rules.title, name=player["name"],
                             password=password,
                             opponents=[p["name"] for p in view.seated if p["name"] != player["name"]],
                             address=ctx.config.address, report=report, commands=list(commands),
                             press=press, replies=ctx.config.reply_tokens)
    oid = ctx.outbox.to_game(view, player["email"], f"Welcome to {rules.title}", body, kind="welcome")
    ctx.outbox.archive(view, player["name"], "report", report, oid)
