"""Turn a game state into the plain-text report a player reads.

Pure functions of (game rules, state, viewer): the same inputs always give the
same text, which is what lets ``gm verify`` compare a replay with the archive.
"""

from __future__ import annotations

import textwrap
from gm.core.value import valueclass
from typing import Any


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


# How a reader who holds a seat sends orders: by replying (the mail carries the seat's reply
# address, gm.service.outgoing.replies) or by a mail with the password in it.
REPLY = "reply"
PASSWORD = "password"


def footer(game_id: str, channel: str | None) -> str:
    """The last lines of a mail about a game: what its reader can do now, in their channel;
    "" for a reader who can send nothing (the game is over, they left it, they only follow it)."""
    if channel == REPLY:
        first = "To send orders, reply to this mail and write them at the top."
    elif channel == PASSWORD:
        first = f"To send orders, mail a line GAME {game_id} PASSWORD <yours>, then the orders."
    else:
        return ""
    return f"{first}\nSend HELP for the order format and rulings."


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


def without_footer(text: str) -> str:
    """``text`` without its footer: the lines after its last "--" line, when each of them is a
    footer line (FOOTER_STARTS); any other text after a "--" line is kept, so gm verify still
    sees a change made there."""
    head, mark, tail = ("\n" + text.rstrip("\n")).rpartition("\n--\n")
    if not mark or not tail.strip() or not all(line.startswith(FOOTER_STARTS)
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
    title_line = f"{rules.title} game {game_id}, turn {turn}"
    if over:
        title_line += " (final)"
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


def viewer_context(shared: dict, rules, state, viewer: str | None, events: list) -> dict:
    """Add what depends on who reads: hidden information and private events."""
    return {
        **shared,
        "viewer": viewer,
        "events": [e.text for e in events if e.visible_to(viewer)],
        "board": rules.render_board(state, viewer),
        "view": rules.view(state, viewer),
    }


def report_context(data: ReportInput) -> dict:
    shared = shared_context(data.game_id, data.rules, data.state, data.deadline)
    return viewer_context(shared, data.rules, data.state, data.viewer, data.events)


def report_template(rules):
    from gm.present.templates import environment  # Jinja loads with the first text rendered

    return environment().select_template([f"{rules.kind}/report.txt.j2", "report.txt.j2"])


def render_report(data: ReportInput) -> str:
    return fit_width(report_template(data.rules).render(**report_context(data)))


def render_reports(game_id: str, rules, state, viewers: list[str | None], events: list,
                   deadline: str | None = None, shared: dict | None = None) -> dict[str | None, str]:
    """One report per viewer, sharing the work that does not depend on the viewer (``shared``:
    shared_context already worked out, with its deadline replaced by ``deadline``).

    Gives, for each viewer, exactly what render_report gives (gm verify relies on it).
    """
    if shared is None:
        shared = shared_context(game_id, rules, state, deadline)
    else:
        shared = {**shared, "deadline": deadline}
    template = report_template(rules)
    return {viewer: fit_width(template.render(**viewer_context(shared, rules, state, viewer, events)))
            for viewer in viewers}


def render_text(template: str, **context) -> str:
    """Render one of the mail templates (templates/mail/*.txt.j2)."""
    from gm.present.templates import environment

    return fit_width(environment().get_template(f"mail/{template}.txt.j2").render(**context))


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
