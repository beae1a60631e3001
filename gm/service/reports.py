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
from gm.service import deadlines, observers, reportmail
from gm.service.context import Context


def report_body(ctx: Context, view: GameView, viewer: str | None, events: list[Event]) -> str:
    """The report of the game as it stands, as ``viewer`` (None: the GM) sees it, with the
    deadline in the viewer's time zone."""
    zone = deadlines.player_zone(view.player(viewer)) if viewer else None
    deadline = deadlines.deadline_text(ctx.store, view, ctx.clock(), zone)
    return present.render_report(present.ReportInput(view.id, view.rules, view.state, viewer, events,
                                                     deadline=deadline))


def queue_reports(ctx: Context, view: GameView, events: list[Event],
                  reply_to: tuple[str, Inbound | None] | None = None, note: str | None = None) -> None:
    """A report to every player still in the game, threaded under the mail that caused it: text,
    or text and HTML with the picture (gm.service.reportmail).  ``note`` (the GM entered orders)
    opens each mail and is archived as a notice beside the report.  Observers get the report in
    the observer's view (no private line, no sealed order), as text."""
    rules = view.rules
    label = "final report" if rules.is_over(view.state) else "report"
    mail = reportmail.TurnMail(ctx, view, events, note)
    note = present.fit_width(note) if note else None  # within 72 columns, like every line we send
    if observers.following(ctx, view.id):
        public = present.render_reports(view.id, rules, view.state, [present.OBSERVER], events,
                                        deadline=mail.deadline(None), shared=mail.shared)
        observers.send(ctx, view, f"{rules.title} {label}", public[present.OBSERVER], kind="report")
    for player in view.seated:
        name = player["name"]
        body = mail.text(name)
        threading: dict[str, Any] = {}
        if reply_to and reply_to[0] == name and reply_to[1] is not None:
            threading = {"in_reply_to": reply_to[1].message_id, "references": reply_to[1].references}
        oid = ctx.outbox.to_game(view, player["email"], f"{rules.title} {label}",
                                 f"{note}\n{body}" if note else body, kind="report",
                                 html=mail.html(name), **threading)
        if note:
            ctx.outbox.archive(view, name, "notice", note, oid)
        ctx.outbox.archive(view, name, "report", body, oid)


def board_reply(ctx: Context, view: GameView, name: str):
    """BOARD: the player's report now, and its HTML page for a player who reads HTML (or None)."""
    mail = reportmail.TurnMail(ctx, view, [], only=[name])
    return mail.text(name), mail.html(name)


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
                             deadline=deadlines.deadline_text(ctx.store, view, ctx.clock(),
                                                              deadlines.player_zone(view.player(sender))))
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


def notice(ctx: Context, view: GameView, names: list[str], lines, label: str,
           kind: str = "notice") -> None:
    """A short notice to the named players (archived with the turn).  ``lines`` may be a function
    of the reader's time zone (None: UTC) for a notice that shows a time (gm.core.times)."""
    bodies: dict = {}
    for name in names:
        player = view.player(name)
        if player is None:
            continue
        zone = deadlines.player_zone(player) if callable(lines) else None
        if zone not in bodies:
            bodies[zone] = ctx.outbox.notice_body(view, lines(zone) if callable(lines) else lines)
        body = bodies[zone]
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
    shown = player["display_name"] if "display_name" in player.keys() else ""
    body = ctx.outbox.render("welcome", game_id=view.id, title=rules.title, name=player["name"],
                             display_name=shown,
                             password=password,
                             opponents=[p["name"] for p in view.seated if p["name"] != player["name"]],
                             address=ctx.config.address, report=report, commands=list(commands),
                             press=press, replies=ctx.config.reply_tokens)
    oid = ctx.outbox.to_game(view, player["email"], f"Welcome to {rules.title}", body, kind="welcome",
                             secret=True)  # the password, and the reply address: blanked once sent
    ctx.outbox.archive(view, player["name"], "report", report, oid)
