"""gm's marker line, the top line of every mail it sends, in the mail's language: a reply that
quotes a German or French mail without '>' is read only above it, as an English one is."""

from __future__ import annotations

import pytest

from gm.mail.outbound import HtmlPart, marked, marked_html
from gm.mail.quotes import MARKER, MARKERS, read_reply


@pytest.mark.parametrize("language", sorted(MARKERS))
def test_a_reply_quoting_the_marker_of_any_language_is_read_above_it_only(language):
    quoted = marked("Du bist am Zug.\nGAME nb1 PASSWORD x\n", language)
    reply = read_reply("a1xb2\n\n" + quoted)
    assert reply.text == "a1xb2"
    assert reply.unread == ["Du bist am Zug.", "GAME nb1 PASSWORD x"]
    assert "GAME nb1" in read_reply("a1xb2\n\n" + quoted.replace(" --\n", " ---\n", 1)).text  # not a marker


def test_the_marker_is_written_in_the_mails_language_and_english_by_default():
    assert marked("body").splitlines()[0] == MARKER
    assert marked("body", "de").splitlines()[0] == MARKERS["de"] != MARKER
    assert marked("body", "xx").splitlines()[0] == MARKER
    page = marked_html(HtmlPart("<html><body><p>x</p></body></html>"), "fr").html
    assert MARKERS["fr"] in page and MARKER not in page


def test_each_marker_is_one_line_within_78_columns_with_nothing_html_would_read():
    for line in MARKERS.values():
        assert len(line) <= 78 and "\n" not in line
        assert not set(line) & set('<>&"')
