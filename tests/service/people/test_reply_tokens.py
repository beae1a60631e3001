"""Replies without a password: each seat's mail carries Reply-To gm+<game>.<name>.<token>@host; a
mail to that address (Delivered-To, X-Original-To, else To) speaks for the seat while the token is
current; an old or forged one gets a clear refusal and changes nothing."""

from __future__ import annotations

import os
import stat

import pytest

from gm.core import secrets, tokens
from gm.mail import inbound as mail_in
from gm.mail import rawmail
from support import LINEAR_4X, body, growth, last_outbox_id, order_mail, outbox


def reply_to(engine, address, start=0):
    """The Reply-To of the last mail to ``address``."""
    (*_, last) = [m for m in outbox(engine, start) if m["To"] == address]
    return last["Reply-To"]


def mover_and_order(engine, game_id="nb1"):
    view = engine.load(game_id)
    (mover,) = view.rules.to_move(view.state)
    return mover, view.rules.legal_orders(view.state, mover)[0]


def test_every_mail_to_a_seat_carries_its_own_reply_address(engine, nb_game):
    ada, bob = reply_to(engine, "ada@example.org"), reply_to(engine, "bob@example.org")
    assert ada.startswith("gm+nb1.ada.") and ada.endswith("@localhost")
    assert bob.startswith("gm+nb1.bob.") and ada != bob
    assert tokens.parse("gm@localhost", ada)[:2] == ("nb1", "ada")


def test_a_reply_to_the_reply_address_needs_no_password_and_quotes_are_not_read(engine, nb_game):
    mover, order = mover_and_order(engine)
    address = reply_to(engine, f"{mover}@example.org")
    seq = engine.load("nb1").seq
    text = f"{order}\n\nOn Monday gm wrote:\n> GAME nb1 PASSWORD nothing\n> b4xd4\n"
    outcome = engine.ingest(order_mail(f"{mover}@example.org", text, to=address,
                                       subject="Re: [nb1 T1] Neighbors report"))
    assert outcome.outcome == "applied", outcome.detail
    assert engine.load("nb1").seq == seq + 1


def test_the_envelope_recipient_headers_come_before_to(engine, nb_game):
    mover, order = mover_and_order(engine)
    address = reply_to(engine, f"{mover}@example.org")
    raw = order_mail(f"{mover}@example.org", order, to="gm@localhost", Delivered_To=address)
    assert engine.ingest(raw).outcome == "applied"
    mover, order = mover_and_order(engine)
    address = reply_to(engine, f"{mover}@example.org")
    raw = order_mail(f"{mover}@example.org", order, to="Someone <gm@localhost>", X_Original_To=address)
    assert engine.ingest(raw).outcome == "applied"


def forged(address: str) -> str:
    local, _, domain = address.rpartition("@")
    flipped = "0" if local[-1] != "0" else "1"
    return f"{local[:-1]}{flipped}@{domain}"


def test_a_forged_token_is_refused_and_changes_nothing(engine, nb_game):
    mover, order = mover_and_order(engine)
    seq = engine.load("nb1").seq
    start = last_outbox_id(engine)
    outcome = engine.ingest(order_mail(f"{mover}@example.org", order,
                                       to=forged(reply_to(engine, f"{mover}@example.org"))))
    assert outcome.outcome == "rejected" and "reply address of game nb1 that is not valid" in outcome.detail
    assert engine.load("nb1").seq == seq
    (reply,) = outbox(engine, start)
    assert "not valid" in body(reply)
    # A token of another seat's name with this seat's token: refused too.
    other = "bob" if mover == "ada" else "ada"
    swapped = reply_to(engine, f"{mover}@example.org").replace(f".{mover}.", f".{other}.")
    assert engine.ingest(order_mail(f"{other}@example.org", order, to=swapped)).outcome == "rejected"
    assert engine.load("nb1").seq == seq


def test_set_password_revokes_the_old_reply_address(engine, nb_game):
    mover, order = mover_and_order(engine)
    old = reply_to(engine, f"{mover}@example.org")
    engine.ingest(order_mail(f"{mover}@example.org", "SET PASSWORD new-password-1", game_id="nb1",
                             password=nb_game[mover]))
    new = reply_to(engine, f"{mover}@example.org")
    assert new != old
    seq = engine.load("nb1").seq
    refused = engine.ingest(order_mail(f"{mover}@example.org", order, to=old))
    assert refused.outcome == "rejected" and "it is old" in refused.detail
    assert engine.load("nb1").seq == seq
    assert engine.ingest(order_mail(f"{mover}@example.org", order, to=new)).outcome == "applied"


