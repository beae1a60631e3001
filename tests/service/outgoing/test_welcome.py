"""The welcome mail: no "keep your password forever"; it explains replying to reports and
PASSWORD RESET (and, with reply addresses off, only the PASSWORD line)."""

from __future__ import annotations

from support import PLAYERS, body, outbox


def welcome_of(engine, address="ada@example.org"):
    (mail,) = [m for m in outbox(engine) if m["To"] == address and "Welcome" in m["Subject"]]
    return mail, " ".join(body(mail).split())


def test_the_welcome_explains_replying_and_password_reset(engine):
    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=5)
    mail, text = welcome_of(engine)
    assert f"Your password: {secrets['ada']}" in text
    assert "Keep this mail" not in text and "cannot tell it to you again" not in text
    assert "reply to the latest report" in text and "needs no password" in text
    assert "Quoted text below your orders is never read" in text
    assert "PASSWORD RESET nb1 from this address" in text and "SET PASSWORD <new>" in text
    assert mail["Reply-To"].startswith("gm+nb1.ada.")


def test_without_reply_addresses_the_welcome_says_only_the_password_way(engine):
    engine.config.reply_tokens = False
    engine.create_game("neighbors", "nb1", PLAYERS, seed=5)
    mail, text = welcome_of(engine)
    intro = text.split("Commands, each on a line")[0]  # the command list itself names SET PASSWORD's effects
    assert "reply to the latest report" not in intro and "reply addresses" not in intro
    assert "GAME nb1 PASSWORD" in text and "PASSWORD RESET nb1" in text
    assert mail["Reply-To"] is None
