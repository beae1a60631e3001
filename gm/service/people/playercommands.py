"""What the mail commands with no room of their own do: LIST, SUMMARY, HELP in a game, BOARD,
HISTORY, TRAIL and ABSENCE (gm.service.people.mailcommands lists them and dispatches here).

Loaded with the first of these commands a mail holds: a stranger's HELP never needs it.
"""

from __future__ import annotations

import json

from games.base import GameError
from games.text import mark, reason, Text
from gm.core import times
from gm.core.i18n import translate
from gm.core.model import GameView, ServiceError, Status
from gm.mail.rawmail import ascii_lower
from gm.present import standings
from gm.present.reports import without_footer
from gm.service.context import Context, reply_language
from gm.service.outgoing import calendar, reportmail, reports
from gm.service.people import lobby, mailcommands, playersettings
from gm.service.table import deadlines, games
from gm.store.reportrows import ReportRow

MAX_HISTORY = 200_000  # characters of one HISTORY reply
GAME = mark("Game {game}")  # the subject of what LIST tells of one game
STATUS_WORDS = {Status.OPEN.value: mark("open"), Status.ACTIVE.value: mark("running"),
                Status.PAUSED.value: mark("paused"), Status.FINISHED.value: mark("finished")}


def status_word(status: str) -> str:
    """A game's status as LIST says it, in the reader's language (an unknown one as it is)."""
    return Text(STATUS_WORDS[status]) if status in STATUS_WORDS else status


def public_kind(player) -> str:
    """LIST and SUMMARY answer anyone: rate-limited as help, unless a password came with them."""
    return "help" if player is None else "reply"


def list_games(ctx, view, player, args, inbound) -> None:
    words = args.split()
    kind = public_kind(player)
    if len(words) > 1:
        body = ctx.outbox.error_body(None, Text("LIST {args}: write LIST for every game, or LIST <id> for one "
                                                "game", args=args[:60]))
        ctx.outbox.reply(inbound, None, Text("List"), body, kind="error")
        return
    if words:
        if lobby.is_open(ctx, words[0]):
            info = lobby.open_summary(ctx, words[0].lower())
            body = ctx.outbox.render("list", mode="open", game=info)
            ctx.outbox.reply(inbound, None, Text(GAME, game=info["id"]), body, kind=kind)
            return
        try:
            game = games.load(ctx.store, words[0])
        except ServiceError:
            body = ctx.outbox.error_body(None, Text("LIST {word}: there is no game called {name} here. Send "
                                                    "LIST for the games here.", word=words[0][:40],
                                                    name=repr(words[0][:40])))
            ctx.outbox.reply(inbound, None, Text("No such game"), body, kind="error")
            return
        body = ctx.outbox.render("list", mode="game", game=public_summary(ctx, game))
        ctx.outbox.reply(inbound, None, Text(GAME, game=game.id), body, kind=kind)
        return
    rows = ctx.store.games.newest_games(mailcommands.LIST_MAX)
    shown = []
    for row in rows:
        if row.status == Status.OPEN:
            info = lobby.open_summary(ctx, row.id)
            shown.append({"id": row.id, "title": info["title"], "turn": "-", "status": status_word(Status.OPEN.value),
                          "players": info["joined"], "open": info})
            continue
        game = games.load(ctx.store, row.id)
        shown.append({"id": game.id, "title": game.rules.title, "turn": game.turn,
                      "status": status_word(game.status),
                      "players": [p.name if p.active else Text("{name} (left)", name=p.name)
                                  for p in game.players],
                      "result": public_summary(ctx, game)["result"]})
    body = ctx.outbox.render("list", mode="list", games=shown,
                             more=ctx.store.games.game_count() - len(rows))
    ctx.outbox.reply(inbound, None, Text("Games"), body, kind=kind)


def summary(ctx, view, player, args, inbound) -> None:
    """The games the From address plays, then those it observes: only what LIST <id> shows, and
    whether it owes orders (the From address can be forged, so nothing more)."""
    sender = inbound.sender
    shown = []
    for game_id in ctx.store.games.game_ids_of_address(sender, mailcommands.LIST_MAX) if sender else []:
        own = [p for p in ctx.store.seats.players(game_id) if p.active and p.email.lower() == sender]
        settings = [line for p in own for line in (playersettings.in_force(ctx, game_id, p),
                                                   playersettings.pace_in_force(ctx, game_id, p))]
        if lobby.is_open(ctx, game_id):
            info = lobby.open_summary(ctx, game_id)
            shown.append({"id": game_id, "title": info["title"], "turn": "-", "owes": False,
                          "status": Text("open, {free} seat(s) still free", free=info["free"]), "to_move": [],
                          "deadline": None, "settings": settings})
            continue
        game = games.load(ctx.store, game_id)
        info = public_summary(ctx, game)
        if own:  # the deadline in the zone of the reader's seat
            info["deadline"] = deadlines.deadline_text(ctx.store, game, ctx.clock(),
                                                       deadlines.player_zone(own[0]), reply_language(ctx))
        seats = {p.name for p in own}
        owes = False
        if game.status == Status.ACTIVE and not info["over"]:
            start_seq, _ = deadlines.turn_start(ctx.store, game.id)
            owes = bool(seats & set(deadlines.missing(ctx.store, game, start_seq)))
        shown.append({**info, "owes": owes, "settings": settings})
    for game_id in ctx.store.selfservice.game_ids_observed_by(sender, mailcommands.LIST_MAX) if sender else []:
        if not lobby.is_open(ctx, game_id):  # an open game has nothing to follow yet
            info = public_summary(ctx, games.load(ctx.store, game_id))
            shown.append({**info, "owes": False, "status": Text("{status}, you observe it", status=info["status"]),
                          "settings": []})
    body = ctx.outbox.render("list", mode="summary", games=shown, sender=sender,
                             every_game=playersettings.for_all_games(ctx, sender) if sender else None)
    ctx.outbox.reply(inbound, None, Text("Your games"), body, kind=public_kind(player))


