"""The mail commands a player may put on a line of their own: HELP, BOARD, HISTORY, TRAIL, ABSENCE,
SET, LIST, SUMMARY.

One handler per command, in a table; ``run`` dispatches a command line, and
``without_game`` the commands a mail with no GAME line may hold (HELP, LIST,
SUMMARY: they need no password, so they answer anyone, rate-limited as help).
"""

from __future__ import annotations

import json
import textwrap
from dataclasses import dataclass
from typing import Callable

from games import registry
from games.base import GameError
from gm.core.model import GameView, ServiceError, Status, Seat
from gm.mail.inbound import Inbound
from gm.mail.rawmail import ascii_lower
from gm.present import standings
from gm.present.reports import without_footer
from functools import partial

from gm.service.outgoing import observers, reportmail, reports
from gm.service.people import draws, lobby, optin, playersettings, seats, setcommands
from gm.service.table import deadlines, games
from gm.service.context import Context
from gm.store.reportrows import ReportRow

MAX_HISTORY = 200_000  # characters of one HISTORY reply
HISTORY_TURNS = 5  # turns a bare HISTORY sends
LIST_MAX = 100  # games one LIST or SUMMARY reply shows
MAX_WITHOUT_GAME = 10  # different commands answered in one mail without a game
STATUS_WORDS = {Status.OPEN.value: "open", Status.ACTIVE.value: "running", Status.PAUSED.value: "paused",
                Status.FINISHED.value: "finished"}
PRESS_MODES = {"none": "off in this game", "white": "on; your name is shown",
               "grey": "on; your name is not shown (grey press)"}

Handler = Callable[[Context, GameView | None, object, str, Inbound], None]


def send_welcome(ctx: Context, view: GameView, player: Seat, password: str | None,
                 start_reports: reportmail.TurnMail | None = None) -> None:
    """A seat's welcome, with the mail commands (HELP's own lines) and the game's press mode;
    ``password`` None: the player has it already (from their JOIN reply).  ``start_reports``: the
    reports of the game's start, made once for every seat welcomed."""
    mode = deadlines.settings(ctx.store, view.id)["press"]
    reports.welcome(ctx, view, player, password, commands=help_lines(),
                    press=PRESS_MODES.get(mode, mode), mail=start_reports)


def general_help(ctx: Context, inbound: Inbound, empty: bool = False) -> None:
    """HELP (or an empty mail, ``empty``: said first) without a game: the format and the games
    played here."""
    body = ctx.outbox.render("help", game=None, kinds=registry.available(), commands=help_lines(),
                             press=None, empty=empty)
    ctx.outbox.reply(inbound, None, "Your mail was empty" if empty else "Help", body,
                     kind="help")  # rate-limited: needs no password


def each_once(commands: list[str], limit: int = MAX_WITHOUT_GAME) -> list[str]:
    """The commands of a mail in the order written, each once (any case, any spacing), at most
    ``limit`` of them: a mail of 500 command lines gets a reply of a few answers, not 500."""
    once: dict[str, str] = {}
    for command in commands:
        once.setdefault(" ".join(command.lower().split()), " ".join(command.split()))
    return list(once.values())[:limit]


def without_game(ctx: Context, inbound: Inbound, commands: list[str], empty: bool) -> bool:
    """Answer a mail that names no game: HELP (or an empty mail), LIST, SUMMARY, in the order
    written, each once and at most MAX_WITHOUT_GAME of them (a mail of 500 HELP lines gets one
    help); False when it holds none of them (the caller says a game is missing)."""
    wanted = [c for c in each_once(commands, len(commands))
              if c.partition(" ")[0] in ("HELP",) + NO_PASSWORD][:MAX_WITHOUT_GAME]
    if empty:
        wanted = ["HELP"]
    for command in wanted:
        word, _, args = command.partition(" ")
        if word == "HELP":
            general_help(ctx, inbound, empty)
        else:
            HANDLERS[word](ctx, None, None, args, inbound)
    return bool(wanted)


