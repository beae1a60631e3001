"""SET FORMAT and SET TIMEZONE: a player's own report format and time zone in one game.

Both are stored on the player's seat (players.format, players.timezone) in the
transaction of the mail that asks; a bad value gets one reply saying what to
write and changes nothing.  gm.service.outgoing.reportmail reads the format,
gm.service.table.deadlines.player_zone the zone.
"""

from __future__ import annotations

from games.base import OptionError
from gm.core import times
from gm.core.model import GameView
from gm.mail.inbound import Inbound
from gm.service.table import deadlines
from gm.service.context import Context

FORMAT_WORDS = {"TEXT": "text", "HTML": "html"}
FORMAT_DONE = {"text": "Your reports in this game now come as plain text only.",
               "html": "Your reports in this game now come as text and as a page with the board picture "
                       "(your mail program shows the one it prefers)."}


def set_format(ctx: Context, view: GameView, player, value: str, inbound: Inbound) -> None:
    """SET FORMAT TEXT|HTML."""
    fmt = FORMAT_WORDS.get(value.upper())
    if fmt is None:
        body = ctx.outbox.error_body(view, f"SET FORMAT {value[:40]}: write SET FORMAT TEXT (plain text "
                                     "only) or SET FORMAT HTML (text and a page with the picture).")
        ctx.outbox.reply(inbound, view, "Format not set", body, kind="error")
        return
    ctx.store.set_player_format(view.id, player["name"], fmt)
    ctx.store.log(view.id, view.turn, player["name"], "set", f"format {fmt}", ctx.clock())
    ctx.outbox.reply(inbound, view, "Format set", ctx.outbox.notice_body(view, [FORMAT_DONE[fmt]]),
                     kind="reply", archive_player=player["name"])


def set_timezone(ctx: Context, view: GameView, player, value: str, inbound: Inbound) -> None:
    """SET TIMEZONE <IANA name>: deadlines and dates shown in that zone, with UTC beside them."""
    try:
        name = times.zone_name(value)
    except OptionError as exc:
        body = ctx.outbox.error_body(view, f"SET TIMEZONE {value[:64]}: {exc}")
        ctx.outbox.reply(inbound, view, "Time zone not set", body, kind="error")
        return
    ctx.store.set_player_timezone(view.id, player["name"], name)
    ctx.store.log(view.id, view.turn, player["name"], "set", f"timezone {name}", ctx.clock())
    zone = times.zone(name)
    now = ctx.clock()
    lines = [f"Your time zone in this game is now {name}: it is {times.format_stamp(now, zone)}."]
    deadline = deadlines.deadline_text(ctx.store, view, now, zone)
    lines.append(f"Deadline: {deadline}." if deadline else "This turn has no deadline.")
    ctx.outbox.reply(inbound, view, "Time zone set", ctx.outbox.notice_body(view, lines),
                     kind="reply", archive_player=player["name"])