def public_summary(ctx: Context, view: GameView) -> dict:
    """What anyone may know of a game: kind, status, turn, players and scores, whose move, the
    deadline; never an address or a sealed order."""
    rules, state = view.rules, view.state
    over = rules.is_over(state) or view.status == Status.FINISHED  # by the rules or the GM
    scores = rules.scores(state)
    seated = set(view.seated_names)
    declared = ctx.store.results.result_of(view.id)  # winners the GM declared (gm end --winner)
    winners = (json.loads(declared.winners) if declared is not None and declared.winners
               else rules.winners(state) if rules.is_over(state) else [])
    return {"id": view.id, "title": rules.title, "kind": rules.kind, "turn": view.turn,
            "status": status_word(view.status), "paused": view.status == Status.PAUSED, "over": over,
            "players": [{"name": name, "score": scores.get(name, 0), "left": name not in seated}
                        for name in rules.players(state)],
            "winners": winners,
            "result": standings.result_line(winners, rules.is_drawn(state)) if over else None,
            "to_move": deadlines.awaited(view) if view.status == Status.ACTIVE and not over else [],
            "deadline": deadlines.deadline_text(ctx.store, view, ctx.clock(), language=reply_language(ctx))}


def game_help(ctx, view, player, args, inbound) -> None:
    mode = deadlines.settings(ctx.store, view.id)["press"]
    commands = mailcommands.help_lines(language=ctx.outbox.answer_language(view))
    body = ctx.outbox.render("help", game=view.rules, game_id=view.id, kinds=[], commands=commands,
                             press=mailcommands.PRESS_MODES.get(mode, mode))
    ctx.outbox.reply(inbound, view, Text("Help"), body, kind="reply")


def board(ctx, view, player, args, inbound) -> None:
    body, html = reports.board_reply(ctx, view, player.name)
    # Archived as a "board" reply, never as a turn report: it is this player's own view
    # (sealed orders included), and the archive's pages show turn reports only.
    ctx.outbox.reply(inbound, view, Text("Board"), body, kind="board", archive_player=player.name, html=html)


def history(ctx, view, player, args, inbound) -> None:
    try:
        turns = history_range(args, view.turn)
    except ValueError:
        body = ctx.outbox.error_body(view, Text("HISTORY {args}: write HISTORY, HISTORY ALL, HISTORY 7 or "
                                                "HISTORY 3-5", args=args))
        ctx.outbox.reply(inbound, view, Text("History"), body, kind="error")
        return
    body = history_for_player(ctx, view, player.name, turns, ctx.outbox.answer_language(view))
    ctx.outbox.reply(inbound, view, Text("History"), body, kind="reply", archive_player=player.name)


def trail(ctx, view, player, args, inbound) -> None:
    """TRAIL [<id>]: the game's full trail table (Game.full_trail), every row.  It is public, as
    every report shows it: anyone may ask, an observer too, with no password (then it is
    rate-limited as help, like LIST <id>)."""
    words = args.split()
    if len(words) > 1 or (not words and view is None):
        body = ctx.outbox.error_body(None, Text("TRAIL {args}: write TRAIL below your GAME line, or TRAIL <id> "
                                                "for the game <id>", args=args[:60]))
        ctx.outbox.reply(inbound, None, Text("Trail"), body, kind="error")
        return
    if words and (view is None or ascii_lower(words[0]) != view.id):
        try:
            view = games.load(ctx.store, words[0])
        except ServiceError as exc:  # no such game, or one still waiting for players
            body = ctx.outbox.error_body(None, Text("TRAIL {word}: {why}. Send LIST for the games here.",
                                                    word=words[0][:40], why=reason(exc)))
            ctx.outbox.reply(inbound, None, Text("No trail"), body, kind="error")
            return
    lines = view.rules.full_trail(view.state)
    if lines is None:
        body = ctx.outbox.error_body(view, Text("TRAIL: game {game} ({title}) keeps no trail table, so there "
                                                "is none to send. Send BOARD for the position.", game=view.id,
                                                title=view.rules.title))
        ctx.outbox.reply(inbound, view, Text("No trail"), body, kind="error")
        return
    # The table goes as written, one line per row: a wrapped row would put its marks under
    # the wrong piece.
    body = ctx.outbox.render("table", game_id=view.id, turn=view.turn, lines=lines)
    ctx.outbox.reply(inbound, view, Text("Trail"), body, kind=public_kind(player),
                     archive_player=player.name if player is not None else None)


