"""Times and durations as the GM and players type and read them, in UTC or a player's time zone.

Durations: ``72h``, ``3d``, ``1d12h``, ``90m``, ``3600`` (seconds).  Moments
(WHEN_FORMS): ``+48h`` (from now), ``tomorrow 18:00``, a weekday and time
``fri 18:00`` (or alone, ``friday``), or a date ``2025-03-07 18:00``.
Everything typed is UTC; a player who set a time zone (SET TIMEZONE, an IANA
name read with zoneinfo and the tzdata package) reads times as
``Tue 24 Nov 18:00 CET (17:00 UTC)``.  Pure functions; the clock is always
passed in.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from functools import lru_cache
from typing import TYPE_CHECKING

from games.base import OptionError, duration_seconds
from games.text import Plural, Text, mark

if TYPE_CHECKING:  # zoneinfo (and the tz search path it reads) loads where a zone is named
    from zoneinfo import ZoneInfo

WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]


def parse_duration(text: str) -> float:
    """``72h``, ``3d``, ``1d12h``, ``90m``, ``3600`` (seconds) -> seconds."""
    try:
        return duration_seconds(text)
    except ValueError:
        raise OptionError(Text("{text} is not a duration like 72h, 3d, 1d12h or 90m", text=repr(text))) from None


def _clock_time(text: str) -> tuple[int, int] | None:
    """``18:00`` -> (18, 0); anything else -> None."""
    hour, sep, minute = text.partition(":")
    if not sep or not (1 <= len(hour) <= 2 and len(minute) == 2) \
            or not (hour.isascii() and hour.isdigit() and minute.isascii() and minute.isdigit()):
        return None
    return int(hour), int(minute)


def is_clock_time(text: str) -> bool:
    return _clock_time(text) is not None


def parse_weekly(text: str) -> tuple[int, int, int] | None:
    """``fri 18:00`` (any spelling that starts with the day's three letters) -> (4, 18, 0)."""
    words = str(text).split()
    if len(words) != 2 or not words[0].isalpha():
        return None
    day_word = words[0].lower()
    day = next((i for i, name in enumerate(WEEKDAYS) if day_word.startswith(name)), None)
    clock = _clock_time(words[1])
    if day is None or clock is None:
        return None
    hour, minute = clock
    if hour > 23 or minute > 59:
        raise OptionError(Text("{text}: no such time of day", text=repr(text)))
    return day, hour, minute


def next_weekly(after: float, day: int, hour: int, minute: int) -> float:
    """The first moment strictly after ``after`` that is ``day`` at hour:minute UTC."""
    start = datetime.fromtimestamp(after, timezone.utc)
    candidate = start.replace(hour=hour, minute=minute, second=0, microsecond=0)
    candidate += timedelta(days=(day - start.weekday()) % 7)
    if candidate.timestamp() <= after:
        candidate += timedelta(days=7)
    return candidate.timestamp()


def parse_date(text: str) -> float:
    """An absolute UTC date: ``2025-03-07``, ``2025-03-07 18:00``, ISO 8601."""
    raw = str(text).strip().removesuffix(" UTC").replace("T", " ").rstrip("Z").strip()
    for fmt in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d"):
        try:
            return datetime.strptime(raw, fmt).replace(tzinfo=timezone.utc).timestamp()
        except ValueError:
            continue
    try:  # ISO 8601 with an offset: 2026-12-01T18:00+01:00
        moment = datetime.fromisoformat(str(text).strip()[:40])
    except ValueError:
        moment = None
    if moment is not None and moment.tzinfo is not None:
        return moment.timestamp()
    raise OptionError(Text("{text} is not a date like 2025-03-07 18:00 (UTC)", text=repr(text)))


def is_bare_date(text: str) -> bool:
    """``2025-03-07`` and nothing else."""
    try:
        datetime.strptime(text, "%Y-%m-%d")
    except ValueError:
        return False
    return len(text) == 10


WHEN_FORMS = mark("+48h (from now), tomorrow 18:00, fri 18:00, tomorrow or friday alone (at this time of day), "
                  "2026-12-01 18:00 or ISO 8601 2026-12-01T18:00; times in UTC")


def parse_when(text: str, now: float) -> float:
    """A moment the GM or a player types, in UTC (WHEN_FORMS): ``+48h`` (from now), ``tomorrow 18:00``,
    ``today 18:00``, ``fri 18:00``, a day alone (``tomorrow``, ``friday``: at this time of day),
    or a date ``2026-12-01 18:00`` (ISO 8601 too).  OptionError naming every form."""
    raw = str(text).strip()
    try:
        if raw.startswith("+"):
            return now + parse_duration(raw[1:])
        words = raw.split()
        if not words or len(words) > 2 or not words[0].isalpha():
            return parse_date(raw)
        day_word = words[0].lower()
        day = next((i for i, name in enumerate(WEEKDAYS) if day_word.startswith(name)), None)
        if day is None and day_word not in ("today", "tomorrow"):
            return parse_date(raw)
        here = datetime.fromtimestamp(now, timezone.utc)
        clock = _clock_time(words[1]) if len(words) == 2 else (here.hour, here.minute)
        if clock is None or clock[0] > 23 or clock[1] > 59:
            raise OptionError(Text("{text} is not a time of day", text=repr(words[1])))
        if day is not None:
            return next_weekly(now, day, *clock)
        midnight = here.replace(hour=0, minute=0, second=0, microsecond=0)
        return (midnight + timedelta(days=day_word == "tomorrow", hours=clock[0], minutes=clock[1])).timestamp()
    except OptionError:
        raise OptionError(Text("{text} is not a moment gm reads: write {forms}", text=repr(raw[:64]),
                               forms=Text(WHEN_FORMS))) from None


def check_period(text: str) -> str:
    """A turn deadline option: a positive duration or a weekly time."""
    if parse_weekly(text) is None:
        if parse_duration(text) <= 0:
            raise OptionError(Text("option deadline: must be more than zero"))
    return str(text).strip()


def due_after(period: str, start: float) -> float:
    """The deadline of a turn that opened at ``start`` under the option ``period``."""
    weekly = parse_weekly(period)
    if weekly:
        return next_weekly(start, *weekly)
    return start + parse_duration(period)


def format_span(seconds: float, language: str = "en") -> str:
    """``2 days 4 hours``, ``35 minutes``, ``less than a minute``; in German ``2 Tage 4 Stunden``."""
    seconds = int(abs(seconds))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts: list[Text] = []
    if days:
        parts.append(Plural("{n} day", "{n} days", n=days))
    if hours:
        parts.append(Plural("{n} hour", "{n} hours", n=hours))
    if not days and minutes:
        parts.append(Plural("{n} minute", "{n} minutes", n=minutes))
    return " ".join(said(part, language) for part in parts) or said(Text("less than a minute"), language)


def said(text: Text, language: str) -> str:
    """``text`` in ``language`` (English: as it is, and no catalogue loaded)."""
    if language == "en":
        return str.__str__(text)
    from gm.core.i18n import translate

    return str(translate(text, language))


ZONE_HELP = mark("Write an IANA time zone name, such as Europe/Berlin, America/New_York, Asia/Tokyo or UTC: "
                 "the list is on Wikipedia as \"List of tz database time zones\" (the \"TZ identifier\" "
                 "column), https://en.wikipedia.org/wiki/List_of_tz_database_time_zones")


@lru_cache(maxsize=1)
def _zone_names() -> dict[str, str]:
    """Every IANA zone name zoneinfo knows (tzdata's), by its lower case: a mail may upper-case it."""
    from zoneinfo import available_timezones

    return {name.lower(): name for name in available_timezones()}


def zone_name(text: str) -> str:
    """The IANA name of the time zone ``text`` names (any case); OptionError saying how to find one."""
    name = _zone_names().get(str(text).strip().lower()) if len(str(text)) <= 64 else None
    if name is None:
        raise OptionError(Text("{text} is not a time zone gm knows. {help}", text=repr(str(text)[:64]),
                               help=Text(ZONE_HELP)))
    return name


@lru_cache(maxsize=64)
def zone(name: str | None) -> ZoneInfo | None:
    """The time zone of a stored name (None: UTC only)."""
    if not name:
        return None
    from zoneinfo import ZoneInfo

    return ZoneInfo(name)


def format_stamp(at: float, tz: ZoneInfo | None = None, language: str = "en") -> str:
    """``2025-03-07 18:00 UTC``: every time stamp gm shows; with a zone
    ``Sat 7 Mar 2025 19:00 CET (18:00 UTC)``.  German and French as their readers write dates
    (``07.03.2025 18:00 UTC``, ``sam. 7 mars 2025 19:00 CET (18:00 UTC)``, CLDR's through Babel)."""
    utc = datetime.fromtimestamp(at, timezone.utc)
    if tz is not None:
        return _local(utc, tz, year=True, language=language)
    if language == "en":
        return utc.strftime("%Y-%m-%d %H:%M UTC")
    from babel.dates import format_date

    return f"{format_date(utc, 'medium', locale=language)} {utc:%H:%M} UTC"


def _day(moment: datetime, year: bool, language: str) -> str:
    """``Tue 24 Nov`` (``2026`` after it with ``year``); German ``Di., 24. Nov.``, French ``mar. 24 nov.``."""
    if language == "en":
        return f"{moment:%a} {moment.day} {moment:%b}" + (f" {moment.year}" if year else "")
    from babel.dates import format_skeleton

    return format_skeleton("yMMMEd" if year else "MMMEd", moment, locale=language)


def _local(utc: datetime, tz: ZoneInfo, year: bool = False, language: str = "en") -> str:
    """``Tue 24 Nov 18:00 CET (17:00 UTC)``; the UTC time left out where the zone is UTC."""
    here = utc.astimezone(tz)
    shown = f"{_day(here, year, language)} {here:%H:%M} {here.tzname()}"
    if here.utcoffset() == timedelta(0) and here.tzname() in ("UTC", "GMT", "UCT"):
        return shown
    return f"{shown} ({utc:%H:%M} UTC)"


def format_due(due: float, now: float, tz: ZoneInfo | None = None, language: str = "en") -> str:
    """``Fri 2025-03-07 18:00 UTC (2 days 4 hours from now)``; in a player's zone
    ``Tue 24 Nov 18:00 CET (17:00 UTC), 2 days 4 hours from now``; German and French in their
    own words and dates."""
    span = format_span(due - now, language)
    if tz is None:
        moment = datetime.fromtimestamp(due, timezone.utc)
        stamp = moment.strftime("%a ") + format_stamp(due) if language == "en" else \
            f"{_day(moment, True, language)} {moment:%H:%M} UTC"
        ahead = Text("{stamp} ({span} from now)", stamp=stamp, span=span) if due > now else \
            Text("{stamp} (passed {span} ago)", stamp=stamp, span=span)
        return said(ahead, language)
    stamp = _local(datetime.fromtimestamp(due, timezone.utc), tz, language=language)
    ahead = Text("{stamp}, {span} from now", stamp=stamp, span=span) if due > now else \
        Text("{stamp}, passed {span} ago", stamp=stamp, span=span)
    return said(ahead, language)
