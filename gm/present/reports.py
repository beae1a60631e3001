"""Turn a game state into the plain-text report a player reads.

Pure functions of (game rules, state, viewer, language, format): the same inputs always give
the same text, which is what lets ``gm verify`` compare a replay with the archive.  A report
is said in its reader's language (gm.core.i18n); an accessible one describes the board in
words (the game's describe) where the others draw it.
"""

from __future__ import annotations

import textwrap
from functools import lru_cache
from typing import Any, Collection, Mapping

from games.text import Text, mark
from gm.core import i18n
from gm.core.value import valueclass


MAX_WIDTH = 72
# The viewer of the archive and of anyone who follows a game without playing it: not a
# player (so no seat's private lines or sealed orders) and not None (the GM, who sees all).
OBSERVER = "(observer)"


@valueclass
class ReportInput:
    game_id: str
    rules: Any  # games.base.Game
    state: Any
    viewer: str | None
    events: list  # games.base.Event, of the turn just played
    deadline: str | None = None
    language: str = i18n.ENGLISH
    accessible: bool = False  # the board described for a screen reader, not drawn


# How a reader who holds a seat sends orders: by replying (the mail carries the seat's reply
# address, gm.service.outgoing.replies) or by a mail with the password in it.
REPLY = "reply"
PASSWORD = "password"


FOOTERS = {  # a reader's channel -> the footer of their mails
    REPLY: mark("To send orders, reply to this mail and write them at the top.\n"
                "Send HELP for the order format and rulings."),
    PASSWORD: mark("To send orders, mail a line GAME {game_id} PASSWORD <yours>, then the orders.\n"
                   "Send HELP for the order format and rulings."),
}


def footer(game_id: str, channel: str | None, language: str = i18n.ENGLISH) -> str:
    """The last lines of a mail about a game: what its reader can do now, in their channel and
    ``language``; "" for a reader who can send nothing (the game is over, they left it, they
    only follow it)."""
    if channel not in FOOTERS:
        return ""
    said: str = i18n.translate(Text(FOOTERS[channel], game_id=game_id), language)
    return said


def with_footer(body: str, lines: str) -> str:
    """``body`` with ``lines`` at its end, under its own "--" line if it has one (one footer
    a mail, never two)."""
    body = body.rstrip("\n") + "\n"
    if not lines or body.endswith("\n" + lines.rstrip("\n") + "\n"):  # it has it already
        return body
    if body.startswith("--\n") or "\n--\n" in body:
        return body + lines.rstrip("\n") + "\n"
    return body + "\n--\n" + lines.rstrip("\n") + "\n"


# How every footer gm ever wrote begins (today's two, and help_hint's of earlier versions).
FOOTER_STARTS = ("To send orders, ", "Send HELP for the order format", "Orders: mail a line GAME ")


@lru_cache(maxsize=1)
def footer_starts() -> tuple[str, ...]:
    """FOOTER_STARTS and how each line of today's footers begins in every language (up to its
    first field)."""
    starts = list(FOOTER_STARTS)
    for language in i18n.LANGUAGES:
        for template in FOOTERS.values():
            said = i18n.translations(language).gettext(template)
            starts += [line.split("{")[0] for line in said.split("\n") if line.split("{")[0]]
    return tuple(starts)


def without_footer(text: str) -> str:
    """``text`` without its footer: the lines after its last "--" line, when each of them is a
    footer line (footer_starts, in any language); any other text after a "--" line is kept, so
    gm verify still sees a change made there."""
    head, rule, tail = ("\n" + text.rstrip("\n")).rpartition("\n--\n")
    starts = footer_starts()
    if not rule or not tail.strip() or not all(line.startswith(starts)
                                               for line in tail.split("\n") if line.strip()):
        return text.rstrip("\n") + "\n"
    return head[1:].rstrip("\n") + "\n"


