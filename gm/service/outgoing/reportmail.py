"""A turn's report mail as each player takes it: the text report alone, or the text and an HTML
page with the board picture (gm.mail.outbound.HtmlPart).

Which a player gets: their own SET FORMAT, else the game's option ``format``;
the option ``pictures`` (on|off) lets the GM leave the picture out.  Deadlines
are shown in each player's time zone (SET TIMEZONE).  The work that does not
depend on the reader is done once per report batch: the shared part of the
report, the public press, and each distinct picture (gm.present.pictures.
pictures_for draws a picture once for all viewers who see the same).
"""

from __future__ import annotations

from games.base import Event
from gm.core import times
from gm.core.model import AUDIENCE_ALL, GameView
from gm.mail.outbound import HtmlPart
from gm.present import mailhtml, pictures
from gm.present import reports as present
from gm.service.table import deadlines
from gm.service.context import Context

FORMATS = ("html", "text")


def wants_html(player, settings: dict) -> bool:
    """The player's own format (SET FORMAT), else the game's option."""
    own = player["format"] if "format" in player.keys() else None
    return (own or settings["format"]) == "html"


def public_press(rows) -> list[tuple[int, str]]:
    """(turn, text) of each press message sent to everyone (its stored audience is ALL: never
    judged from its text), from the archive's copies (as the players read them: grey press
    without its sender), its footer left out."""
    return [(row["turn"], row["body"].split("\n--\n")[0].rstrip()) for row in rows
            if row["audience"] == AUDIENCE_ALL]


class TurnMail:
    """The report mail of one turn for each player still in the game (``only``: these players,
    as for a BOARD reply)."""

    def __init__(self, ctx: Context, view: GameView, events: list[Event], note: str | None = None,
                 only: list[str] | None = None, head: str | None = None,
                 table: deadlines.TurnTable | None = None, letters: dict[str, str] | None = None):
        rules, state = view.rules, view.state
        self.view, self.events, self.note = view, events, note
        self.head = head  # lines above the report in its monospace block (the final standings)
        self.now = ctx.clock()
        self.domain = ctx.config.domain
        # ``table``: what the turn shows of the table, when the caller read it with the turn
        self.table = table if table is not None else deadlines.turn_table(ctx.store, view)
        settings = self.table.settings
        seats = view.seated if only is None else [p for p in view.players if p["name"] in only]
        self.readers = {p["name"]: p for p in seats}
        self.html_readers = [name for name, p in self.readers.items() if wants_html(p, settings)]
        self.zones = {name: self.table.zones[name] for name in self.readers}
        self.due = self.table.due
        self.shared = present.shared_context(view.id, rules, state)
        self.texts: dict[str | None, str] = {}
        for zone in set(self.zones.values()):  # one rendering per deadline text
            names = [name for name in self.readers if self.zones[name] is zone]
            self.texts.update(present.render_reports(view.id, rules, state, names, events,
                                                     deadline=self.deadline(zone), shared=self.shared))
        # How each reader sends orders, in their channel: under the text, and in the page
        self.footers = {name: ctx.outbox.footer_to(view, p["email"]) for name, p in self.readers.items()}
        self.pictures: dict[str | None, bytes | None] = {}
        self.press: list[str] = []
        if self.html_readers:
            if settings["pictures"] == "on":
                self.pictures = pictures.pictures_for(rules, state, self.html_readers)
            self.press = [text for _, text in public_press(ctx.store.public_press(view.id, view.turn - 1))]
        if letters is not None:
            self.make_all(letters)

    def make_all(self, letters: dict[str, str]) -> None:
        """Each reader's text and page, made at once for a batch of reports: ``bodies`` and
        ``pages`` (``letters``: a line above some readers' reports, on their page "For you")."""
        self.bodies = {name: self.text(name) for name in self.readers}
        self.pages = {name: self.html(name, letter=letters[name], letter_title="For you")
                      if letters.get(name) else self.html(name) for name in self.readers}

    def deadline(self, zone) -> str | None:
        return None if self.due is None else times.format_due(self.due, self.now, zone)

    def text(self, name: str) -> str:
        """The text report ``name`` gets, with its footer (the text/plain part, and what the
        archive keeps)."""
        return present.with_footer(self.texts[name], self.footers[name])

    def html(self, name: str, letter: str | None = None,
             letter_title: str = "Welcome") -> HtmlPart | None:
        """The HTML part of ``name``'s mail, with its picture; None for a player who reads text.
        ``letter``: a welcome's text, shown above the report."""
        if name not in self.html_readers:
            return None
        picture = self.pictures.get(name)
        cid = f"board.{self.view.id}.{self.view.seq}@{self.domain}" if picture else None
        zone = self.zones[name]
        page = mailhtml.ReportPage(
            shared=self.shared, text=(f"{self.head}\n" if self.head else "") + self.texts[name],
            viewer=name,  # the footer is the page's own
            events=[e.text for e in self.events if e.visible_to(name)],
            date=times.format_stamp(self.now, zone), deadline=self.deadline(zone),
            picture_cid=cid, picture_size=pictures.size(picture) if picture else None,
            press=self.press, note=self.note, footer=self.footers[name], letter=letter,
            letter_title=letter_title)
        return HtmlPart(mailhtml.render(page), ((cid, picture),) if picture else ())
