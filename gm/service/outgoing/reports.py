"""The mail a game sends its players: reports after a move, confirmations, notices, welcomes.

Each body is rendered by gm.present, in its reader's language, and queued with
gm.service.outgoing.outbox, and every copy a player was sent is archived with the
turn.  Only players still in the game receive game mail (RULINGS G5).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from games.base import Event
from games.text import in_lines, Text
from gm.core import times
from gm.core.i18n import ENGLISH, LANGUAGES
from gm.core.model import GameView, Seat
from gm.core.value import changed
from gm.present import standings
from gm.present import reports as present
from gm.service.outgoing import calendar, observers, pace, reportmail
from gm.service.outgoing.recordfiles import end_files
from gm.service.table import deadlines, ranking
from gm.service.context import Context

if TYPE_CHECKING:
    from gm.mail.inbound import Inbound
    from gm.mail.outbound import Attachment



def report_body(ctx: Context, view: GameView, viewer: str | None, events: list[Event]) -> str:
    """The report of the game as it stands, as ``viewer`` (None: the GM) sees it, with the
    deadline in the viewer's time zone (deadlines.report_text)."""
    return deadlines.report_text(ctx.store, view, viewer, events, ctx.clock())


def queue_reports(ctx: Context, view: GameView, events: list[Event],
                  reply_to: tuple[str, Inbound | None] | None = None, note: str | None = None,
                  own_notes: dict[str, str] | None = None,
                  table: deadlines.TurnTable | None = None) -> None:
    """A report to every player still in the game, threaded under the mail that caused it (text,
    or text and HTML: reportmail), and to observers in their view, queued as one batch.  ``note``
    (the GM entered orders) and ``own_notes`` (a line for one player) open the mail, archived as
    notices beside the report; ``table``: the turn's TurnTable, if the caller read it with it.  The
    end mail carries the game's public record as files (JSON and text), made only then."""
    rules = view.rules
    over = rules.is_over(view.state)
    label = Text("{title} final report", title=rules.title) if over else Text("{title} report", title=rules.title)
    # The end mail: the final standings open it, archived beside the report as a notice.
    head = in_lines([*final_standings(ctx, view), ""]) if over else None
    sender: reportmail.Sender | None = None
    if reply_to is not None and (player := view.player(reply_to[0])) is not None:
        sender = reportmail.Sender(reply_to[0], reply_to[1], from_seat(player, reply_to[1]))
    mail, letters = reportmail.turn_letters(ctx, view, events, label, note, head, table,
                                            own_notes or {}, sender)
    public = partial(present.render_report, present.ReportInput(  # rendered if someone follows
        view.id, rules, view.state, present.OBSERVER, events, deadline=mail.observer_deadline))
    batch = observers.letters(ctx, view, label, public, "report")
    letters = calendar.with_calendars(ctx, view, letters)
    if over:
        files = end_of_game(ctx, view)
        batch, letters = ([changed(letter, files=files) for letter in mails] for mails in (batch, letters))
    ctx.outbox.queue_batch(view, batch + pace.paced(ctx, view, letters))  # held ones kept


def end_of_game(ctx: Context, view: GameView) -> tuple[Attachment, ...]:
    """What every way a game ends does in the end's transaction, before its end mail: the game's
    ratings (RULINGS G11), then the files the end mail carries (recordfiles.end_files)."""
    from gm.service.table import ratings  # only where a game ends: an order's mail loads none of it

    ratings.game_ended(ctx.store, view, ctx.clock())
    return end_files(ctx, view)


def game_page(ctx: Context, game_id: str) -> str | None:
    """The address of a game's page in the public archive, if the config names one (archive_url)."""
    base = ctx.config.archive_url
    if not base:
        return None
    from gm.present import archive  # the archive's page names: only where it has pages

    return base.rstrip("/") + "/" + archive.page_name(game_id)


REMATCH_LINE = Text("A rematch with the seats swapped begins when both send REMATCH.")


def final_standings(ctx: Context, view: GameView) -> list[str]:
    """The end mail's standings (gm.present.standings): every player with their score, "(left)"
    for those removed, the result (winners the GM declared, else as the rules say) and the game's
    page in the archive; in a game of two both still in it, a line on REMATCH."""
    winners = ranking.declared_winners(ctx.store, view.id)
    lines = standings.final_standings(view.rules, view.state, winners, game_page(ctx, view.id))
    if len(view.players) == 2 and len(view.seated) == 2:  # gm.service.people.rematch
        lines.append(REMATCH_LINE)
    return lines