def _public_kind(player) -> str:
    """LIST and SUMMARY answer anyone: rate-limited as help, unless a password came with them."""
    return "help" if player is None else "reply"


def _list(ctx, view, player, args, inbound) -> None:
    words = args.split()
    kind = _public_kind(player)
    if len(words) > 1:
        body = ctx.outbox.error_body(None, f"LIST {args[:60]}: write LIST for every game, or "
                                     "LIST <id> for one game")
        ctx.outbox.reply(inbound, None, "List", body, kind="error")
        return
    if words:
        if lobby.is_open(ctx, words[0]):
            info = lobby.open_summary(ctx, words[0].lower())
            body = ctx.outbox.render("list", mode="open", game=info)
            ctx.outbox.reply(inbound, None, f"Game {info['id']}", body, kind=kind)
            return
        try:
            game = games.load(ctx.store, words[0])
        except ServiceError:
            body = ctx.outbox.error_body(None, f"LIST {words[0][:40]}: there is no game called "
                                         f"{words[0][:40]!r} here. Send LIST for the games here.")
            ctx.outbox.reply(inbound, None, "No such game", body, kind="error")
            return
        body = ctx.outbox.render("list", mode="game", game=public_summary(ctx, game))
        ctx.outbox.reply(inbound, None, f"Game {game.id}", body, kind=kind)
        return
    rows = ctx.store.games.newest_games(LIST_MAX)
    shown = []
    for row in rows:
        if row.status == Status.OPEN:
            info = lobby.open_summary(ctx, row.id)
            shown.append({"id": row.id, "title": info["title"], "turn": "-", "status": "open",
                          "players": info["joined"], "open": info})
            continue
        game = games.load(ctx.store, row.id)
        shown.append({"id": game.id, "title": game.rules.title, "turn": game.turn,
                      "status": STATUS_WORDS.get(game.status, game.status),
                      "players": [p.name + ("" if p.active else " (left)")
                                  for p in game.players],
                      "result": public_summary(ctx, game)["result"]})
    body = ctx.outbox.render("list", mode="list", games=shown,
                             more=ctx.store.games.game_count() - len(rows))
    ctx.outbox.reply(inbound, None, "Games", body, kind=kind)


def _summary(ctx, view, player, args, inbound) -> None:
    """The games the From address plays, then those it observes: only what LIST <id> shows, and
    whether it owes orders (the From address can be forged, so nothing more)."""
    sender = inbound.sender
    shown = []
    for game_id in ctx.store.games.game_ids_of_address(sender, LIST_MAX) if sender else []:
        own = [p for p in ctx.store.seats.players(game_id) if p.active and p.email.lower() == sender]
        settings = [playersettings.in_force(ctx, game_id, p) for p in own]
        if lobby.is_open(ctx, game_id):
            info = lobby.open_summary(ctx, game_id)
            shown.append({"id": game_id, "title": info["title"], "turn": "-", "owes": False,
                          "status": f"open, {info['free']} seat(s) still free", "to_move": [],
                          "deadline": None, "settings": settings})
            continue
        game = games.load(ctx.store, game_id)
        info = public_summary(ctx, game)
        if own:  # the deadline in the zone of the reader's seat
            info["deadline"] = deadlines.deadline_text(ctx.store, game, ctx.clock(),
                                                       deadlines.player_zone(own[0]))
        seats = {p.name for p in own}
        owes = False
        if game.status == Status.ACTIVE and not info["over"]:
            start_seq, _ = deadlines.turn_start(ctx.store, game.id)
            owes = bool(seats & set(deadlines.missing(ctx.store, game, start_seq)))
        shown.append({**info, "owes": owes, "settings": settings})
    for game_id in ctx.store.selfservice.game_ids_observed_by(sender, LIST_MAX) if sender else []:
        if not lobby.is_open(ctx, game_id):  # an open game has nothing to follow yet
            info = public_summary(ctx, games.load(ctx.store, game_id))
            shown.append({**info, "owes": False, "status": info["status"] + ", you observe it",
                          "settings": []})
    body = ctx.outbox.render("list", mode="summary", games=shown, sender=sender,
                             every_game=playersettings.for_all_games(ctx, sender) if sender else None)
    ctx.outbox.reply(inbound, None, "Your games", body, kind=_public_kind(player))


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
            "status": STATUS_WORDS.get(view.status, view.status), "over": over,
            "players": [{"name": name, "score": scores.get(name, 0), "left": name not in seated}
                        for name in rules.players(state)],
            "winners": winners,
            "result": standings.result_line(winners, rules.is_drawn(state)) if over else None,
            "to_move": deadlines.awaited(view) if view.status == Status.ACTIVE and not over else [],
            "deadline": deadlines.deadline_text(ctx.store, view, ctx.clock())}


