"""SET FORMAT, SET TIMEZONE, SET CALENDAR, SET LANGUAGE and SET MAIL: a player's own report
format, time zone, deadlines as calendar events, language and how often they are mailed, in one
game or, with ALL after the value, in every game of the seat's address and the games it takes a
seat in later.

The value of one game is stored on the seat (players.format, .timezone, .calendar, .language);
ALL stores it for the address too (address_settings), and every seat of that address takes it,
now and when it is created (gm.store.games.add_player, replace_seat).  All in the transaction
of the mail that asks; a bad value gets one reply saying what to write and changes nothing.
gm.service.outgoing.reportmail reads the format and language, gm.service.table.deadlines.player_zone
the zone, gm.service.outgoing.calendar the calendar setting, gm.service.outgoing.pace the pace.
"""

from __future__ import annotations

from games.base import OptionError
from games.text import Text, mark
from gm.core import times
from gm.core.i18n import NAMES, language_code
from gm.core.model import GameView, Seat
from gm.mail.inbound import Inbound
from gm.service.outgoing import calendar, pace
from gm.service.table import deadlines
from gm.service.context import Context

FORMAT_WORDS = {"TEXT": "text", "HTML": "html", "ACCESSIBLE": "accessible"}
FORMAT_DONE = {"text": mark("Your reports {where} now come as plain text only."),
               "html": mark("Your reports {where} now come as text and as a page with the board picture "
                            "(your mail program shows the one it prefers)."),
               "accessible": mark("Your reports {where} now describe the board in words a screen reader "
                                  "can follow (each piece by its cell, grouped by owner, then what "
                                  "changed), with a page that has the board as a table.")}
ALL = "ALL"
FORMAT_SHOWN = {"text": mark("plain text"), "html": mark("text and HTML"),
                "accessible": mark("the board in words, for a screen reader")}


def value_and_scope(value: str) -> tuple[str, bool]:
    """(the value, whether it is for every game): ``TEXT ALL`` -> ("TEXT", True)."""
    words = value.split()
    if len(words) > 1 and words[-1].upper() == ALL:
        return " ".join(words[:-1]), True
    return value, False


def where(player: Seat, every: bool, games: list[str] = ()) -> Text:
    """Which games a change reaches, as the reply says it."""
    if not every:
        return Text("in this game")
    return Text("in every game of {address} ({games}) and in the games it joins later",
                address=player.email, games=", ".join(games))


def save(ctx: Context, view: GameView, player: Seat, column: str, value: str, every: bool) -> list[str]:
    """Store one setting, for this seat or (``every``) for its address; the games it changed."""
    if every:
        ctx.store.locks.lock_addresses(player.email)  # the sender's, locked already, unless by a reply address
        games = ctx.store.seats.set_address_setting(player.email, column, value, ctx.clock())
    else:
        games = [view.id]
        setter = {"format": ctx.store.seats.set_player_format, "calendar": ctx.store.seats.set_player_calendar,
                  "language": ctx.store.seats.set_player_language}.get(column, ctx.store.seats.set_player_timezone)
        setter(view.id, player.name, value)
    ctx.store.history.log(view.id, view.turn, player.name, "set",
                          f"{column} {value}" + (f" ALL (games {', '.join(games)})" if every else ""), ctx.clock())
    return games


def set_format(ctx: Context, view: GameView, player: Seat, value: str, inbound: Inbound) -> None:
    """SET FORMAT TEXT|HTML|ACCESSIBLE [ALL]."""
    value, every = value_and_scope(value)
    fmt = FORMAT_WORDS.get(value.upper())
    if fmt is None:
        body = ctx.outbox.error_body(view, Text(
            "SET FORMAT {value}: write SET FORMAT TEXT (plain text only), SET FORMAT HTML (text and a "
            "page with the picture) or SET FORMAT ACCESSIBLE (the board described for a screen "
            "reader); add ALL for every game you play, e.g. SET FORMAT TEXT ALL.", value=value[:40]))
        ctx.outbox.reply(inbound, view, Text("Format not set"), body, kind="error")
        return
    games = save(ctx, view, player, "format", fmt, every)
    done = Text(FORMAT_DONE[fmt], where=where(player, every, games))
    ctx.outbox.reply(inbound, view, Text("Format set"), ctx.outbox.notice_body(view, [done]),
                     kind="reply", archive_player=player.name)


