"""A turn's report mail as each player takes it, in their language (SET LANGUAGE): the text
report alone, or the text and an HTML page with the board picture (gm.mail.outbound.HtmlPart),
or, accessible, the board described in words and the page with the board as a table.

Which a player gets: their own SET FORMAT, else the game's option ``format``;
the option ``pictures`` (on|off) lets the GM leave the picture out.  Deadlines
are shown in each player's time zone (SET TIMEZONE).  The work that does not
depend on the reader is done once per report batch: the shared part of the
report, the public press, and each distinct picture (gm.present.pictures.
pictures_for draws a picture once for all viewers who see the same), or, where the outbox
says so (Outbox.draw_later), each picture's spec, which the sender draws.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.base import Event
from games.text import Text
from gm.core import times
from gm.core.i18n import ENGLISH, LANGUAGES, translate
from gm.core.model import AUDIENCE_ALL, GameView, Seat
from gm.core.value import valueclass
from gm.present import mailhtml, pictures
from gm.present import reports as present
from gm.service.outgoing.letters import Letter
from gm.service.outgoing.outbox import page_part
from gm.service.table import deadlines
from gm.service.context import Context
from gm.store.reportrows import ReportRow

if TYPE_CHECKING:
    from gm.mail.inbound import Inbound
    from gm.mail.outbound import HtmlPart

FORMATS = ("html", "text")
ACCESSIBLE = "accessible"  # a seat's own format only (SET FORMAT ACCESSIBLE): it has a page too


def wants_html(player: Seat, settings: dict) -> bool:
    """The player's own format (SET FORMAT), else the game's option."""
    own = player.format
    return (own or settings["format"]) in ("html", ACCESSIBLE)


def language_of(player: Seat) -> str:
    """The language a seat's mail is written in (SET LANGUAGE; English when not set)."""
    return player.language if player.language in LANGUAGES else ENGLISH


def public_press(rows: list[ReportRow]) -> list[tuple[int, str]]:
    """(turn, text) of each press message sent to everyone (its stored audience is ALL: never
    judged from its text), from the archive's copies (as the players read them: grey press
    without its sender), its footer left out."""
    return [(row.turn, row.body.split("\n--\n")[0].rstrip()) for row in rows
            if row.audience == AUDIENCE_ALL]


def picture_size(picture: bytes | str | None) -> tuple[int, int] | tuple[str, str] | None:
    """The size a page shows its picture at: the PNG's, or, for a picture the sender draws (a
    spec), what the sender puts the drawn one's size in place of."""
    if not picture:
        return None
    if isinstance(picture, str):
        from gm.mail.outbound import LATER_SIZE  # the mail stack: this mail is being written

        return LATER_SIZE
    return pictures.size(picture)


@valueclass(frozen=True)
class Sender:
    """The reader whose mail caused a batch of reports: their name, that mail, and whether it
    came from the seat's own address (then its report leads the reply to it)."""

    name: str
    inbound: Inbound | None
    own_address: bool


def turn_letters(ctx: Context, view: GameView, events: list[Event], label: str, note: str | None,
                 head: str | None, table: deadlines.TurnTable | None, own_notes: dict[str, str],
                 sender: Sender | None) -> tuple[TurnMail, list[Letter]]:
    """A turn's reports for the outbox's batch, made at once: the TurnMail and each reader's
    Letter (TurnMail.letters; ``note``: the GM's, and ``own_notes``, fitted in each reader's text)."""
    mail = TurnMail(ctx, view, events, note, head=head, table=table)
    return mail, mail.letters(label, note, own_notes, sender)


