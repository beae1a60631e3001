"""The mail commands a player may put on a line of their own: HELP, BOARD, HISTORY, ABSENCE.

One handler per command, in a table; ``run`` dispatches a command line.
"""

from __future__ import annotations

from typing import Callable

from games import registry
from games.base import GameError
from gm.core.model import GameView
from gm.mail.inbound import Inbound
from gm.service import deadlines, reports
from gm.service.context import Context

MAX_HISTORY = 200_000

Handler = Callable[[Context, GameView, object, str, Inbound], None]


def general_help(ctx: Context, inbound: Inbound) -> None:
    """HELP (or an empty mail) without a game: the format and the games played here."""
    body = ctx.outbox.render("help", game=None, kinds=registry.available())
    ctx.outbox.reply(inbound, None, "Help", body, kind="help")  # rate-limited: needs no password


def _help(ctx, view, player, args, inbound) -> None:
    body = ctx.outbox.render("help", game=view.rules, game_id=view.id, kinds=[])
    ctx.outbox.reply(inbound, view, "Help", body, kind="reply")


def _board(ctx, view, player, args, inbound) -> None:
    body = reports.report_body(ctx, view, player["name"], [])
    # Archived as a "board" reply, never as a turn report: it is this player's own view
    # (sealed orders included), and the archive's pages show turn reports only.
    ctx.outbox.reply(inbound, view, "Board", body, kind="board", archive_player=player["name"])


def _history(ctx, view, player, args, inbound) -> None:
    body = history_for_player(ctx, view, player["name"])
    ctx.outbox.reply(inbound, view, "History", body, kind="reply", archive_player=player["name"])


def _absence(ctx, view, player, args, inbound) -> None:
    now = ctx.clock()
    try:
        start, end = deadlines.parse_absence(args, now)
        lines = deadlines.declare_absence(ctx.store, view, player["name"], start, end, now)
    except GameError as exc:
        body = ctx.outbox.error_body(view, f"ABSENCE {args}: {exc}")
        ctx.outbox.reply(inbound, view, "Absence not recorded", body, kind="error")
        return
    ctx.outbox.reply(inbound, view, "Absence recorded", ctx.outbox.notice_body(view, lines),
                     kind="reply", archive_player=player["name"])
    others = [name for name in view.seated_names if name != player["name"]]
    told = [f"{player['name']} will be away: {lines[0].split(': ', 1)[1]}"] + lines[1:]
    reports.notice(ctx, view, others, told, f"{player['name']} away")


HANDLERS: dict[str, Handler] = {
    "HELP": _help,
    "BOARD": _board,
    "HISTORY": _history,
    "ABSENCE": _absence,
}


def run(ctx: Context, view: GameView, player, command: str, inbound: Inbound) -> None:
    """Dispatch one command line (``ABSENCE <from> <to>`` carries its arguments)."""
    word, _, args = command.partition(" ")
    handler = HANDLERS.get(word.upper())
    if handler is not None:
        handler(ctx, view, player, args.strip(), inbound)


def history_for_player(ctx: Context, view: GameView, name: str) -> str:
    """Everything this player was sent, turn by turn: reports (latest per turn) and press."""
    rows = ctx.store.player_reports(view.id, name)
    latest: dict[int, object] = {}
    press: dict[int, list] = {}
    for row in rows:
        if row["kind"] == "report":
            latest[row["turn"]] = row
        else:
            press.setdefault(row["turn"], []).append(row)
    parts = [f"History of game {view.id} ({view.rules.title}) as sent to {name}", ""]
    for turn in sorted(set(latest) | set(press)):
        parts.append(f"===== Turn {turn} =====")
        if turn in latest:
            parts.append(latest[turn]["body"].rstrip())
        for row in press.get(turn, []):
            parts += ["", row["body"].rstrip()]
        parts.append("")
    text = "\n".join(parts) + "\n"
    if len(text) > MAX_HISTORY:
        text = "(earlier turns left out: the history is long)\n\n" + text[-MAX_HISTORY:]
    return text
