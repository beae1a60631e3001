"""Mail to addresses as people have them, through the daemon's sender to a real aiosmtpd:
an IDN domain goes in A-label form over plain SMTP; a UTF-8 local part goes with SMTPUTF8 where
the server offers it, and where it does not, that address's mail is refused for good (553 5.6.7)
and the GM told once, while everyone else's mail goes and nothing is held."""

from __future__ import annotations

import logging

import pytest
from typer.testing import CliRunner

from gm.cli import app
from harness import Harness, SmtpSink

REFEREE = "referee@example.test"
ZOE = "zoë@xn--bcher-kva.example"  # zoë@bücher.example as gm keeps and sends it
PLAYERS = [("ada", "Ada <ada@example.org>"), ("zoe", "Zoë Ångström <Zoë@Bücher.example>")]
runner = CliRunner()


def gm(harness, *args) -> str:
    result = runner.invoke(app, ["--config", str(harness.config_path), *args])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def sink_without_smtputf8():
    sink = SmtpSink(smtputf8=False)
    sink.start()
    yield sink
    sink.stop()


def test_an_idn_address_goes_in_a_label_form_without_smtputf8(tmp_path, dovecot, sink_without_smtputf8):
    harness = Harness(tmp_path, dovecot, sink_without_smtputf8)
    harness.new_game(players=[("ada", "ada@example.org"), ("bea", "Bea <bea@Bücher.example>")])
    harness.once()
    (welcome,) = sink_without_smtputf8.to("bea@xn--bcher-kva.example")
    assert welcome["To"] == "bea@xn--bcher-kva.example"
    assert "Welcome to Neighbors, Bea!" in welcome.get_body(("plain",)).get_content()
    envelopes = [rcpt for rcpt, _ in sink_without_smtputf8.messages]
    assert sorted(envelopes) == [["ada@example.org"], ["bea@xn--bcher-kva.example"]]
    harness.engine.store.close()


def test_a_utf8_local_part_goes_with_smtputf8_where_the_server_offers_it(harness, smtp):
    harness.new_game(players=PLAYERS)
    harness.once()
    (welcome,) = smtp.to(ZOE)
    assert welcome["To"] == ZOE  # the address itself in UTF-8 (RFC 6532), never an encoded word
    assert "Welcome to Neighbors, Zoë Ångström!" in welcome.get_body(("plain",)).get_content()
    assert "as zoe" in welcome.get_body(("plain",)).get_content()
    row = harness.engine.store.one("SELECT status FROM outbox WHERE recipient = :recipient", recipient=ZOE)
    assert row["status"] == "sent"


def test_without_smtputf8_the_utf8_address_is_refused_and_the_gm_told_once(tmp_path, dovecot,
                                                                          sink_without_smtputf8, caplog):
    harness = Harness(tmp_path, dovecot, sink_without_smtputf8)
    harness.reconfigure(gm_address=REFEREE)
    harness.new_game(players=PLAYERS)
    with caplog.at_level(logging.WARNING):
        harness.once()
        harness.once()
    store = harness.engine.store
    row = store.one("SELECT status, last_error FROM outbox WHERE recipient = :recipient", recipient=ZOE)
    assert row["status"] == "bounced"
    assert "553 5.6.7" in row["last_error"] and "does not offer SMTPUTF8" in row["last_error"]
    assert store.outbox.holds() == []  # nobody else's mail waits for it
    # ada's mail goes: her welcome, and the notice that zoe is not receiving the game's mail
    assert [m["Subject"].split("] ")[1] for m in sink_without_smtputf8.to("ada@example.org")] == [
        "Welcome to Neighbors", "Player not receiving mail"]
    assert sink_without_smtputf8.to(ZOE) == []
    refused = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(refused) == 1 and ZOE in refused[0]
    told = store.all("SELECT subject FROM outbox WHERE recipient = :recipient", recipient=REFEREE)
    assert [r["subject"] for r in told] == [f"[gm] Mail to {ZOE} bounces"]
    (alert,) = sink_without_smtputf8.to(REFEREE)
    assert "does not offer SMTPUTF8" in " ".join(alert.get_content().split())
    # The GM looks it up and clears it as the address is written, in either form.
    shown = gm(harness, "deliveries", "zoë@bücher.example")
    assert shown.startswith(f"{ZOE}: bouncing") and "553 5.6.7" in shown
    assert gm(harness, "players", "--clear", "Zoë@Bücher.example", "-m", "SMTPUTF8 on now").startswith(
        f"{ZOE}: ok")
    store.close()