class TurnMail:
    """The report mail of one turn for each player still in the game (``only``: these players,
    as for a BOARD reply).  Its texts and pages are without the footer, which the outbox adds
    to a batch (Outbox.queue_batch); text() and html() add it, asking the outbox once."""

    def __init__(self, ctx: Context, view: GameView, events: list[Event], note: str | None = None,
                 only: list[str] | None = None, head: str | None = None,
                 table: deadlines.TurnTable | None = None, language: str | None = None):
        rules, state = view.rules, view.state
        self.ctx, self.view, self.events, self.note = ctx, view, events, note
        self.head = head  # lines above the report in its monospace block (the final standings)
        self.now = ctx.clock()
        self.domain = ctx.config.domain
        # ``table``: what the turn shows of the table, when the caller read it with the turn
        self.table = table if table is not None else deadlines.turn_table(ctx.store, view)
        settings = self.table.settings
        seats = view.seated if only is None else [p for p in view.players if p.name in only]
        self.readers = {p.name: p for p in seats}
        self.html_readers: list[str | None] = [name for name, p in self.readers.items() if wants_html(p, settings)]
        # ``language``: the answer's to a mail (BOARD), which a command word may have chosen
        self.languages = {name: language or language_of(p) for name, p in self.readers.items()}
        self.accessible = {name for name, p in self.readers.items() if p.format == ACCESSIBLE}
        self.zones = {name: self.table.zones[name] for name in self.readers}
        self.due = self.table.due
        self.observer_deadline = self.deadline(None)  # in UTC, as observers read it
        self.shared = present.shared_context(view.id, rules, state)
        self.texts: dict[str | None, str] = {}
        for zone, language in {(self.zones[name], self.languages[name]) for name in self.readers}:
            # one rendering per deadline text
            names: list[str | None] = [name for name in self.readers
                                       if self.zones[name] is zone and self.languages[name] == language]
            self.texts.update(present.render_reports(view.id, rules, state, names, events,
                                                     deadline=self.deadline(zone, language), shared=self.shared,
                                                     **self.readers_of(names)))
        self._footers: dict[str, str] | None = None
        self.pictures: dict[str | None, bytes | str | None] = {}  # PNG bytes, or a spec (pictures.specs_for)
        self.press: list[str] = []
        if self.html_readers:
            if settings["pictures"] == "on":  # drawn here, or by the sender (Outbox.draw_later)
                self.pictures = (pictures.specs_for if ctx.outbox.draw_later else pictures.pictures_for)(
                    rules, state, self.html_readers)
            self.press = [text for _, text in public_press(ctx.store.reports.public_press(view.id, view.turn - 1))]

    def readers_of(self, names: list[str | None]) -> dict:
        """render_reports' ``languages`` and ``accessible`` for ``names``, where any is not the
        default (an English report drawn is rendered as it always was)."""
        languages = {name: self.languages[name] for name in names if self.languages.get(name, ENGLISH) != ENGLISH}
        accessible = [name for name in names if name in self.accessible]
        return {**({"languages": languages} if languages else {}), **({"accessible": accessible} if accessible else {})}

    @property
    def footers(self) -> dict[str, str]:
        """How each reader sends orders, in their channel and language (the outbox's footers, found once)."""
        if self._footers is None:
            self._footers = self.ctx.outbox.footers(
                self.view, {name: p.email for name, p in self.readers.items()}, self.languages)
        return self._footers

    def letters(self, label: str, note: str | None, own_notes: dict[str, str],
                sender: Sender | None = None) -> list[Letter]:
        """Each reader's report as a Letter of the outbox's batch (Outbox.queue_batch), opened
        by the GM's ``note``, the reader's own line (``own_notes``, on their page "For you") and
        the final standings; the sender's is threaded under their mail, or leads its reply (the
        note and standings after it, its page without the line)."""
        return [self.letter(name, label, (note, own_notes.get(name), self.head),
                            sender if sender is not None and sender.name == name else None)
                for name in self.readers]

    def letter(self, name: str, label: str, notes: tuple[str | None, ...],
               sender: Sender | None) -> Letter:
        """``name``'s report as a Letter (``notes``: the GM's note, their own line, the final
        standings; ``sender``: when their mail caused it).  The two notes are said in the
        reader's language, then fitted to the mail's width."""
        note, own = (self.fitted(part, self.languages[name]) for part in notes[:2])
        head = notes[2]
        lead = sender is not None and sender.own_address
        return Letter(self.readers[name].email, label, self.texts[name], kind="report",
                      player=name, notes=tuple(part for part in (note, own, head) if part),
                      page=self.page(name, own, Text("For you")) if own else self.page(name),
                      images=self.images(name), answers=sender.inbound if sender else None,
                      lead=lead, reply_page=self.page(name) if lead else None,
                      events=tuple(e.text for e in self.events if e.visible_to(name)),
                      reply_notes=tuple((title, part) for title, part in
                                        ((Text("Note"), note), (Text("Final standings"), head)) if part),
                      language=self.languages[name])

    @staticmethod
    def fitted(note: str | None, language: str) -> str | None:
        """A note in ``language``, its lines wrapped to the mail's width (None: no note)."""
        return present.fit_width(translate(note, language)) if note else None

    def deadline(self, zone, language: str = ENGLISH) -> str | None:
        return None if self.due is None else times.format_due(self.due, self.now, zone, language)

    def text(self, name: str) -> str:
        """The text report ``name`` gets, with its footer (the text/plain part, and what the
        archive keeps)."""
        return present.with_footer(self.texts[name], self.footers[name])

    def html(self, name: str, letter: str | None = None,
             letter_title: str = "Welcome") -> HtmlPart | None:
        """The HTML part of ``name``'s mail, with its picture and footer; None for a player who
        reads text.  ``letter``: a welcome's text, shown above the report."""
        page = self.page(name, letter, letter_title)
        return None if page is None else page_part(page, self.images(name), self.footers[name])

    def page(self, name: str, letter: str | None = None,
             letter_title: str = "Welcome") -> mailhtml.ReportPage | None:
        """The HTML page of ``name``'s mail without its footer; None for a player who reads text."""
        if name not in self.html_readers:
            return None
        picture = self.pictures.get(name)
        zone, language = self.zones[name], self.languages[name]
        described = mailhtml.accessible_board(self.view.rules, self.view.state, name) if name in self.accessible else {}
        return mailhtml.ReportPage(
            shared=self.shared, text=(f"{self.head}\n" if self.head else "") + self.texts[name],
            viewer=name, events=[e.text for e in self.events if e.visible_to(name)],
            date=times.format_stamp(self.now, zone, language), deadline=self.deadline(zone, language),
            picture_cid=self.cid(name), picture_size=picture_size(picture),
            press=self.press, note=self.note, letter=letter, letter_title=letter_title,
            language=language, **described)

    def cid(self, name: str) -> str | None:
        """The Content-ID of ``name``'s picture (None: no picture)."""
        return f"board.{self.view.id}.{self.view.seq}@{self.domain}" if self.pictures.get(name) else None

    def images(self, name: str) -> tuple:
        """The images ``name``'s page shows: its picture, if any."""
        picture = self.pictures.get(name)
        return ((self.cid(name), picture),) if picture else ()
