"""Reports and mail bodies in the reader's language.

A report rendered in German or French has none of the English template sentences the same
report has in English (each line of the English render that is one of the mail catalogue's
sentences is looked for in the other); the HTML parts name their language; every line of
the mails stays within 78 columns in each language; English is the default.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from gm.core import i18n
from gm.present import mailhtml
from gm.present.reports import ReportInput, footer, render_report, render_reports, render_text, \
    shared_context, without_footer, PASSWORD, REPLY
from gm.present.templates import environment
from test_report_accessible import KINDS, played

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

import catalogs  # noqa: E402

LANGUAGES = ("de", "fr")


def sentence_patterns() -> list[re.Pattern]:
    """Each one-line sentence of the mail catalogue as a pattern of a whole line: its fields
    (``%(name)s`` and ``{name}``) match any text; one with fields and few letters of its own
    ("{title} game {game}") is left out, as it would match prose that is not its."""
    patterns = []
    for message in catalogs.area_messages("mail"):
        for text in ([message] if isinstance(message, str) else list(message)):
            text = text.strip()
            if "\n" in text or len(text) < 4:
                continue
            parts = re.split(r"%\(\w+\)s|\{\w+\}", text)
            if len(parts) > 1 and sum(char.isalpha() for char in "".join(parts)) < 8:
                continue
            patterns.append(re.compile(".+".join(re.escape(part) for part in parts)))
    return patterns


PATTERNS = sentence_patterns()


def template_lines(text: str) -> list[str]:
    """The lines of ``text`` that are a sentence of the catalogue, as they stand."""
    return [line.strip() for line in text.split("\n")
            if line.strip() and any(pattern.fullmatch(line.strip()) for pattern in PATTERNS)]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("accessible", [False, True])
def test_a_report_in_another_language_has_no_english_template_sentence_left(kind, language, accessible):
    rules, state, events = played(kind)
    viewer = (rules.to_move(state) or ["ada"])[0]
    english = render_report(ReportInput("g1", rules, state, viewer, events, deadline="Mon 12:00",
                                        accessible=accessible))
    said = render_report(ReportInput("g1", rules, state, viewer, events, deadline="Mon 12:00",
                                     language=language, accessible=accessible))
    lines = template_lines(english)
    assert len(lines) >= 3, lines  # the title, "Scores:" or the like, "To move: ..."
    left = [line for line in lines if line in {other.strip() for other in said.split("\n")}]
    assert not left, f"English left in the {language} report: {left}"
    assert said.split("\n")[0] != english.split("\n")[0]
    assert all(len(line) <= 78 for line in said.split("\n")), [line for line in said.split("\n") if len(line) > 78]


def test_render_reports_gives_each_reader_their_language():
    rules, state, events = played(KINDS[0])
    texts = render_reports("g1", rules, state, ["ada", "bob"], events, languages={"bob": "de"})
    assert texts["ada"] == render_report(ReportInput("g1", rules, state, "ada", events))
    assert texts["bob"] == render_report(ReportInput("g1", rules, state, "bob", events, language="de"))
    assert "Punkte:" in texts["bob"] and "Scores:" in texts["ada"]


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_the_html_parts_name_their_language(language):
    rules, state, events = played(KINDS[0])
    page = mailhtml.ReportPage(shared=shared_context("g1", rules, state), text="", events=[], viewer="ada",
                               date="Mon", language=language)
    assert f'<html lang="{language}">' in mailhtml.render(page)
    digest = environment(html=True, language=language).get_template("mail/digest.html.j2").render(
        date="Mon", games=[])
    assert f'<html lang="{language}">' in digest


def test_an_english_page_is_as_before():
    rules, state, events = played(KINDS[0])
    page = mailhtml.ReportPage(shared=shared_context("g1", rules, state), text="", events=[], viewer="ada",
                               date="Mon")
    html = mailhtml.render(page)
    assert '<html lang="en">' in html and ">Standings</h2>" in html


MAILS = {  # template: values that reach most of its lines
    "welcome": dict(title="Neighbors", display_name=None, name="ada", game_id="g1", opponents=["bob"],
                    password="pw", replies=True, address="gm@example.org", commands=["SET X"], press="on",
                    report=None),
    "confirm": dict(game_id="g1", turn=4, lines=["a1-b2"], waiting=["bob"], deadline="Mon 12:00"),
    "preview": dict(game_id="g1", turn=2, text="", skipped=["SET X"], not_read=["hi"], order=None, lines=[]),
    "other_address": dict(game_id="g1", sender="someone@example.org", text="a1-b2"),
    "away_seen": dict(seen="Monday 1 January 2026", games=[{"id": "g1", "turn": 3, "name": "ada",
                                                            "deadline": "Mon"}],
                      absence={"usage": "AWAY <days>", "does": "x"}, weekly="7 days"),
    "rejected": dict(game_id="g1", text="zz", kind="OrderSyntaxError", error="no", legal=["a1-b2"], report=None),
    "digest": dict(date="Mon", games=[{"game_id": "g1", "title": "Neighbors", "turn": 2, "to_move": True,
                                       "lines": ["x"], "board": ""}]),
    "list": dict(mode="summary", games=[{"id": "g1", "title": "Neighbors", "status": "running", "turn": 2,
                                         "owes": True, "to_move": ["ada"], "deadline": "Mon", "settings": []}],
                 sender="ada@example.org", every_game=""),
    "press": dict(game_id="g1", turn=2, sender="ada", to="ALL", text="hello"),
    "below_quote": dict(lines=["x"]),
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("template", sorted(MAILS))
def test_mail_bodies_are_translated_and_within_78_columns(template, language):
    english = render_text(template, **MAILS[template])
    said = render_text(template, language, **MAILS[template])
    assert said != english
    lines = template_lines(english)
    assert not [line for line in lines if line in said.split("\n")]
    assert all(len(line) <= 78 for line in said.split("\n")), [line for line in said.split("\n") if len(line) > 78]


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_a_footer_in_any_language_is_recognised_as_a_footer(language):
    for channel in (REPLY, PASSWORD):
        text = "Report\n--\n" + footer("g1", channel, language)
        assert without_footer(text) == "Report\n"
    assert footer("g1", None, language) == ""


def test_a_records_result_and_standings_are_said_in_the_language_asked_for():
    from gm.present import recordtext
    from test_record_text import move, record

    rec = record([move(1, 1, "order", "ada", "a1xb2")], reason="bob resigned")
    rec["standings"][1]["left"] = True
    english = recordtext.render(rec)
    german = recordtext.render(rec, "de")
    assert "Final standings:" in english and "(left)" in english and "Why: bob resigned" in english
    assert "Endstand:" in german and "(ausgestiegen)" in german and "Warum: bob resigned" in german
    assert "Ergebnis: ada gewinnt." in german and "Final standings:" not in german
    assert german.split("\n")[:3] == english.split("\n")[:3]  # the PGN headers stay as they are
    assert recordtext.render(rec, "en") == english
