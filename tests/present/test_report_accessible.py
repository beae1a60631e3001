"""The accessible report (SET FORMAT ACCESSIBLE): the board described, never drawn.

For each game that describes its board (Game.describe), a seeded position a few turns in
is reported to a seat: the text has none of the ASCII board's lines and every described
line, the description before what changed and the legal orders last; the HTML part has the
board as a table with column and row headers and the picture's alt text is the whole
description.  A reader who did not ask for it still gets the drawing.
"""

from __future__ import annotations

import random

import pytest
from markupsafe import escape

from games.registry import MODULES, get
from gm.present import mailhtml
from gm.present.reports import ReportInput, render_report, render_reports, shared_context

T0 = 1_700_000_000.0


def played(kind: str, seed: int = 3, turns: int = 4):
    """(rules, state, events of the last order or turn) after a few seeded random turns."""
    rules = get(kind)
    rng = random.Random(seed)
    state = rules.setup(["ada", "bob"], {}, seed)
    events: list = []
    for _ in range(turns):
        if rules.is_over(state):
            break
        for player in rules.to_move(state):
            text = rules.random_order(state, player, rng)
            if text is None:
                continue
            result = rules.step(state, player, rules.parse_order(state, player, text), T0)
            state, events = result.state, list(result.events)
            if not rules.simultaneous:
                break
        if rules.simultaneous:
            result = rules.close_turn(state, T0)
            state, events = result.state, list(result.events)
    return rules, state, events


def described_kinds() -> list[str]:
    """The kinds whose rules describe their board."""
    kinds = []
    for kind in MODULES:
        rules, state, _ = played(kind, turns=0)
        try:
            rules.describe(state, "ada")
        except NotImplementedError:
            continue
        kinds.append(kind)
    return kinds


KINDS = described_kinds()


def words(text: str) -> str:
    return " ".join(text.split())


def seat(rules, state) -> str:
    """A seat to report to: the one to move where there is one."""
    return (rules.to_move(state) or ["ada"])[0]


@pytest.mark.parametrize("kind", KINDS)
def test_the_accessible_report_describes_the_board_and_draws_nothing(kind):
    rules, state, events = played(kind)
    viewer = seat(rules, state)
    text = render_report(ReportInput("g1", rules, state, viewer, events, accessible=True))
    drawn = render_report(ReportInput("g1", rules, state, viewer, events))
    board = [line.strip() for line in rules.render_board(state, viewer).split("\n") if len(line.strip()) > 3]
    assert board and all(line in drawn for line in board)
    lines = [line.strip() for line in text.split("\n")]
    assert not [line for line in board if line in lines], "a line of the drawing in the accessible report"
    described = [str(line) for line in rules.describe(state, viewer)]
    assert described
    flat = words(text)
    for line in described:
        assert words(line) in flat, line
    told = [str(e.text) for e in events if e.visible_to(viewer) and str(e.text).strip()]
    if told:  # what changed comes after the description
        assert flat.index(words(described[0])) < flat.index(words(told[0]))
    if "Your legal orders:" in drawn:
        assert "Your legal orders:" in text
        assert flat.index(words(described[-1])) < flat.index("Your legal orders:")


@pytest.mark.parametrize("kind", KINDS)
def test_render_reports_gives_each_reader_their_format(kind):
    rules, state, events = played(kind)
    texts = render_reports("g1", rules, state, ["ada", "bob"], events, accessible={"bob"})
    assert texts["ada"] == render_report(ReportInput("g1", rules, state, "ada", events))
    assert texts["bob"] == render_report(ReportInput("g1", rules, state, "bob", events, accessible=True))
    assert texts["ada"] != texts["bob"]


@pytest.mark.parametrize("kind", KINDS)
def test_the_accessible_page_has_the_board_as_a_table_and_the_description_as_alt_text(kind):
    rules, state, events = played(kind)
    viewer = seat(rules, state)
    text = render_report(ReportInput("g1", rules, state, viewer, events, accessible=True))
    page = mailhtml.ReportPage(shared=shared_context("g1", rules, state), text=text,
                               events=[e.text for e in events if e.visible_to(viewer)], viewer=viewer,
                               date="Mon 1 Jan", picture_cid="board.g1@example.org", picture_size=(300, 200),
                               **mailhtml.accessible_board(rules, state, viewer))
    html = mailhtml.render(page)
    headers, rows = rules.board_table(state, viewer)
    assert '<table id="board"' in html
    assert html.count('<th scope="col"') == len(headers)
    assert html.count('<th scope="row"') == len(rows)
    for header in headers:
        assert f">{escape(header)}</th>" in html
    for row in rows:
        assert f'<th scope="row" style="padding:2px 4px;border:1px solid #c9c1b0;">{escape(row[0])}</th>' in html
    alt = escape(" ".join(str(line) for line in rules.describe(state, viewer)))
    assert f'alt="{alt}"' in html


def test_a_page_that_is_not_accessible_has_no_board_table():
    rules, state, events = played(KINDS[0] if KINDS else "neighbors")
    page = mailhtml.ReportPage(shared=shared_context("g1", rules, state), text="", events=[], viewer="ada",
                               date="Mon", picture_cid="c1")
    html = mailhtml.render(page)
    assert '<table id="board"' not in html and 'alt="The board of game g1 after turn' in html