def _help(ctx, view, player, args, inbound) -> None:
    mode = deadlines.settings(ctx.store, view.id)["press"]
    body = ctx.outbox.render("help", game=view.rules, game_id=view.id, kinds=[], commands=help_lines(),
                             press=PRESS_MODES.get(mode, mode))
    ctx.outbox.reply(inbound, view, "Help", body, kind="reply")


def _board(ctx, view, player, args, inbound) -> None:
    body, html = reports.board_reply(ctx, view, player.name)
    # Archived as a "board" reply, never as a turn report: it is this player's own view
    # (sealed orders included), and the archive's pages show turn reports only.
    ctx.outbox.reply(inbound, view, "Board", body, kind="board", archive_player=player.name, html=html)


def _history(ctx, view, player, args, inbound) -> None:
    try:
        turns = history_range(args, view.turn)
    except ValueError:
        body = ctx.outbox.error_body(view, f"HISTORY {args}: write HISTORY, HISTORY ALL, HISTORY 7 "
                                     "or HISTORY 3-5")
        ctx.outbox.reply(inbound, view, "History", body, kind="error")
        return
    body = history_for_player(ctx, view, player.name, turns)
    ctx.outbox.reply(inbound, view, "History", body, kind="reply", archive_player=player.name)


def _trail(ctx, view, player, args, inbound) -> None:
    """TRAIL [<id>]: the game's full trail table (Game.full_trail), every row.  It is public, as
    every report shows it: anyone may ask, an observer too, with no password (then it is
    rate-limited as help, like LIST <id>)."""
    words = args.split()
    if len(words) > 1 or (not words and view is None):
        body = ctx.outbox.error_body(None, f"TRAIL {args[:60]}: write TRAIL below your GAME line, "
                                     "or TRAIL <id> for the game <id>")
        ctx.outbox.reply(inbound, None, "Trail", body, kind="error")
        return
    if words and (view is None or ascii_lower(words[0]) != view.id):
        try:
            view = games.load(ctx.store, words[0])
        except ServiceError as exc:  # no such game, or one still waiting for players
            body = ctx.outbox.error_body(None, f"TRAIL {words[0][:40]}: {exc}. Send LIST for the games here.")
            ctx.outbox.reply(inbound, None, "No trail", body, kind="error")
            return
    lines = view.rules.full_trail(view.state)
    if lines is None:
        body = ctx.outbox.error_body(view, f"TRAIL: game {view.id} ({view.rules.title}) keeps no trail "
                                     "table, so there is none to send. Send BOARD for the position.")
        ctx.outbox.reply(inbound, view, "No trail", body, kind="error")
        return
    # The table goes as written, one line per row: a wrapped row would put its marks under
    # the wrong piece.
    body = ctx.outbox.render("table", game_id=view.id, turn=view.turn, lines=lines)
    ctx.outbox.reply(inbound, view, "Trail", body, kind=_public_kind(player),
                     archive_player=player.name if player is not None else None)