def from_seat(player: Seat, inbound: Inbound | None) -> bool:
    """The mail came from the seat's own address (its report may answer it; a mail from another
    address gets its own answers, and the seat's address is told: notify_other_address)."""
    return inbound is not None and inbound.sender == player.email.lower()


def board_reply(ctx: Context, view: GameView, name: str):
    """BOARD: the player's report now, and its HTML page for a player who reads HTML (or None)."""
    mail = reportmail.TurnMail(ctx, view, [], only=[name], language=ctx.outbox.answer_language(view))
    return mail.texts[name], mail.html(name)  # the reply it goes in has the footer


def gm_reports(ctx: Context, view: GameView, note: str) -> None:
    """A fresh report to every player after a GM override, with the GM's note as its event."""
    queue_reports(ctx, view, [Event(note, kind="gm")])


def order_taken(ctx: Context, before: GameView, view: GameView, table: deadlines.TurnTable, player: Seat,
                inbound: Inbound | None, text: str, events: list[Event], note: str | None,
                closing: bool, own_note: str | None = None) -> tuple[str, Inbound] | None:
    """The mail an accepted order causes (``before``: the game it was judged on; ``view``: the
    game after it; ``note``: the GM entered it, or a line played it, and ``own_note`` the mover's
    own line of that report; ``closing``: it completes a simultaneous turn,
    closed next).  Returns the reply_to of the closing turn's reports when the sender's reply
    is to be that report."""
    notify_other_address(ctx, before, player, inbound, text)
    name = player.name
    if not view.rules.simultaneous:
        if note:
            own_notes = {name: own_note} if own_note else None
            queue_reports(ctx, view, events, note=note, own_notes=own_notes, table=table)
        else:
            queue_reports(ctx, view, events, reply_to=(name, inbound), table=table)
        return None
    if closing and from_seat(player, inbound):
        # The order that completes the turn: its sender's reply is the turn's report, not a
        # confirmation that the order may be replaced (the turn is judged next).
        publish(ctx, view, events, name)
        return (name, inbound)
    private = [Event(note, kind="gm", to=(name,))] if note else []
    announce(ctx, view, events + private, name, inbound, table)
    return None


def announce(ctx: Context, view: GameView, events: list[Event], sender: str,
             inbound: Inbound | None, table: deadlines.TurnTable) -> None:
    """Simultaneous games: confirm a sealed order privately, publish what is public
    (``table``: the TurnTable its order opened, with who still owes orders)."""
    private = [e.text for e in events if e.to is not None and sender in e.to]
    public = [e.text for e in events if e.to is None]
    seat = view.player(sender)
    assert seat is not None  # the sender's orders were judged: they hold the seat
    language = seat.language if seat.language in LANGUAGES else ENGLISH  # the seat's (and so its reply's)
    confirm = dict(game_id=view.id, turn=view.turn, lines=private + public or [Text("Orders received.")],
                   waiting=table.missing if table.missing is not None
                   else deadlines.missing_now(ctx.store, view),
                   deadline=None if table.due is None else
                   times.format_due(table.due, ctx.clock(), table.zones.get(sender), language))
    if inbound is not None:
        ctx.outbox.reply_rendered(inbound, view, Text("Orders received"), "confirm", kind="reply",
                                  archive_player=sender, **confirm)
    else:
        body = ctx.outbox.render("confirm", language=language, **confirm)
        oid = ctx.outbox.to_game(view, seat.email, Text("Orders received"), body, kind="reply",
                                 language=language)
        ctx.outbox.archive(view, sender, "reply", body, oid)
    publish(ctx, view, events, sender)


def publish(ctx: Context, view: GameView, events: list[Event], sender: str) -> None:
    """The public events of a sealed order, as news to the other players and to observers (the
    sender reads them in the reply to their mail)."""
    public = [e.text for e in events if e.to is None]
    if public:
        others = [n for n in view.seated_names if n != sender]
        notice(ctx, view, others, public, Text("{title} news", title=view.rules.title))
        observers.send(ctx, view, f"{view.rules.title} news", ctx.outbox.notice_body(view, public, ENGLISH))


