"""Deadlines as iCalendar objects (RFC 5545, iTIP RFC 5546): the bytes of a text/calendar part.

One event per seat and turn: a stable UID (game, a digest of the seat's name, turn, domain:
nothing a player typed reaches it), the moment orders are due (or a clock's bank runs out) in
UTC, an alarm a day before.  PUBLISH adds or updates it (a higher SEQUENCE replaces what a
calendar holds), CANCEL with a higher SEQUENCE takes it away.  Never an ATTENDEE or an RSVP:
nothing asks the reader for an answer.  Every text is escaped and folded by ``icalendar``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING

from games.text import Text
from gm.core import i18n

if TYPE_CHECKING:
    from icalendar import Event

PUBLISH, CANCEL = "PUBLISH", "CANCEL"
PRODID = "-//gm//play-by-email deadlines//EN"
ALARM_BEFORE = timedelta(days=1)
LENGTH = timedelta(minutes=15)  # the event's span, from the moment orders are due


@dataclass(frozen=True)
class Deadline:
    """One seat's deadline of one turn, as plain values: ``due`` in seconds (UTC), ``zone`` the
    reader's time zone name and ``local`` the due as they read it there."""

    game_id: str
    seat: str
    turn: int
    due: float
    sequence: int
    zone: str
    local: str
    clock: bool = False  # the moment the seat's bank would run out (RULINGS G10)


def uid(game_id: str, seat: str, turn: int, domain: str) -> str:
    """The event's UID, the same in every mail about this seat's turn: the game id kept to the
    letters, digits and ``-_.`` it may hold, the seat by a digest of its name."""
    game = "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else "_" for c in game_id)[:64]
    digest = hashlib.sha256(seat.encode("utf-8")).hexdigest()[:16]
    return f"{game}-{digest}-{turn}@{domain}"


def stamp(seconds: float) -> datetime:
    """Seconds since the epoch as a UTC datetime (written with a Z)."""
    return datetime.fromtimestamp(seconds, tz=timezone.utc)


def summary(d: Deadline, language: str = i18n.ENGLISH) -> str:
    """The event's title, in ``language``."""
    values = dict(game=d.game_id, seat=d.seat, turn=d.turn)
    text = Text("{game}: your clock runs out ({seat}, turn {turn})", **values) if d.clock \
        else Text("{game}: orders due ({seat}, turn {turn})", **values)
    return str(i18n.translate(text, language))


def description(d: Deadline, language: str = i18n.ENGLISH) -> str:
    """The event's text, in ``language``."""
    values = dict(game=d.game_id, seat=d.seat, turn=d.turn, zone=d.zone, local=d.local)
    text = Text("Your clock in game {game} runs out then, if you do not move before.\n"
                "Seat {seat}, turn {turn}.\nIn your time zone ({zone}): {local}.", **values) if d.clock \
        else Text("Your orders for game {game} are due then.\n"
                  "Seat {seat}, turn {turn}.\nIn your time zone ({zone}): {local}.", **values)
    return str(i18n.translate(text, language))


def event(d: Deadline, method: str, domain: str, organizer: str, now: float,
          language: str = i18n.ENGLISH) -> Event:
    """The VEVENT of ``d`` for ``method``: confirmed with its alarm, or cancelled; its words in
    ``language``."""
    from icalendar import Alarm, Event, vCalAddress, vText  # a calendar part's alone

    ev = Event()
    ev.add("uid", uid(d.game_id, d.seat, d.turn, domain))
    ev.add("sequence", d.sequence)
    ev.add("dtstamp", stamp(now))
    ev.add("dtstart", stamp(d.due))
    ev.add("dtend", stamp(d.due) + LENGTH)
    ev.add("summary", summary(d, language))
    ev.add("description", description(d, language))
    ev.add("transp", "TRANSPARENT")
    ev.add("status", "CANCELLED" if method == CANCEL else "CONFIRMED")
    who = vCalAddress(f"mailto:{organizer}")
    who.params["cn"] = vText("gm")
    ev.add("organizer", who)
    if method == PUBLISH:
        alarm = Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", summary(d, language))
        alarm.add("trigger", -ALARM_BEFORE)
        ev.add_component(alarm)
    return ev


def calendar(deadlines: list[Deadline], method: str, domain: str, organizer: str, now: float,
             language: str = i18n.ENGLISH) -> bytes:
    """A VCALENDAR of ``method`` (PUBLISH or CANCEL) holding an event per deadline, in
    ``language`` (icalendar loaded only when a reader's calendar is on: a report without one
    pays nothing for it)."""
    from icalendar import Calendar

    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("method", method)
    for d in deadlines:
        cal.add_component(event(d, method, domain, organizer, now, language))
    raw: bytes = cal.to_ical()
    return raw