def _absence(ctx, view, player, args, inbound) -> None:
    now = ctx.clock()
    try:
        start, end = deadlines.parse_absence(args, now)
        lines = deadlines.declare_absence(ctx.store, view, player.name, start, end, now)
    except GameError as exc:
        body = ctx.outbox.error_body(view, f"ABSENCE {args}: {exc}")
        ctx.outbox.reply(inbound, view, "Absence not recorded", body, kind="error")
        return
    ctx.outbox.reply(inbound, view, "Absence recorded", ctx.outbox.notice_body(view, lines),
                     kind="reply", archive_player=player.name)
    others = [name for name in view.seated_names if name != player.name]
    told = [f"{player.name} will be away: {lines[0].split(': ', 1)[1]}"] + lines[1:]
    reports.notice(ctx, view, others, told, f"{player.name} away")


@dataclass(frozen=True)
class Command:
    """A mail command: what a player writes, what it does (for HELP), and who handles it."""

    usage: str
    does: str
    handler: Handler | None = None  # None: the order-mail grammar's (gm.mail.orders), or intake's (TAKEBACK)

    @property
    def word(self) -> str:
        return self.usage.split()[0]


# The one table: ``run`` dispatches from it and HELP lists it, so no command exists
# without its help line.
COMMANDS: tuple[Command, ...] = (
    Command("HELP", "the order format, with your game's notation and rulings", _help),
    Command("BOARD", "the current report again", _board),
    Command("HISTORY [ALL|N|N-M]", "the reports and press you were sent: the last "
            f"{HISTORY_TURNS} turns, ALL of them, turn N, or turns N to M", _history),
    Command("TRAIL [<id>]", "the full trail table, every row, in a game that keeps one "
            "(public: TRAIL <id> needs no password)", _trail),
    Command("ABSENCE <from> <to>", "(with your password) you are away (dates like 2025-03-07, or "
            "+3d); deadlines that fall inside move to its end", _absence),
    Command("PRESS TO <names|ALL|GM>", "a message to other players (or the game master): the "
            "lines below it, up to a line ENDPRESS"),
    Command("TURN <n>", "the turn your orders are for (replying to a report says it too): orders "
            "written for a turn that has passed are refused, with the position as it is now"),
    Command("END", "stop reading here (anything below is ignored)"),
    Command("LIST [<id>]", "the games here (no password needed, no GAME line): each with its "
            f"status, turn and players, newest first, {LIST_MAX} at most; or one game's scores, "
            "whose move and deadline", _list),
    Command("SUMMARY", "(or MY GAMES; no password needed) the games you play from this "
            "address: turn, deadline, and whether you owe orders now", _summary),
    Command("JOIN <id> <name>", "(no password needed) take a seat of an open game, e.g. JOIN nb7 "
            "ada: gm mails a code to confirm (reply to it), then your password; the game starts "
            "when its seats are taken", partial(optin.ask, "JOIN")),
    Command("LEAVE <id>", "leave an open game before it starts (with your password: GAME nb7 "
            "PASSWORD <yours>, then LEAVE); once it runs, RESIGN", lobby.leave_running),
    Command("RESIGN", "(under GAME nb7 PASSWORD ..., not by a reply address) leave this game for "
            "good; the game's rules say what becomes of your seat, the others are told", seats.resign),
    Command("CONCEDE", "the same as RESIGN: you leave the game (RULINGS G7); when one player is "
            "left of a game begun with two or more, that player wins", seats.resign),
    Command("DRAW [WITHDRAW]", "propose a draw, alone or with your orders; the others are told a "
            "draw was proposed, not by whom. It stands until the end of the next turn; the game "
            "ends drawn when every player still in has one standing (RULINGS G6). DRAW WITHDRAW "
            "takes yours back", draws.draw),
    Command("TAKEBACK [ACCEPT|DECLINE]", "ask to take back your last move until the next one is played; "
            "the others answer, alone or with orders; undone when all accept (RULINGS G9)"),
    Command("OBSERVE <id>", "(no password needed) follow a game you do not play: its reports "
            "as an observer sees them and its public press, never a sealed order; e.g. OBSERVE nb7 "
            "(once you reply to the code gm mails you)", partial(optin.ask, "OBSERVE")),
    Command("UNOBSERVE <id>", "stop following a game, e.g. UNOBSERVE nb7 (your mail program's "
            "unsubscribe does it too)",
            observers.unobserve),
    Command("PASSWORD RESET <id> [<seat>]", "(no password needed) a new password for your seat in "
            "game <id>: gm mails a code to the address the seat is registered to, and the new "
            "password goes there once that address sends the code back; every old password and "
            "reply address then stops working. E.g. PASSWORD RESET nb7",
            seats.password_reset),
    Command("CONFIRM <code>", "(no password needed, from the address the code was mailed to) "
            "confirm a JOIN, OBSERVE or CREATE, a new address (SET ADDRESS), the undoing of a change "
            "of address (the code mailed to the old one), or a PASSWORD RESET, e.g. CONFIRM "
            "k3m9pq2x7w (or reply to that mail)", partial(optin.confirm, welcome=send_welcome)),
    Command("CREATE <kind> <id> [<seats>]", "(where the game master allows it) open a game for "
            "players to JOIN, e.g. CREATE neighbors nb9 3 (once you reply to the code gm mails "
            "you)", partial(optin.ask, "CREATE")),
    Command("SET <what> <value>", "change one of your own settings in this game: those below",
            setcommands.run),
    *(Command(s.usage, s.does, setcommands.run) for s in setcommands.SETTERS),
)
HANDLERS: dict[str, Handler] = {c.word: c.handler for c in COMMANDS if c.handler is not None}
# The commands a mail without GAME/PASSWORD may hold, besides HELP.
NO_PASSWORD = ("LIST", "SUMMARY", "JOIN", "CREATE", "OBSERVE", "UNOBSERVE", "PASSWORD", "CONFIRM", "TRAIL")


