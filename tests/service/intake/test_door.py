"""What mail brings in at the door: charsets gm can read, text cleaned once.

Each test drives mail through engine.ingest and checks the state and every mail sent.
"""

from __future__ import annotations

import time

import pytest

from support import body, last_outbox_id, outbox

ADA = "ada@example.org"


def seq(engine, game="nb1") -> int:
    return engine.store.turns.latest_state(game)["seq"]


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
    """charset="punycode" made CPython decode 900 KB with its quadratic decoder: 26 s of CPU.
    (900 KB of letters, all of them punycode digits: the decoder does not stop early.)"""
    start, before = last_outbox_id(engine), seq(engine)
    raw = mail_in_charset("punycode", b"b" * 900_000)
    assert len(raw) < engine.config.max_message_bytes  # read, not refused as too large
    began = time.process_time()  # CPU, which a loaded machine does not stretch as it does the wall clock
    outcome = engine.ingest(raw)
    elapsed = time.process_time() - began
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


# --- control characters: cleaned at the door, escaped on the terminal, left out of the feed -----
TITLE, HIDE, BELL = "\x1b]0;owned\x07", "\x1b[8m", "\x07"
HOSTILE = f"{TITLE}{HIDE}hidden\x00\x9b2J\u202egnp.exe\u2066x\u2069\u200f\u061c\x7f\x85 end"


def test_the_door_cleans_subject_name_and_body():
    from gm.core.text import UNSAFE
    from gm.mail import inbound as mailin

    raw = (f"From: =?utf-8?q?Ada=1B]0;x=07?= {HIDE}<{ADA}>\r\nTo: gm@localhost\r\n"
           f"Subject: orders {HOSTILE} =?utf-8?q?=1B[8m=E2=80=AEword?=\r\n"
           "Content-Type: text/plain; charset=utf-8\r\n\r\n"
           f"GAME nb1 {HOSTILE}\r\nb4xd4\t{HIDE}\r\n").encode()
    inbound = mailin.parse(raw, "gm@localhost")
    assert inbound.sender == ADA
    for value in (inbound.subject, inbound.sender_name, inbound.text, inbound.full_text):
        assert value and not any(ord(c) in UNSAFE for c in value), repr(value)
    assert "hidden2Jgnp.exexend" in inbound.subject.replace(" ", "") and "b4xd4\t" in inbound.text


def conf_engine(tmp_path):
    """A gm.yaml for the command line, and an engine on the same store."""
    from gm.core.config import load
    from gm.service.engine import Engine
    from gm.store import Store

    path = tmp_path / "gm.yaml"
    path.write_text(f"data_dir: {tmp_path / 'data'}\naddress: gm@localhost\n")
    return str(path), Engine(Store(load(str(path)).database), load(str(path)))


