"""One mail of a batch about a game, as plain values (Letter), for Outbox.queue_batch, and the
answers to one mail (ReplyPart, PendingReply) that leave as its one reply.

gm.service.outgoing.reportmail makes a turn's reports as Letters, observers
their public mail; the outbox adds each reader's footer and reply address,
queues them in order and archives what each player was sent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from games.text import Plural, Text
from gm.core.i18n import ENGLISH, translate
from gm.core.model import GameView
from gm.core.value import field, valueclass

if TYPE_CHECKING:
    from gm.mail.inbound import Inbound
    from gm.mail.outbound import HtmlPart
    from gm.present.mailhtml import ReportPage

PART_RULE = "\n" + "=" * 72 + "\n\n"


@valueclass(frozen=True)
class Letter:
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
    language: str = ENGLISH  # the reader's: its subject is said in it, and its Content-Language


def calendars_of(parts: Iterable[Any]) -> tuple[bytes, ...]:
    """The calendar objects the parts of one reply carry, in order (each part's ``calendar``)."""
    return tuple(ics for part in parts for ics in part.calendar)


def files_of(parts: Iterable[Any]) -> tuple:
    """The files the parts of one reply carry, in order (each part's ``files``)."""
    return tuple(file for part in parts for file in part.files)


@valueclass
class ReplyPart:
    """One answer to a mail: its body and what the reply mail carries for it."""

    view: GameView | None
    label: str
    body: str
    kind: str
    archive_player: str | None
    html: HtmlPart | None = None  # the HTML alternative, sent when this is the reply's only part
    secret: bool = False  # carries a password or a code: the stored copy is blanked once sent
    report: bool = False  # the sender's report of the move the mail made: it leads the reply
    calendar: tuple[bytes, ...] = ()  # the reader's deadline as iCalendar objects
    files: tuple = ()  # files attached (gm.mail.outbound.Attachment)


@valueclass
class PendingReply:
    """The answers to one incoming mail, sent together when it is done."""

    inbound: Inbound
    parts: list[ReplyPart] = field(default_factory=list)
    queued: dict[str, int] = field(default_factory=dict)  # mails queued per mailbox (MAILS_PER_ADDRESS)
    authenticated: bool = False  # the sender gave a seat's password or reply address
    done: set[str] = field(default_factory=set)  # what may be done once a mail (Outbox.once)
    words: tuple[str | None, ...] = ()  # the language of its command words, once read (Outbox.words_language)


def joined(parts: list[ReplyPart]) -> str:
    """The bodies of several answers as one mail's text, a rule between each two."""
    return PART_RULE.join(p.body.rstrip("\n") + "\n" for p in parts)


def answer_subject(parts: list[ReplyPart], view: GameView | None, asked: str, language: str) -> str:
    """The subject of the reply to a mail with the subject ``asked``, of the answers ``parts``
    (none of them a report), in ``language``: the first one's label and how many more."""
    from gm.mail.orders import game_tag, without_password
    from gm.mail.redact import mask_text

    label = parts[0].label if len(parts) == 1 else Plural(
        "{label} (and {n} more)", "{label} (and {n} more)", label=parts[0].label, n=len(parts) - 1)
    shown = mask_text(without_password(asked), passwords=False) or Text("your mail")
    tag = game_tag(view.id if view is not None else None)
    return f"{tag} {translate(label, language)}: {translate(shown, language)}"



def reply_head(parts: list[ReplyPart], view: GameView | None, asked: str, language: str,
               limited: bool) -> tuple[str, HtmlPart | None, str]:
    """The subject, HTML part and kind of the one reply of ``parts`` to a mail whose subject was
    ``asked``: the lead report's (the report of the move, as every player gets it, the other
    answers after it, on its page too), else the first answer's (``limited``: no page)."""
    first = parts[0]
    if not first.report or view is None:
        html = first.html if len(parts) == 1 and not limited else None
        return answer_subject(parts, view, asked, language), html, first.kind if len({
            p.kind for p in parts}) == 1 else "reply"
    from gm.mail.orders import game_tag

    html = first.html
    if html is not None and len(parts) > 1:
        from gm.mail.outbound import HtmlPart  # the page: only where there is one
        from gm.present.mailhtml import with_answers

        html = HtmlPart(with_answers(html.html, [p.body for p in parts[1:]], language), html.images)
    return f"{game_tag(view.id)} {translate(first.label, language)}", html, "report"