def notify_other_address(ctx: Context, view: GameView, player: Seat, inbound: Inbound | None,
                         text: str) -> None:
    """An order from an unregistered address: tell the registered one what was done."""
    if inbound is None or from_seat(player, inbound):
        return
    language = reportmail.language_of(player)
    body = ctx.outbox.render("other_address", language=language, game_id=view.id, sender=inbound.sender, text=text)
    ctx.outbox.to_game(view, player.email, Text("Orders from another address"), body, kind="notice",
                       language=language)


def notice(ctx: Context, view: GameView, names: list[str], lines, label: str, kind: str = "notice",
           calendars: dict[str, tuple[bytes, ...]] | None = None, files: tuple = ()) -> None:
    """A short notice to the named players (archived with the turn), each in their language.
    ``lines`` may be a function of the reader's time zone (None: UTC) for a notice that shows a time (gm.core.times);
    ``calendars``: each reader's calendar objects (gm.service.outgoing.calendar); ``files``:
    attached to every copy (the end of a game the GM ended: end_files)."""
    bodies: dict = {}
    for name in names:
        player = view.player(name)
        if player is None:
            continue
        zone = deadlines.player_zone(player) if callable(lines) else None
        language = reportmail.language_of(player)
        if (zone, language) not in bodies:
            bodies[zone, language] = ctx.outbox.notice_body(view, lines(zone) if callable(lines) else lines, language)
        body = bodies[zone, language]
        oid = ctx.outbox.to_game(view, player.email, label, body, calendar=(calendars or {}).get(name, ()),
                                 files=files, language=language)
        ctx.outbox.archive(view, player.name, kind, body, oid)


def tell_gm(ctx: Context, view: GameView, lines: list[str], label: str) -> None:
    """A notice to the human game master, when the config names one."""
    address = ctx.config.gm_address
    if not address:
        return
    body = ctx.outbox.notice_body(view, lines, ENGLISH)
    oid = ctx.outbox.to_game(view, address, label, body, language=ENGLISH)
    ctx.outbox.archive(view, None, "notice", body, oid)


def welcome(ctx: Context, view: GameView, player: Seat, password: str | None, commands: list[str] = (),
            press: str | None = None, mail: reportmail.TurnMail | None = None) -> None:
    """The first mail of a seat: the password, the mail commands (``commands``: HELP's lines,
    from gm.service.people.mailcommands), the game's press mode, and the starting report; for a
    player who reads HTML, with the report's page and picture (the letter above it).  ``mail``:
    the reports of the game as it stands, when several seats are welcomed at once."""
    rules, name = view.rules, player.name
    if mail is None or name not in mail.readers:
        mail = reportmail.TurnMail(ctx, view, [], only=[name])
    report = mail.text(name)
    shown = player.display_name
    language = reportmail.language_of(player)

    def letter(report: str) -> str:
        return ctx.outbox.render("welcome", language=language, game_id=view.id, title=rules.title, name=name,
                                 display_name=shown, password=password,
                                 opponents=[p.name for p in view.seated if p.name != name],
                                 address=ctx.config.address, report=report, commands=list(commands),
                                 press=press, replies=ctx.config.reply_tokens)

    html = mail.html(name, letter=letter("")) if name in mail.html_readers else None
    oid = ctx.outbox.to_game(view, player.email, Text("Welcome to {title}", title=rules.title), letter(report),
                             kind="welcome", html=html, calendar=calendar.for_readers(ctx, view, [name]).get(name, ()),
                             secret=True, language=language)  # the password, and the reply address: blanked once sent
    ctx.outbox.archive(view, name, "report", report, oid)


def resend(ctx: Context, view: GameView, names: list[str]) -> None:
    """gm resend: the report of the game as it stands to each of ``names``, as a report to them
    would be (their format, picture and time zone)."""
    mail = reportmail.TurnMail(ctx, view, [], only=names)
    for name in names:
        player, body = view.player(name), mail.text(name)
        assert player is not None  # gm resend names seats of the game
        oid = ctx.outbox.to_game(view, player.email, Text("{title} report (again)", title=view.rules.title), body,
                                 kind="report", html=mail.html(name), language=mail.languages[name])
        ctx.outbox.archive(view, name, "report", body, oid)
