"""SET FORMAT, SET TIMEZONE and SET CALENDAR: a player's own report format, time zone and
deadlines as calendar events, in one game or, with ALL after the value, in every game of the
seat's address and the games it takes a seat in later.

The value of one game is stored on the seat (players.format, .timezone, .calendar);
ALL stores it for the address too (address_settings), and every seat of that
address takes it, now and when it is created (gm.store.games.add_player,
replace_seat).  All in the transaction of the mail that asks; a bad value gets
one reply saying what to write and changes nothing.
gm.service.outgoing.reportmail reads the format, gm.service.table.deadlines.player_zone the zone,
gm.service.outgoing.calendar the calendar setting.
"""

from __future__ import annotations

from games.base import OptionError
from gm.core import times
from gm.core.model import GameView, Seat
from gm.mail.inbound import Inbound
from gm.service.outgoing import calendar
from gm.service.table import deadlines
from gm.service.context import Context

FORMAT_WORDS = {"TEXT": "text", "HTML": "html"}
FORMAT_DONE = {"text": "Your reports {where} now come as plain text only.",
               "html": "Your reports {where} now come as text and as a page with the board picture "
                       "(your mail program shows the one it prefers)."}
ALL = "ALL"
FORMAT_SHOWN = {"text": "plain text", "html": "text and HTML"}


def value_and_scope(value: str) -> tuple[str, bool]:
    """(the value, whether it is for every game): ``TEXT ALL`` -> ("TEXT", True)."""
    words = value.split()
    if len(words) > 1 and words[-1].upper() == ALL:
        return " ".join(words[:-1]), True
    return value, False


def where(player: Seat, every: bool, games: list[str] = ()) -> str:
    """Which games a change reaches, as the reply says it."""
    if not every:
        return "in this game"
    return (f"in every game of {player.email} ({', '.join(games)}) and in the games it joins "
            "later")


def save(ctx: Context, view: GameView, player: Seat, column: str, value: str, every: bool) -> list[str]:
    """Store one setting, for this seat or (``every``) for its address; the games it changed."""
    if every:
        ctx.store.locks.lock_addresses(player.email)  # the sender's, locked already, unless by a reply address
        games = ctx.store.seats.set_address_setting(player.email, column, value, ctx.clock())
    else:
        games = [view.id]
        if column == "format":
            ctx.store.seats.set_player_format(view.id, player.name, value)
        elif column == "calendar":
            ctx.store.seats.set_player_calendar(view.id, player.name, value)
        else:
            ctx.store.seats.set_player_timezone(view.id, player.name, value)
    ctx.store.history.log(view.id, view.turn, player.name, "set",
                          f"{column} {value}" + (f" ALL (games {', '.join(games)})" if every else ""), ctx.clock())
    return games


def set_format(ctx: Context, view: GameView, player: Seat, value: str, inbound: Inbound) -> None:
    """SET FORMAT TEXT|HTML [ALL]."""
    value, every = value_and_scope(value)
    fmt = FORMAT_WORDS.get(value.upper())
    if fmt is None:
        body = ctx.outbox.error_body(view, f"SET FORMAT {value[:40]}: write SET FORMAT TEXT (plain text "
                                     "only) or SET FORMAT HTML (text and a page with the picture); "
                                     "add ALL for every game you play, e.g. SET FORMAT TEXT ALL.")
        ctx.outbox.reply(inbound, view, "Format not set", body, kind="error")
        return
    games = save(ctx, view, player, "format", fmt, every)
    done = FORMAT_DONE[fmt].format(where=where(player, every, games))
    ctx.outbox.reply(inbound, view, "Format set", ctx.outbox.notice_body(view, [done]),
                     kind="reply", archive_player=player.name)


def set_timezone(ctx: Context, view: GameView, player: Seat, value: str, inbound: Inbound) -> None:
    """SET TIMEZONE <IANA name> [ALL]: deadlines and dates shown in that zone, with UTC beside them."""
    value, every = value_and_scope(value)
    try:
        name = times.zone_name(value)
    except OptionError as exc:
        body = ctx.outbox.error_body(view, f"SET TIMEZONE {value[:64]}: {exc}")
        ctx.outbox.reply(inbound, view, "Time zone not set", body, kind="error")
        return
    games = save(ctx, view, player, "timezone", name, every)
    zone = times.zone(name)
    now = ctx.clock()
    lines = [f"Your time zone {where(player, every, games)} is now {name}: it is "
             f"{times.format_stamp(now, zone)}."]
    deadline = deadlines.deadline_text(ctx.store, view, now, zone)
    lines.append(f"Deadline: {deadline}." if deadline else "This turn has no deadline.")
    ctx.outbox.reply(inbound, view, "Time zone set", ctx.outbox.notice_body(view, lines),
                     kind="reply", archive_player=player.name)


CALENDAR_WORDS = {"ON": "on", "OFF": "off"}
CALENDAR_DONE = {"on": "Your reports {where} now carry the deadline as a calendar event (a .ics file "
                       "your mail program offers to add; updated when it moves, removed when your turn "
                       "ends); this mail carries this game's, if you are to move.",
                 "off": "Your reports {where} now carry no calendar event; this mail takes this game's "
                        "out of your calendar, if it was there."}
CALENDAR_SHOWN = "deadlines in your calendar"


def set_calendar(ctx: Context, view: GameView, player: Seat, value: str, inbound: Inbound) -> None:
    """SET CALENDAR ON|OFF [ALL]: each report that puts the seat to move carries its deadline as
    a calendar event (gm.service.outgoing.calendar)."""
    value, every = value_and_scope(value)
    setting = CALENDAR_WORDS.get(value.upper())
    if setting is None:
        body = ctx.outbox.error_body(view, f"SET CALENDAR {value[:40]}: write SET CALENDAR ON (your "
                                     "deadlines as calendar events) or SET CALENDAR OFF; add ALL for "
                                     "every game you play, e.g. SET CALENDAR ON ALL.")
        ctx.outbox.reply(inbound, view, "Calendar not set", body, kind="error")
        return
    games = save(ctx, view, player, "calendar", setting, every)
    done = CALENDAR_DONE[setting].format(where=where(player, every, games))
    ctx.outbox.reply(inbound, view, "Calendar set", ctx.outbox.notice_body(view, [done]), kind="reply",
                     archive_player=player.name, calendar=calendar.set_now(ctx, view, player, setting == "on"))


def in_force(ctx: Context, game_id: str, player: Seat) -> str:
    """MY GAMES: the format and time zone a seat's mail comes in, and where each comes from, and
    whether it carries the deadlines as calendar events."""
    own = player.format
    fmt = own or deadlines.settings(ctx.store, game_id)["format"]
    source = "" if own else " (the game's)"
    events = f", {CALENDAR_SHOWN}" if player.calendar == "on" else ""
    return f"{FORMAT_SHOWN.get(fmt, fmt)}{source}, times in {player.timezone or 'UTC'}{events}"


def for_all_games(ctx: Context, address: str) -> str | None:
    """MY GAMES: what SET ... ALL set for ``address`` (None: nothing)."""
    row = ctx.store.seats.address_settings(address)
    if row is None:
        return None
    shown = ([f"{FORMAT_SHOWN[row.format]}"] if row.format else []) + \
        ([f"times in {row.timezone}"] if row.timezone else []) + \
        ([CALENDAR_SHOWN if row.calendar == "on" else "no calendar"] if row.calendar else [])
    return ", ".join(shown) or None
