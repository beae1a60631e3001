"""SET FORMAT, SET TIMEZONE, SET CALENDAR and SET MAIL: a player's own report format, time zone,
deadlines as calendar events and how often they are mailed, in one game or, with ALL after the
value, in every game of the seat's address and the games it takes a seat in later.

The value of one game is stored on the seat (players.format, .timezone, .calendar);
ALL stores it for the address too (address_settings), and every seat of that
address takes it, now and when it is created (gm.store.games.add_player,
replace_seat).  All in the transaction of the mail that asks; a bad value gets
one reply saying what to write and changes nothing.
gm.service.outgoing.reportmail reads the format, gm.service.table.deadlines.player_zone the zone,
gm.service.outgoing.calendar the calendar setting, gm.service.outgoing.pace the pace.
"""

from __future__ import annotations

from games.base import OptionError
from gm.core import times
from gm.core.model import GameView, Seat
from gm.mail.inbound import Inbound
from gm.service.outgoing import calendar, pace
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
    mode, at = ctx.store.pace.address_pace(address)
    shown = ([f"{FORMAT_SHOWN[row.format]}"] if row and row.format else []) + \
        ([f"times in {row.timezone}"] if row and row.timezone else []) + \
        ([CALENDAR_SHOWN if row.calendar == "on" else "no calendar"] if row and row.calendar else []) + \
        ([pace.shown(mode, at)] if mode else [])
    return ", ".join(shown) or None


def set_mail(ctx: Context, view: GameView, player: Seat, value: str, inbound: Inbound) -> None:
    """SET MAIL EACH|MYTURN|DAILY [HH:MM] [ALL]: how often this seat (or, with ALL, every seat of
    the address) is mailed; what was held for it comes at the next tick when it reads EACH again."""
    value, every = value_and_scope(value)
    try:
        mode, at = pace.parse_setting(value)
    except ValueError as exc:
        body = ctx.outbox.error_body(view, f"SET MAIL {value[:40]}: {exc}; add ALL for every game "
                                     "you play, e.g. SET MAIL DAILY 07:30 ALL.")
        ctx.outbox.reply(inbound, view, "Mail not set", body, kind="error")
        return
    games = save_pace(ctx, view, player, mode, at, every)
    lines = [f"Your mail {where(player, every, games)} now comes: {pace.shown(mode, at)}.",
             "Your turn, the end of a game, reminders and anything that asks you something "
             "always come at once."]
    ctx.outbox.reply(inbound, view, "Mail set", ctx.outbox.notice_body(view, lines),
                     kind="reply", archive_player=player.name)


def save_pace(ctx: Context, view: GameView, player: Seat, mode: str, at: int | None,
              every: bool) -> list[str]:
    """Store a pace for this seat or (``every``) its address; the games it changed.  A reader back
    to EACH gets what was held for them in a digest at the next tick."""
    stored = None if mode == pace.EACH else mode
    if every:
        ctx.store.locks.lock_addresses(player.email)
        games = ctx.store.pace.set_address_pace(player.email, stored, at)
    else:
        games = [view.id]
        ctx.store.pace.set_pace(view.id, player.name, stored, at)
    if mode == pace.EACH:
        pace.release_soon(ctx, player.email)
    ctx.store.history.log(view.id, view.turn, player.name, "set", f"mail {mode}"
                          + (f" {at // 60:02d}:{at % 60:02d}" if at is not None else "")
                          + (f" ALL (games {', '.join(games)})" if every else ""), ctx.clock())
    return games


def pace_in_force(ctx: Context, game_id: str, player: Seat) -> str:
    """MY GAMES: how often a seat is mailed."""
    mode, at = pace.pace_of(ctx, game_id, player.name)
    return pace.shown(mode, at)
