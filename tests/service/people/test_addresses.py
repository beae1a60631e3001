"""Addresses as people have them, by mail through the daemon on its Maildirs: `gm new`
takes zoë@bücher.example and a display name, the welcome greets her by it and goes to the
A-label form; her mail, from the same address written any way (case, NFD, U-label or A-label),
is a person's, read as her seat's; SET ADDRESS (IDNA 2008: straße, not strasse) and JOIN take
such addresses; a seat name's error
says which letters.  gm.core.addresses.normal is the one form behind all of it."""

from __future__ import annotations

import logging
import unicodedata
import uuid

import pytest
from typer.testing import CliRunner

from gm.cli import app
from gm.core import addresses
from gm.core import config as config_module
from gm.core.config import ConfigError
from gm.mail.quotes import MARKER
from mailroom import Mailroom, text_of
from support import EXAMPLE_LAYOUT, GM_ADDRESS

ZOE = "zoë@xn--bcher-kva.example"  # how gm keeps and sends zoë@bücher.example
runner = CliRunner()


def utf8_mail(sender: str, text: str, subject: str = "orders", to: str = GM_ADDRESS) -> bytes:
    """A mail as an SMTPUTF8 client sends it: the header in UTF-8 as written (RFC 6532)."""
    return (f"From: {sender}\r\nTo: {to}\r\nSubject: {subject}\r\n"
            f"Message-ID: <{uuid.uuid4().hex}@bücher.example>\r\nMIME-Version: 1.0\r\n"
            'Content-Type: text/plain; charset="utf-8"\r\nContent-Transfer-Encoding: 8bit\r\n\r\n'
            f"{text}\r\n").encode("utf-8")


def gm(room: Mailroom, *args: str):
    return runner.invoke(app, ["--config", room.conf, *args])


@pytest.mark.parametrize("written, kept", [
    ("zoë@bücher.example", ZOE),
    ("ZOË@BÜCHER.Example", ZOE),
    (unicodedata.normalize("NFD", "zoë@bücher.example"), ZOE),
    ("zoë@XN--BCHER-KVA.example", ZOE),
    ("x@faß.de", "x@xn--fa-hia.de"),  # IDNA 2008: not fass.de, which is another domain
    ("Ada@Example.ORG", "ada@example.org"),
    ("ada@exam_ple.org", None),
    ("zo\ufffd@example.org", None),  # a byte that was not UTF-8
    ("zo\u202eë@example.org", None),  # a bidi override
    ("zoë@" + "ü" * 64 + ".example", None),  # a label too long
    ("a..b@example.org", None),
])
def test_one_form_of_every_address(written, kept):
    assert addresses.normal(written) == kept


