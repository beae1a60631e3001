"""One mail of a batch about a game, as plain values (Letter), for Outbox.queue_batch.

gm.service.outgoing.reportmail makes a turn's reports as Letters, observers
their public mail; the outbox adds each reader's footer and reply address,
queues them in order and archives what each player was sent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, NamedTuple

if TYPE_CHECKING:
    from gm.mail.inbound import Inbound
    from gm.present.mailhtml import ReportPage


class Letter(NamedTuple):
    """One mail of a batch about a game (Outbox.queue_batch), as plain values: the outbox adds
    its reader's footer and reply address.  ``notes`` open the mail, archived as notices above
    ``body`` (archived as ``kind``, for ``player``, when ``archived``); ``page``: its HTML page,
    without the footer.  ``answers``: the mail it is threaded under; ``lead``: the sender's
    report, which leads the one reply to ``answers`` while that is gathered, with
    ``reply_notes`` (title, text) after it and ``reply_page`` as its page; ``calendar``: the
    reader's deadline as iCalendar objects (gm.service.outgoing.calendar); ``events``: a
    report's events as its reader sees them; ``files``: files attached (gm.mail.outbound.Attachment:
    the end mail's record of the game)."""

    to: str
    label: str
    body: str
    kind: str = "notice"
    player: str | None = None
    archived: bool = True
    notes: tuple[str, ...] = ()
    page: ReportPage | None = None
    images: tuple = ()
    headers: tuple[tuple[str, str], ...] = ()
    not_before: float | None = None
    answers: Inbound | None = None
    lead: bool = False
    reply_notes: tuple[tuple[str, str], ...] = ()
    reply_page: ReportPage | None = None
    calendar: tuple[bytes, ...] = ()
    events: tuple[str, ...] = ()  # the report's events its reader sees (kept if it is held: pace)
    files: tuple = ()


def calendars_of(parts: Iterable[Any]) -> tuple[bytes, ...]:
    """The calendar objects the parts of one reply carry, in order (each part's ``calendar``)."""
    return tuple(ics for part in parts for ics in part.calendar)


def files_of(parts: Iterable[Any]) -> tuple:
    """The files the parts of one reply carry, in order (each part's ``files``)."""
    return tuple(file for part in parts for file in part.files)