def absence(ctx, view, player, args, inbound) -> None:
    now = ctx.clock()
    try:
        start, end = deadlines.parse_absence(args, now)
        lines = deadlines.declare_absence(ctx.store, view, player.name, start, end, now)
    except GameError as exc:
        body = ctx.outbox.error_body(view, Text("ABSENCE {args}: {why}", args=args, why=reason(exc)))
        ctx.outbox.reply(inbound, view, Text("Absence not recorded"), body, kind="error")
        return
    # A second line says the deadline moved: each reader's event moves with it (SET CALENDAR).
    moved = deadlines.current(ctx.store, view).due if len(lines) > 1 else None
    events = calendar.for_seated(ctx, view) if moved is not None else {}
    language = ctx.outbox.answer_language(view)
    said = absence_lines(None, (start, end), moved, now, language)
    ctx.outbox.reply(inbound, view, Text("Absence recorded"), ctx.outbox.notice_body(view, said, language),
                     kind="reply", archive_player=player.name, calendar=events.get(player.name, ()))
    readers: dict[str, list[str]] = {}
    for name in view.seated_names:
        seat = view.player(name)
        if name != player.name and seat is not None:
            readers.setdefault(reportmail.language_of(seat), []).append(name)
    for language, names in readers.items():  # each reader's dates in their own language
        told = absence_lines(player.name, (start, end), moved, now, language)
        reports.notice(ctx, view, names, told, Text("{name} away", name=player.name), calendars=events)


def absence_lines(name: str | None, away: tuple[float, float], moved: float | None, now: float,
                  language: str) -> list[str]:
    """What an ABSENCE tells: to its player (``name`` None) that it is recorded, to the others
    that ``name`` will be away; then where the turn's deadline moved to, if it did."""
    start, end = (times.format_stamp(at, language=language) for at in away)
    first = Text("Absence recorded: {start} to {end}.", start=start, end=end) if name is None else \
        Text("{name} will be away: {start} to {end}.", name=name, start=start, end=end)
    lines: list[str] = [first]
    if moved is not None:
        lines.append(Text("The deadline of this turn moves to {when}.",
                          when=times.format_due(moved, now, language=language)))
    return lines


def history_range(args: str, current: int) -> tuple[int, int]:
    """The turns (first, last) a HISTORY line asks for; ValueError if it is not one of the forms."""
    words = args.upper().split()
    if not words:
        return max(1, current - mailcommands.HISTORY_TURNS + 1), current
    if words == ["ALL"]:
        return 1, current
    first, sep, last = words[0].partition("-")
    if len(words) != 1 or not first.isdecimal() or (sep and not last.isdecimal()):
        raise ValueError(args)
    return int(first), int(last) if sep else int(first)


def history_for_player(ctx: Context, view: GameView, name: str,
                       turns: tuple[int, int] | None = None, language: str = "en") -> str:
    """What this player was sent, turn by turn: reports (latest per turn) and press; the lines
    gm writes around them in ``language`` (the reports as they were sent)."""
    rows = ctx.store.reports.player_reports(view.id, name)
    latest: dict[int, ReportRow] = {}
    press: dict[int, list[ReportRow]] = {}
    for row in rows:
        if row.kind == "report":
            latest[row.turn] = row
        else:
            press.setdefault(row.turn, []).append(row)
    first, last = turns or (1, view.turn)
    shown = [t for t in sorted(set(latest) | set(press)) if first <= t <= last]
    head = dict(game=view.id, title=view.rules.title, name=name, first=first, last=last)
    parts = [translate(Text("History of game {game} ({title}) as sent to {name}, turn {first}", **head)
                       if first == last else
                       Text("History of game {game} ({title}) as sent to {name}, turns {first} to {last}",
                            **head), language), ""]
    if shown and shown[0] > 1:
        parts += [translate(Text("(Earlier turns: send HISTORY ALL, or HISTORY 1-{before}.)",
                                 before=shown[0] - 1), language), ""]
    for turn in shown:
        parts.append(translate(Text("===== Turn {turn} =====", turn=turn), language))
        if turn in latest:
            parts.append(without_footer(latest[turn].body).rstrip())  # one footer: the reply's
        for row in press.get(turn, []):
            parts += ["", row.body.rstrip()]
        parts.append("")
    text = "\n".join(parts) + "\n"
    if len(text) > MAX_HISTORY:
        cut = translate(Text("(earlier turns left out: the history is long)"), language)
        text = cut + "\n\n" + text[-MAX_HISTORY:]
    return text