def cli(conf, *args) -> str:
    from typer.testing import CliRunner

    from gm.cli import app

    result = CliRunner().invoke(app, ["--config", conf, *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_escape_sequences_never_reach_the_gms_terminal(tmp_path):
    from gm.core.passwords import hash_password
    from support import EXAMPLE_LAYOUT, order_mail

    conf, engine = conf_engine(tmp_path)
    assert "started" in cli(conf, "new", "neighbors", "--id", "nb1", "--player", f"ada={ADA}", "--player",
                            "bob=bob@example.org", "--seed", "3", "--option", f"layout={EXAMPLE_LAYOUT}")
    with engine.store.write():
        engine.store.update("players", {"game_id": "nb1", "name": "ada"}, pw_hash=hash_password("sesame1234"))
    start = last_outbox_id(engine)
    outcome = engine.ingest(order_mail(f"Ada {HIDE}<{ADA}>", f"PRESS TO ALL\n{HOSTILE}\nENDPRESS\nb4xd4",
                                       game_id="nb1", password="sesame1234", subject=f"orders {TITLE}{HIDE}x"))
    assert outcome.outcome == "applied", outcome.detail
    # Stored clean, and every mail gm sent is clean.
    (message,) = engine.store.all("SELECT subject FROM messages")
    assert message["subject"] == "orders ]0;owned[8mx"  # the controls gone, the rest harmless text
    sent = outbox(engine, start)
    # press, reports; ada's report is her one reply, the press confirmed in it
    assert sorted(m["To"] for m in sent) == [ADA, "bob@example.org", "bob@example.org"]
    (to_ada,) = [m for m in sent if m["To"] == ADA]
    assert "Neighbors report" in to_ada["Subject"] and "Your press to" in body(to_ada)
    for msg in sent:
        assert not any(c in msg.as_string() for c in "\x1b\x07\x00\u202e"), msg["Subject"]
    (press,) = [m for m in sent if m["To"] == "bob@example.org" and "Press" in m["Subject"]]
    assert "hidden2Jgnp.exex end" in body(press)
    # Rows stored before the door was there may hold anything: the terminal is shown escapes.
    with engine.store.write():
        engine.store.inbox.add_message("old", None, ADA, f"old {TITLE}{HIDE}", b"raw", 0.0, "rejected", f"why {HIDE}")
        engine.store.history.log("nb1", 1, "ada", "press", f"to ALL {TITLE}", 0.0)
        engine.store.reports.add_report("nb1", 1, 1, None, "press", f"Press in game nb1\n{HOSTILE}\r", None, 0.0,
                                        audience="all")
    for args in (["inbox"], ["history", "nb1"], ["outbox", "--all"]):
        shown = cli(conf, *args)
        assert not any(c in shown for c in "\x1b\x07\x00\x9b\u202e\u2066\r"), (args, shown)
    assert "old \\x1b]0;owned\\x07\\x1b[8m" in cli(conf, "inbox")
    assert "\\x1b]0;owned\\x07\\x1b[8mhidden\\x00\\x9b2J\\u202egnp.exe" in cli(conf, "history", "nb1")
    engine.store.close()


def test_the_feed_stays_xml_whatever_a_stored_text_holds(engine, nb_game, tmp_path):
    import xml.etree.ElementTree as ET

    from gm.present import archive as site
    from gm.service.records import audit

    with engine.store.write():  # as a row stored before the door cleaned mail could hold it
        engine.store.reports.add_report("nb1", 1, 1, None, "press", f"Press in game nb1\nTo: ALL\n\n{HOSTILE}\ufffe",
                                        None, engine.clock(), audience="all")
    site.write_game(tmp_path, audit.archive_data(engine, "nb1"), engine.clock(), "example.test")
    root = ET.fromstring((tmp_path / "game-nb1.atom").read_bytes())
    content = " ".join(el.text or "" for el in root.iter())
    assert "]0;owned[8mhidden" in content and "gnp.exe" in content and "\x00" not in content


# --- game ids: new ones are plain ASCII; old ones keep working --------------------------------
LOOK_ALIKES = [("n\u042c1", "U+042C"), ("\uff2e\uff22\uff13", "U+FF2E"), ("\u212a1", "U+212A")]


@pytest.mark.parametrize("game_id, code", LOOK_ALIKES)
def test_gm_new_refuses_a_look_alike_id(tmp_path, game_id, code):
    from typer.testing import CliRunner

    from gm.cli import app

    conf, engine = conf_engine(tmp_path)
    result = CliRunner().invoke(app, ["--config", conf, "new", "neighbors", "--id", game_id, "--player",
                                      f"ada={ADA}", "--player", "bob=bob@example.org"])
    assert result.exit_code == 1
    assert "ASCII letters, digits and '-'" in result.output and code in result.output
    assert engine.store.games.every_game() == [] and outbox(engine) == []
    engine.store.close()


@pytest.mark.parametrize("game_id, code", LOOK_ALIKES + [("nb.1", "U+002E"), ("nb_1", "U+005F")])
def test_create_by_mail_refuses_a_look_alike_id(engine, game_id, code):
    from support import order_mail

    engine.config.player_create_kinds = ["neighbors"]
    start = last_outbox_id(engine)
    outcome = engine.ingest(order_mail(ADA, f"CREATE neighbors {game_id} 2"))
    assert outcome.outcome == "help"
    assert engine.store.games.every_game() == []
    (reply,) = outbox(engine, start)
    assert reply["To"] == ADA and "Not created" in reply["Subject"]
    text = " ".join(body(reply).split())
    assert "ASCII letters, digits and '-'" in text and code in text


def test_new_ids_are_ascii_letters_digits_and_hyphens(engine):
    from support import PLAYERS

    engine.create_game("neighbors", "NB-7", PLAYERS, seed=1)
    assert engine.store.games.game("nb-7") is not None


def test_a_game_made_before_keeps_its_id_with_dots_and_underscores(engine):
    """Made as an older gm made it (its id is no longer one a new game may have), it is played by
    password and by reply address as before."""
    import json

    from games import registry
    from gm.core.passwords import hash_password
    from gm.service.people import lobby, mailcommands
    from support import EXAMPLE_LAYOUT, PLAYERS, order_mail

    game_id, options, passwords = "old_game.1", {"layout": EXAMPLE_LAYOUT}, {"ada": "sesame1234", "bob": "bobpass123"}
    with engine.store.write():
        engine.store.games.add_game(game_id, "neighbors", 5, json.dumps(options), engine.clock())
        for seat, (name, address) in enumerate(PLAYERS):
            engine.store.seats.add_player(game_id, seat, name, address, hash_password(passwords[name]))
        lobby.begin_play(engine, registry.get("neighbors"), game_id, 5, options, ["ada", "bob"],
                         mailcommands.send_welcome, passwords)
    # By password: ada's capture.
    start = last_outbox_id(engine)
    outcome = engine.ingest(order_mail(ADA, "b4xd4", game_id=game_id, password="sesame1234"))
    assert outcome.outcome == "applied", outcome.detail
    sent = outbox(engine, start)
    assert sorted(m["To"] for m in sent) == [ADA, "bob@example.org"]
    assert all(m["Subject"] == f"[gm {game_id}] Neighbors report" and f"game {game_id}, turn 2" in body(m)
               for m in sent)
    # By reply address: bob answers his report without a password.
    (to_bob,) = [m for m in sent if m["To"] == "bob@example.org"]
    assert to_bob["Reply-To"].startswith(f"gm+{game_id}.bob.")
    view = engine.load(game_id)
    move = view.rules.legal_orders(view.state, "bob")[0]
    start = last_outbox_id(engine)
    outcome = engine.ingest(order_mail("bob@example.org", move, to=to_bob["Reply-To"],
                                       subject=f"Re: {to_bob['Subject']}"))
    assert outcome.outcome == "applied", outcome.detail
    assert engine.load(game_id).seq == view.seq + 1
    assert sorted(m["To"] for m in outbox(engine, start)) == [ADA, "bob@example.org"]
