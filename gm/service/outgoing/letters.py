"""One mail of a batch about a game, as plain values (Letter), for Outbox.queue_batch, and the
answers to one mail (ReplyPart, PendingReply) that leave as its one reply.

gm.service.outgoing.reportmail makes a turn's reports as Letters, observers
their public mail; the outbox adds each reader's footer and reply address,
queues them in order and archives what each player was sent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, NamedTuple

from games.text import Plural, Text
from gm.core.i18n import ENGLISH, LANGUAGES, translate
from gm.core.model import GameView
from gm.core.value import changed, field, valueclass

if TYPE_CHECKING:
    from gm.mail.inbound import Inbound
    from gm.mail.outbound import HtmlPart
    from gm.present.mailhtml import ReportPage
    from gm.store import Store

PART_RULE = "\n" + "=" * 72 + "\n\n"


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


def page_part(page: ReportPage | None, images: tuple, footer: str) -> HtmlPart | None:
    """The HTML part of a report's page with its reader's footer (None: no page)."""
    from gm.mail.outbound import HtmlPart  # the mail stack and the page, when a mail is written
    from gm.present import mailhtml

    return None if page is None else HtmlPart(mailhtml.render(changed(page, footer=footer)), images)


@valueclass
class PendingReply:
    """The answers to one incoming mail, sent together when it is done."""

    inbound: Inbound
    parts: list[ReplyPart] = field(default_factory=list)
    queued: dict[str, int] = field(default_factory=dict)  # mails queued per mailbox (MAILS_PER_ADDRESS)
    authenticated: bool = False  # the sender gave a seat's password or reply address
    done: set[str] = field(default_factory=set)  # what may be done once a mail (Outbox.once)


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


class Languages:
    """What an outbox knows of its readers' languages (gm.service.outgoing.outbox.Outbox is one):
    a mail's reader's, and the answers' to the mail being handled."""

    store: Store
    answers: PendingReply | None = None
    chosen: str | None = None  # the answers' language, once the case sets it (language)

    @property
    def language(self) -> str:
        """The language of the answers to the mail being handled, as known without its game
        (English outside one); the case sets it where it knows better (SET LANGUAGE)."""
        return self.answer_language(None)

    @language.setter
    def language(self, code: str | None) -> None:
        self.chosen = code

    def answer_language(self, view: GameView | None) -> str:
        """The language of the answers to the mail being handled, about ``view`` (reader_language
        of its sender), unless the case set it; English outside one."""
        if self.chosen or self.answers is None:
            return self.chosen or ENGLISH
        return self.reader_language(view, self.answers.inbound.reply_address)

    def reader_language(self, view: GameView | None, to: str) -> str:
        """The language of a mail to ``to``: that of its seat in ``view`` (SET LANGUAGE; a seat takes
        its address's, SET LANGUAGE ... ALL), else its address's, else, for the sender of the mail
        being handled, the language of the command words it used (words_language), else English."""
        seats = self.store.seats.players_at(view.id, to) if view is not None else []
        if seats and seats[0].language in LANGUAGES:
            return str(seats[0].language)
        if not seats:
            row = self.store.seats.address_settings(to)
            if row is not None and row.language in LANGUAGES:
                return str(row.language)
        return self.words_language(to) or ENGLISH

    def words_language(self, to: str) -> str | None:
        """The language of the command words of the mail being handled, when ``to`` sent it (a
        MailOutbox reads its mail); None here."""
        return None
