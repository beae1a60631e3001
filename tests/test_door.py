"""What mail brings in at the door (issue 27): charsets gm can read, text cleaned once.

Each test drives mail through engine.ingest and checks the state and every mail sent.
"""

from __future__ import annotations

import time

import pytest

from support import body, last_outbox_id, outbox

ADA = "ada@example.org"


def seq(engine, game="nb1") -> int:
    return engine.store.latest_state(game)["seq"]


def mail_in_charset(charset: str, text: bytes, sender: str = f"Ada <{ADA}>") -> bytes:
    return (f"From: {sender}\r\nTo: gm@localhost\r\nSubject: orders\r\n"
            f"Message-ID: <{charset}-{len(text)}@example.org>\r\nMIME-Version: 1.0\r\n"
            f'Content-Type: text/plain; charset="{charset}"\r\n\r\n').encode() + text


# --- charsets ----------------------------------------------------------------------------------
def assert_refused_for_its_charset(engine, start: int, before: int, outcome, charset: str) -> None:
    assert outcome.outcome == "rejected", outcome.detail
    assert seq(engine) == before  # nothing changed
    (reply,) = outbox(engine, start)  # one reply, to the sender, that says why
    assert reply["To"] == ADA
    text = " ".join(body(reply).split())
    assert f"gm could not read your mail (its character set '{charset}' is not one gm can read" in text
    assert "Nothing was changed." in text


def test_a_900_kb_punycode_part_is_answered_at_once(engine, nb_game):
    """charset="punycode" made CPython decode 900 KB with its quadratic decoder: 26 s of CPU."""
    start, before = last_outbox_id(engine), seq(engine)
    raw = mail_in_charset("punycode", f"GAME nb1 PASSWORD {nb_game['ada']}\r\nb4xd4\r\n".encode()
                          + b"b" * 900_000)
    assert len(raw) < engine.config.max_message_bytes  # read, not refused as too large
    began = time.perf_counter()
    outcome = engine.ingest(raw)
    elapsed = time.perf_counter() - began
    assert elapsed < 0.5, elapsed
    assert_refused_for_its_charset(engine, start, before, outcome, "punycode")


@pytest.mark.parametrize("charset", ["base64", "rot13", "zlib", "idna", "bz2", "unicode-escape",
                                     "x-no-such-charset"])
def test_a_body_in_a_charset_that_is_no_text_charset_gets_a_reply(engine, nb_game, charset):
    """charset="base64" raised, and the body was dropped without a word."""
    start, before = last_outbox_id(engine), seq(engine)
    outcome = engine.ingest(mail_in_charset(charset, f"GAME nb1 PASSWORD {nb_game['ada']}\r\nb4xd4\r\n".encode()))
    assert_refused_for_its_charset(engine, start, before, outcome, charset)


@pytest.mark.parametrize("charset", ["utf-8", "UTF8", "latin1", "iso-8859-15", "windows-1252", "us-ascii",
                                     "unknown-8bit"])
def test_a_body_in_a_text_charset_is_read(engine, nb_game, charset):
    start = last_outbox_id(engine)
    outcome = engine.ingest(mail_in_charset(charset, f"GAME nb1 PASSWORD {nb_game['ada']}\r\nb4xd4\r\n".encode()))
    assert outcome.outcome == "applied", outcome.detail
    assert engine.load("nb1").state.moves[-1].notation() == "Rb4xd4"
    assert {m["To"] for m in outbox(engine, start)} == {ADA, "bob@example.org"}  # the reports