def test_a_password_in_the_mail_still_works_beside_a_reply_address(engine, nb_game):
    mover, order = mover_and_order(engine)
    raw = order_mail(f"{mover}@example.org", order, game_id="nb1", password=nb_game[mover],
                     to=forged(reply_to(engine, f"{mover}@example.org")))
    assert engine.ingest(raw).outcome == "applied"


def test_switched_off_no_reply_address_and_a_plus_address_is_no_credential(engine, nb_game):
    mover, order = mover_and_order(engine)
    address = reply_to(engine, f"{mover}@example.org")
    engine.config.reply_tokens = False
    start = last_outbox_id(engine)
    outcome = engine.ingest(order_mail(f"{mover}@example.org", order, to=address, subject="[nb1 T1] re"))
    assert outcome.outcome == "rejected" and "no password was given" in outcome.detail
    assert all(m["Reply-To"] is None for m in outbox(engine, start))
    # the refusal promises no reply address where there is none
    (refusal,) = outbox(engine, start)
    assert "PASSWORD RESET nb1" in body(refusal) and "reply to the latest report" not in body(refusal)


def test_the_secret_is_a_0600_file_outside_the_database(engine, nb_game, config):
    path = config.reply_token_secret_file
    assert path.exists() and path != config.database
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert path.read_bytes() not in engine.store.path.read_bytes()
    secret = secrets.load_or_create(path)
    assert secrets.load_or_create(path) == secret  # made once, then read
    assert tokens.make(secret, "nb1", "ada", 0) != tokens.make(b"x" * 32, "nb1", "ada", 0)
    assert tokens.make(secret, "nb1", "ada", 0) != tokens.make(secret, "nb1", "ada", 1)


@pytest.mark.parametrize("recipient", [
    "gm+nb1.ada.0123456789abcdef0123@elsewhere.org",  # not our domain
    "gmx+nb1.ada.0123456789abcdef0123@localhost",  # not our local part
    "gm+nb1.ada.0123@localhost",  # too short a token
    "gm+ada.0123456789abcdef0123@localhost",  # no game
    "gm+nb1.ada.0123456789abcdef012z@localhost",  # not hex
])
def test_parse_refuses_what_is_not_a_reply_address(recipient):
    assert tokens.parse("gm@localhost", recipient) is None


def test_parse_takes_game_ids_with_dots():
    assert tokens.parse("gm@localhost", "GM+nb.7.Ada.0123456789abcdef0123@LOCALHOST") == \
        ("nb.7", "ada", "0123456789abcdef0123")


def test_the_recipient_is_read_in_linear_time_from_hostile_headers():
    def hostile(times: int) -> rawmail.Fields:
        return rawmail.Fields(rawmail.read_header(("To: " + "gm+" * 75_000 * times + "\n\n").encode())[0])

    fields = hostile(4)
    assert mail_in.plus_recipient(fields, "gm@localhost") == ""
    # A quarter of the header, about a quarter of the CPU (support.growth), not a 0.5 s wall clock.
    assert growth(lambda f: mail_in.plus_recipient(f, "gm@localhost"), hostile(1), fields) < LINEAR_4X
    many = "".join(f"Delivered-To: x{i}@localhost\n" for i in range(5000)) + \
        "X-Original-To: gm+nb1.ada.0123456789abcdef0123@localhost\n"
    fields = rawmail.Fields(rawmail.read_header((many + "\n").encode())[0])
    assert mail_in.plus_recipient(fields, "gm@localhost") == "gm+nb1.ada.0123456789abcdef0123@localhost"


def test_gm_replace_revokes_the_old_players_reply_address(engine, nb_game):
    from gm.service.play import lifecycle

    mover, order = mover_and_order(engine)
    old = reply_to(engine, f"{mover}@example.org")
    lifecycle.replace(engine, "nb1", mover, "new@example.org", why="left")
    refused = engine.ingest(order_mail(f"{mover}@example.org", order, to=old))
    assert refused.outcome == "rejected" and "not valid" in refused.detail
    assert reply_to(engine, "new@example.org").startswith(f"gm+nb1.{mover}.")


def test_the_config_switches_load_from_yaml(tmp_path):
    from gm.core import config as config_module

    path = tmp_path / "gm.yaml"
    path.write_text(f"data_dir: {tmp_path}\nreply_tokens: false\nplayer_create_kinds: [Neighbors]\n"
                    f"reply_token_secret_file: {tmp_path / 'k'}\n")
    loaded = config_module.load(path)
    assert loaded.reply_tokens is False and loaded.player_create_kinds == ["neighbors"]
    assert loaded.reply_token_secret_file == tmp_path / "k"
    assert config_module.Config(data_dir=tmp_path).reply_token_secret_file == tmp_path / "reply-token.secret"
    path.write_text("player_create_kinds: neighbors\n")
    with pytest.raises(config_module.ConfigError, match="player_create_kinds"):
        config_module.load(path)