def test_gm_new_takes_idn_addresses_and_display_names_and_her_mail_is_hers(tmp_path, caplog):
    room = Mailroom(tmp_path)
    result = gm(room, "new", "neighbors", "--id", "nb1", "--player", "ada=Ada Lovelace <ada@example.org>",
                "--player", "zoe=Zoë Ångström <Zoë@Bücher.example>", "-o", f"layout={EXAMPLE_LAYOUT}",
                "--seed", "5")
    assert result.exit_code == 0, result.output
    seats = {p["name"]: (p["email"], p["display_name"]) for p in room.engine.store.seats.players("nb1")}
    assert seats == {"ada": ("ada@example.org", "Ada Lovelace"), "zoe": (ZOE, "Zoë Ångström")}
    welcomes = dict(room.run())
    assert sorted(welcomes) == ["ada@example.org", ZOE]
    welcome = text_of(welcomes[ZOE])
    assert welcome.startswith(f"{MARKER}\n\nWelcome to Neighbors, Zoë Ångström!")
    assert "You are playing game nb1 as zoe with ada." in " ".join(welcome.split())
    assert welcomes[ZOE]["To"] == ZOE
    password = welcome.split("Your password: ")[1].split()[0]

    ada_password = text_of(welcomes["ada@example.org"]).split("Your password: ")[1].split()[0]
    room.deliver(utf8_mail("Ada <ada@example.org>", f"GAME nb1 PASSWORD {ada_password}\nRb4xd4"))  # ada first
    room.run()
    # Her address written in capitals and decomposed, the domain as she types it: still hers.
    sender = unicodedata.normalize("NFD", "Zoë Ångström <ZOË@BÜCHER.example>")
    legal = room.engine.load("nb1")
    move = legal.rules.legal_orders(legal.state, "zoe")[0]
    with caplog.at_level(logging.WARNING):
        room.deliver(utf8_mail(sender, f"GAME nb1 PASSWORD {password}\n{move}"))
        answers = room.run()
    assert room.outcomes()[-1] == "applied"  # a person's mail, not a robot's ("no sender address")
    assert len(room.engine.load("nb1").state.moves) == 2
    assert ZOE in [to for to, _ in answers]
    assert not [r for r in caplog.records if "flufl" in r.getMessage() or "flufl" in r.name]
    row = room.engine.store.one("SELECT sender FROM messages ORDER BY id DESC LIMIT 1")
    assert row["sender"] == ZOE

    room.deliver(utf8_mail("zoë@bücher.example", f"GAME nb1 PASSWORD {password}\n"
                           "SET ADDRESS Zoë@Straße.example"))
    sent = room.run()
    code_mail = [msg for to, msg in sent if to == "zoë@xn--strae-oqa.example"]
    assert code_mail and code_mail[0]["Subject"].startswith("CONFIRM ")


def test_a_seat_name_error_says_ascii(tmp_path):
    room = Mailroom(tmp_path)
    result = gm(room, "new", "neighbors", "--id", "nb1", "--player", "zoë=zoe@example.org",
                "--player", "ada=ada@example.org")
    assert result.exit_code != 0
    assert "ASCII letters, digits, - and _" in " ".join(result.output.split())
    room.deliver(utf8_mail("zoë@bücher.example", "JOIN open1 zoë"))
    gm(room, "new", "neighbors", "--id", "open1", "--open", "2")
    (answer,) = room.run()
    assert answer[0] == ZOE
    assert "ASCII letters, digits, - and _" in " ".join(text_of(answer[1]).split())


def test_join_takes_a_utf8_address(tmp_path):
    room = Mailroom(tmp_path)
    assert gm(room, "new", "neighbors", "--id", "open1", "--open", "2").exit_code == 0
    room.deliver(utf8_mail("Zoë <zoë@bücher.example>", "JOIN open1 zoe"))
    (asked,) = room.run()
    assert asked[0] == ZOE and asked[1]["Subject"].startswith("CONFIRM ")
    room.deliver(utf8_mail("Zoë Ångström <zoë@xn--bcher-kva.example>", "", to=asked[1]["Reply-To"],
                           subject="Re: " + asked[1]["Subject"]))
    (joined,) = room.run()
    assert joined[0] == ZOE
    assert [(p["email"], p["display_name"]) for p in room.engine.store.seats.players("open1")] == [
        (ZOE, "Zoë Ångström")]


def test_config_addresses_are_kept_in_the_same_form(tmp_path):
    conf = tmp_path / "gm.yaml"
    conf.write_text(f"data_dir: {tmp_path}\naddress: GM@Bücher.example\ngm_address: Zoë@Bücher.example\n",
                    encoding="utf-8")
    config = config_module.load(conf)
    assert (config.address, config.gm_address) == ("gm@xn--bcher-kva.example", ZOE)
    conf.write_text(f"data_dir: {tmp_path}\naddress: zoë@bücher.example\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="address must be a mail address.*ASCII local part"):
        config_module.load(conf)


def test_a_bounce_names_addresses_in_the_same_form():
    from gm.mail import bounces

    assert bounces.recipients([("to", "Zoë <ZOË@Bücher.example>"), ("to", "Bea@XN--BCHER-KVA.example")]) == [
        ZOE, "bea@xn--bcher-kva.example"]