def help_lines(width: int = 68) -> list[str]:
    """The commands part of HELP, from COMMANDS: usage, then what it does, wrapped to ``width``."""
    column = max(len(c.usage) for c in COMMANDS) + 2
    lines = []
    for command in COMMANDS:
        wrapped = textwrap.wrap(command.does, width - column) or [""]
        lines.append(f"{command.usage:<{column}}{wrapped[0]}")
        lines += [" " * column + more for more in wrapped[1:]]
    return lines


def run(ctx: Context, view: GameView, player, command: str, inbound: Inbound) -> None:
    """Dispatch one command line (``ABSENCE <from> <to>`` carries its arguments)."""
    word, _, args = command.partition(" ")
    handler = HANDLERS.get(word.upper())
    if handler is not None:
        handler(ctx, view, player, args.strip(), inbound)


def history_range(args: str, current: int) -> tuple[int, int]:
    """The turns (first, last) a HISTORY line asks for; ValueError if it is not one of the forms."""
    words = args.upper().split()
    if not words:
        return max(1, current - HISTORY_TURNS + 1), current
    if words == ["ALL"]:
        return 1, current
    first, sep, last = words[0].partition("-")
    if len(words) != 1 or not first.isdecimal() or (sep and not last.isdecimal()):
        raise ValueError(args)
    return int(first), int(last) if sep else int(first)


def history_for_player(ctx: Context, view: GameView, name: str,
                       turns: tuple[int, int] | None = None) -> str:
    """What this player was sent, turn by turn: reports (latest per turn) and press."""
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
    parts = [f"History of game {view.id} ({view.rules.title}) as sent to {name}, "
             + (f"turn {first}" if first == last else f"turns {first} to {last}"), ""]
    if shown and shown[0] > 1:
        parts += [f"(Earlier turns: send HISTORY ALL, or HISTORY 1-{shown[0] - 1}.)", ""]
    for turn in shown:
        parts.append(f"===== Turn {turn} =====")
        if turn in latest:
            parts.append(without_footer(latest[turn].body).rstrip())  # one footer: the reply's
        for row in press.get(turn, []):
            parts += ["", row.body.rstrip()]
        parts.append("")
    text = "\n".join(parts) + "\n"
    if len(text) > MAX_HISTORY:
        text = "(earlier turns left out: the history is long)\n\n" + text[-MAX_HISTORY:]
    return text