def set_timezone(ctx: Context, view: GameView, player: Seat, value: str, inbound: Inbound) -> None:
    """SET TIMEZONE <IANA name> [ALL]: deadlines and dates shown in that zone, with UTC beside them."""
    value, every = value_and_scope(value)
    try:
        name = times.zone_name(value)
    except OptionError as exc:
        body = ctx.outbox.error_body(view, Text("SET TIMEZONE {value}: {problem}", value=value[:64],
                                                problem=exc.args[0] if len(exc.args) == 1 else str(exc)))
        ctx.outbox.reply(inbound, view, Text("Time zone not set"), body, kind="error")
        return
    games = save(ctx, view, player, "timezone", name, every)
    zone = times.zone(name)
    now = ctx.clock()
    language = ctx.outbox.answer_language(view)
    lines = [Text("Your time zone {where} is now {zone}: it is {now}.", where=where(player, every, games),
                  zone=name, now=times.format_stamp(now, zone, language))]
    deadline = deadlines.deadline_text(ctx.store, view, now, zone, language)
    lines.append(Text("Deadline: {deadline}.", deadline=deadline) if deadline else Text("This turn has no deadline."))
    ctx.outbox.reply(inbound, view, Text("Time zone set"), ctx.outbox.notice_body(view, lines),
                     kind="reply", archive_player=player.name)


CALENDAR_WORDS = {"ON": "on", "OFF": "off"}
CALENDAR_DONE = {"on": mark("Your reports {where} now carry the deadline as a calendar event (a .ics file "
                            "your mail program offers to add; updated when it moves, removed when your turn "
                            "ends); this mail carries this game's, if you are to move."),
                 "off": mark("Your reports {where} now carry no calendar event; this mail takes this game's "
                             "out of your calendar, if it was there.")}


def set_calendar(ctx: Context, view: GameView, player: Seat, value: str, inbound: Inbound) -> None:
    """SET CALENDAR ON|OFF [ALL]: each report that puts the seat to move carries its deadline as
    a calendar event (gm.service.outgoing.calendar)."""
    value, every = value_and_scope(value)
    setting = CALENDAR_WORDS.get(value.upper())
    if setting is None:
        body = ctx.outbox.error_body(view, Text(
            "SET CALENDAR {value}: write SET CALENDAR ON (your deadlines as calendar events) or SET "
            "CALENDAR OFF; add ALL for every game you play, e.g. SET CALENDAR ON ALL.", value=value[:40]))
        ctx.outbox.reply(inbound, view, Text("Calendar not set"), body, kind="error")
        return
    games = save(ctx, view, player, "calendar", setting, every)
    done = Text(CALENDAR_DONE[setting], where=where(player, every, games))
    ctx.outbox.reply(inbound, view, Text("Calendar set"), ctx.outbox.notice_body(view, [done]), kind="reply",
                     archive_player=player.name, calendar=calendar.set_now(ctx, view, player, setting == "on"))


