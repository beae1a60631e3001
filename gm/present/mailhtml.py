"""The HTML page of a report mail: the text report laid out like a page of a PBEM zine.

A pure function of what the text report shows one reader: a masthead (game,
turn, date, next deadline), the turn's news in sentences, the picture (shown
by ``cid:``, sent in the same mail), press, standings, the text report itself
in a monospace block, and how to send orders last.  Nothing is fetched from
outside (no remote image, style sheet or font) and the styles are inline with a
max-width, so it reads the same in a phone's mail app and in a client that
blocks remote content.  The text part stays the canonical report.  The page is in its
reader's language; for an accessible report the picture's alt text is the board's whole
description and the board is a table with headers too.
"""

from __future__ import annotations

from html import escape
from typing import Sequence

from games.text import Text
from gm.core import i18n
from gm.core.value import field, valueclass


@valueclass
class ReportPage:
    shared: dict  # gm.present.reports.shared_context: title, turn, scores, winners, to_move
    text: str  # the text report this reader gets (the mail's text/plain part)
    events: list[str]  # the turn's events this reader was told
    viewer: str | None
    date: str  # when the mail was written, in the reader's time zone
    deadline: str | None = None  # in the reader's time zone
    picture_cid: str | None = None
    picture_size: tuple[int, int] | tuple[str, str] | None = None  # str: filled in by its sender
    press: list[str] = field(default_factory=list)  # press to everyone of this turn, as received
    note: str | None = None  # the game master's note, when the GM entered orders
    footer: str = ""  # how this reader sends orders (gm.present.reports.footer); "" when they cannot
    letter: str | None = None  # a welcome's text above its report (password, commands), as sent
    letter_title: str = Text("Welcome")  # the heading of ``letter`` ("For you": a line for this reader)
    language: str = i18n.ENGLISH
    described: list | None = None  # an accessible report's board in words (accessible_board)
    table: tuple | None = None  # an accessible report's board as (headers, rows) (accessible_board)


def accessible_board(rules, state, viewer: str | None) -> dict:
    """What the page of an accessible report adds, as ReportPage fields: the board in words
    (Game.describe: the picture's alt text) and as a table (Game.board_table); empty for a
    game that gives neither."""
    try:
        described = list(rules.describe(state, viewer))
    except NotImplementedError:
        return {}
    try:
        table = rules.board_table(state, viewer)
    except NotImplementedError:
        table = None
    return {"described": described, "table": table}


def _starts_with_name(line: str, names: Sequence[str]) -> bool:
    return any(line.startswith(n) and (len(line) == len(n) or not line[len(n)].isalnum()) for n in names)


def news(events: list[str], note: str | None = None, names: Sequence[str] = (),
         language: str = i18n.ENGLISH) -> list[str]:
    """The turn's events as sentences in ``language``: a capital first (but a player's name is
    left as it is written), a full stop last; an indented event line (a detail of the one
    before, such as a solution) joined to its sentence."""
    sentences: list[str] = []
    for text in [i18n.translate(item, language) for item in ([note] if note else []) + list(events)]:
        line = " ".join(str(text).split())
        if not line:
            continue
        if str(text)[:1].isspace() and sentences:
            sentences[-1] = sentences[-1].rstrip(".") + f" ({line})."  # joined notation and names
            continue
        if not _starts_with_name(line, names):
            line = line[0].upper() + line[1:]
        # An event that introduces the next ones ("... claimed K10 (FB6, turn 1):") is a
        # sentence of its own here: the lines it introduces follow as sentences.
        if line.endswith(":"):
            line = line.rstrip(": ") + "."
        sentences.append(line if line[-1] in ".!?)" else line + ".")
    return sentences


ANSWERS_MARK = "<!-- answers -->"  # in mail/report.html.j2, below the masthead


def with_answers(page_html: str, answers: list[str], language: str = i18n.ENGLISH) -> str:
    """A report page with the other answers to the reader's mail (their text, as the text part
    has them) in a box under the masthead: a reader of the HTML part sees them too."""
    boxes = "".join(f'<pre style="white-space:pre-wrap;background:#f6f2e8;padding:8px;margin:0 0 8px;">'
                    f"{escape(text.rstrip())}</pre>\n" for text in answers)
    heading = escape(i18n.translate(Text("About your mail:"), language))
    section = (f'<div id="answers" style="margin:12px 0;">\n'
               f'<p style="margin:0 0 8px;">{heading}</p>\n{boxes}</div>')
    return page_html.replace(ANSWERS_MARK, section, 1)


def render(page: ReportPage) -> str:
    """The page's HTML (every value escaped by the template environment)."""
    from gm.present.templates import environment  # Jinja loads with the first page rendered

    names = [row["name"] for row in page.shared["scores"]]
    return environment(html=True, language=page.language).get_template("mail/report.html.j2").render(
        page=page, s=i18n.localized(page.shared, page.language),
        news=news(page.events, page.note, names, page.language))