def shared_context(game_id: str, rules, state, deadline: str | None = None) -> dict:
    """The part of a report that is the same for every reader: worked out once per turn."""
    turn = rules.turn(state)
    over = rules.is_over(state)
    scores = rules.scores(state)
    removed = set(rules.removed(state))  # RULINGS G5: shown "(left)" in the scores
    to_move = [] if over else rules.to_move(state)
    legal = None
    if not over and len(to_move) == 1:
        legal = rules.legal_orders(state, to_move[0])
    title_line = (Text("{title} game {game_id}, turn {turn} (final)", title=rules.title, game_id=game_id, turn=turn)
                  if over else Text("{title} game {game_id}, turn {turn}", title=rules.title, game_id=game_id,
                                    turn=turn))
    return {
        "game_id": game_id,
        "title": rules.title,
        "kind": rules.kind,
        "turn": turn,
        "title_line": title_line,
        "scores": [{"name": p, "score": scores.get(p, 0), "left": p in removed} for p in rules.players(state)],
        "winners": rules.winners(state) if over else [],
        "is_over": over,
        "to_move": to_move,
        # A simultaneous turn names who has not sent orders yet (never what the others sent).
        "waiting": rules.waiting(state) if rules.simultaneous and not over else None,
        "legal": legal,
        "deadline": deadline,
    }


def viewer_context(shared: dict, rules, state, viewer: str | None, events: list,
                   accessible: bool = False) -> dict:
    """Add what depends on who reads: hidden information and private events; for an accessible
    report the board described (``described``, lines of words) instead of drawn."""
    described = board_description(rules, state, viewer) if accessible else None
    return {
        **shared,
        "viewer": viewer,
        "events": [e.text for e in events if e.visible_to(viewer)],
        "board": rules.render_board(state, viewer) if described is None else "",
        "described": described,
        "view": rules.view(state, viewer),
    }


def board_description(rules, state, viewer: str | None) -> list | None:
    """The game's description of the board for a screen reader (Game.describe, lines of Texts);
    None for a game that has none (its report draws the board then)."""
    try:
        return list(rules.describe(state, viewer))
    except NotImplementedError:
        return None


def report_context(data: ReportInput) -> dict:
    shared = shared_context(data.game_id, data.rules, data.state, data.deadline)
    return viewer_context(shared, data.rules, data.state, data.viewer, data.events, data.accessible)


def report_template(rules, language: str = i18n.ENGLISH):
    from gm.present.templates import environment  # Jinja loads with the first text rendered

    return environment(language=language).select_template([f"{rules.kind}/report.txt.j2", "report.txt.j2"])


def rendered(template, context: dict, language: str) -> str:
    """A report template filled with ``context`` said in ``language``, fitted to the width.  The
    game's ``view`` is passed as the game made it: its template says its Texts as it prints them
    (``| t``), and a Text that is also a key of its tables still finds its row."""
    said = i18n.localized({key: value for key, value in context.items() if key != "view"}, language)
    return fit_width(template.render(**said, view=context["view"]))


def render_report(data: ReportInput) -> str:
    return rendered(report_template(data.rules, data.language), report_context(data), data.language)


def render_reports(game_id: str, rules, state, viewers: list[str | None], events: list,
                   deadline: str | None = None, shared: dict | None = None,
                   languages: Mapping[str | None, str] = {},
                   accessible: Collection[str] = ()) -> dict[str | None, str]:
    """One report per viewer, each in its language (``languages``, English for one not in it)
    and format (``accessible``: the viewers whose board is described), sharing the work that
    does not depend on the viewer (``shared``: shared_context already worked out, with its
    deadline replaced by ``deadline``).

    Gives, for each viewer, exactly what render_report gives (gm verify relies on it).
    """
    if shared is None:
        shared = shared_context(game_id, rules, state, deadline)
    else:
        shared = {**shared, "deadline": deadline}
    texts, templates = {}, {}
    for viewer in viewers:
        language = languages.get(viewer, i18n.ENGLISH)
        if language not in templates:
            templates[language] = report_template(rules, language)
        context = viewer_context(shared, rules, state, viewer, events, viewer in accessible)
        texts[viewer] = rendered(templates[language], context, language)
    return texts


def render_text(template: str, language: str = i18n.ENGLISH, **context) -> str:
    """Render one of the mail templates (templates/mail/*.txt.j2) in ``language``."""
    from gm.present.templates import environment

    return fit_width(environment(language=language).get_template(f"mail/{template}.txt.j2").render(
        **i18n.localized(context, language)))


def fit_width(text: str, width: int = MAX_WIDTH) -> str:
    """Wrap any prose line longer than ``width``; boards are drawn to fit already."""
    out = []
    for line in text.rstrip("\n").split("\n"):
        line = line.rstrip()
        if len(line) <= width:
            out.append(line)
            continue
        indent = len(line) - len(line.lstrip(" "))
        out.extend(
            textwrap.wrap(
                line,
                width=width,
                subsequent_indent=" " * (indent + 2),
                break_long_words=True,
                break_on_hyphens=False,
            )
        )
    return "\n".join(out) + "\n"