def set_language(ctx: Context, view: GameView, player: Seat, value: str, inbound: Inbound) -> None:
    """SET LANGUAGE EN|DE|FR [ALL] (or the language's name: English, Deutsch, Français): the seat's
    mail, or with ALL every seat's of the address, in that language; this reply already is."""
    value, every = value_and_scope(value)
    code = language_code(value) if value.strip() else None
    if code is None:
        body = ctx.outbox.error_body(view, Text(
            "SET LANGUAGE {value}: write SET LANGUAGE EN (English), SET LANGUAGE DE (Deutsch) or SET "
            "LANGUAGE FR (Français); add ALL for every game you play, e.g. SET LANGUAGE DE ALL.",
            value=value[:40]))
        ctx.outbox.reply(inbound, view, Text("Language not set"), body, kind="error")
        return
    games = save(ctx, view, player, "language", code, every)
    if ctx.outbox.replying_to(inbound):
        ctx.outbox.language = code  # the whole reply to this mail, its subject and footer too
    done = Text("Your mail {where} is now written in {language}.", where=where(player, every, games),
                language=NAMES[code])
    ctx.outbox.reply(inbound, view, Text("Language set"), ctx.outbox.notice_body(view, [done], code),
                     kind="reply", archive_player=player.name)


def shown_format(fmt: str) -> Text | str:
    """A format as MY GAMES says it."""
    return Text(FORMAT_SHOWN[fmt]) if fmt in FORMAT_SHOWN else fmt


def listed(items: list) -> Text | str:
    """Settings as one list, its commas part of a Text (each item said in the reader's language)."""
    if len(items) <= 1:
        return items[0] if items else ""
    return Text("{first}, {rest}", first=items[0], rest=listed(items[1:]))


def in_force(ctx: Context, game_id: str, player: Seat) -> Text:
    """MY GAMES: the format and time zone a seat's mail comes in, and where each comes from,
    whether it carries the deadlines as calendar events, and its language when set."""
    own = player.format
    fmt = own or deadlines.settings(ctx.store, game_id)["format"]
    shown = shown_format(fmt) if own else Text("{format} (the game's)", format=shown_format(fmt))
    zone = player.timezone or "UTC"
    said = (Text("{format}, times in {zone}, deadlines in your calendar", format=shown, zone=zone)
            if player.calendar == "on" else Text("{format}, times in {zone}", format=shown, zone=zone))
    if player.language in NAMES:
        return Text("{settings}, mail in {language}", settings=said, language=NAMES[player.language])
    return said


def for_all_games(ctx: Context, address: str) -> Text | str | None:
    """MY GAMES: what SET ... ALL set for ``address`` (None: nothing)."""
    row = ctx.store.seats.address_settings(address)
    mode, at = ctx.store.pace.address_pace(address)
    shown = ([shown_format(row.format)] if row and row.format else []) + \
        ([Text("times in {zone}", zone=row.timezone)] if row and row.timezone else []) + \
        ([Text("deadlines in your calendar") if row.calendar == "on" else Text("no calendar")]
         if row and row.calendar else []) + \
        ([Text("mail in {language}", language=NAMES[row.language])] if row and row.language in NAMES else []) + \
        ([pace.shown(mode, at)] if mode else [])
    return listed(shown) or None


def set_mail(ctx: Context, view: GameView, player: Seat, value: str, inbound: Inbound) -> None:
    """SET MAIL EACH|MYTURN|DAILY [HH:MM] [ALL]: how often this seat (or, with ALL, every seat of
    the address) is mailed; what was held for it comes at the next tick when it reads EACH again."""
    value, every = value_and_scope(value)
    try:
        mode, at = pace.parse_setting(value)
    except ValueError as exc:
        body = ctx.outbox.error_body(view, Text("SET MAIL {value}: {problem}; add ALL for every game you "
                                                "play, e.g. SET MAIL DAILY 07:30 ALL.", value=value[:40],
                                                problem=exc.args[0] if len(exc.args) == 1 else str(exc)))
        ctx.outbox.reply(inbound, view, Text("Mail not set"), body, kind="error")
        return
    games = save_pace(ctx, view, player, mode, at, every)
    lines = [Text("Your mail {where} now comes: {pace}.", where=where(player, every, games), pace=pace.shown(mode, at)),
             Text("Your turn, the end of a game, reminders and anything that asks you something "
                  "always come at once.")]
    ctx.outbox.reply(inbound, view, Text("Mail set"), ctx.outbox.notice_body(view, lines),
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
