"""The credential model at its edges, each driven by mail through engine.ingest and asserting
the state and every mail queued: codes stored as a keyed digest (and older ones still honoured until
they expire), LEAVE and PASSWORD RESET of a game not started go through the same credential model
and throttle as a running game's, a reply by token set aside during a lock-out counts as its seat,
and a password written on an order line is kept nowhere."""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import stat

from gm.core import secrets
from gm.mail import inbound as mail_in
from gm.service.intake import ingest
from gm.service.people import guessing, lobby
from support import body, last_outbox_id, order_mail, outbox

ADA, BOB, EVE = "ada@example.org", "bob@example.org", "eve@evil.example"
VICTIM, REFEREE = "vic@example.org", "referee@example.org"
HOUR = 3600.0
ON_BOTH_BACKENDS = True  # the credential and code queries are portable SQL


def sent(engine, start):
    """Every mail queued since ``start``: (recipient, subject without the ": orders" a reply
    repeats, flattened body)."""
    return [(m["To"], m["Subject"].removesuffix(": orders"), " ".join(body(m).split()))
            for m in outbox(engine, start)]


def mail(engine, sender, text, **kwargs):
    """Ingest one mail; returns (its outcome, every mail queued for it)."""
    start = last_outbox_id(engine)
    outcome = engine.ingest(order_mail(sender, text, **kwargs))
    return outcome, sent(engine, start)


def code_in(subject):
    return re.search(r"CONFIRM (\w+)", subject).group(1)


def keyed(engine, code):
    """The digest a code must be stored as: HMAC-SHA256 under the secret file, computed here."""
    key = secrets.load_or_create(engine.config.code_secret_file)
    return hmac.new(key, code.lower().encode(), "sha256").hexdigest()


def plain(code):
    return hashlib.sha256(code.lower().encode()).hexdigest()


def open_nb7(engine):
    lobby.open_game(engine, "neighbors", "nb7", 3, min_seats=2, seed=4)


def joined(engine, sender, name):
    """JOIN nb7 by mail, confirmed by a reply to the code; the seat's password."""
    _, mails = mail(engine, sender, f"JOIN nb7 {name}")
    _, mails = mail(engine, sender, "", subject="Re: " + mails[0][1])
    ((address, _, text),) = mails
    assert address == sender and f"You have joined game nb7 (Neighbors) as {name}" in text
    return re.search(r"Your password: (\w+)", text).group(1)


def in_nb7(engine):
    return [(p["name"], p["email"]) for p in engine.store.seats.players("nb7")]


# --- 1. codes: a keyed digest, the key outside the store ---------------------------------------
def test_codes_are_stored_as_an_hmac_under_a_secret_file_outside_the_store(engine, nb_game):
    _, mails = mail(engine, ADA, "PASSWORD RESET nb1")
    ((address, subject, _),) = mails
    reset = code_in(subject)
    _, mails = mail(engine, VICTIM, "OBSERVE nb1")
    ((address, subject, _),) = mails
    assert address == VICTIM
    observe = code_in(subject)
    (seat_code,) = engine.store.all("SELECT * FROM address_codes")
    (request,) = engine.store.all("SELECT * FROM pending_requests")
    assert seat_code["code_hash"] == keyed(engine, reset) != plain(reset)
    assert request["code_hash"] == keyed(engine, observe) != plain(observe)
    path = engine.config.code_secret_file
    assert path == engine.config.data_dir / "code-secret" and stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert path != engine.config.reply_token_secret_file
    # Both codes still confirm, each from its own address.
    _, mails = mail(engine, VICTIM, f"CONFIRM {observe}")
    assert [(m[0], "You now follow game nb1" in m[2]) for m in mails] == [(VICTIM, True)]
    _, mails = mail(engine, ADA, f"CONFIRM {reset.upper()}")
    assert [(m[0], m[1]) for m in mails] == [(ADA, "[gm nb1] New password for nb1")]


def test_codes_pending_when_the_store_was_upgraded_work_until_they_expire(engine, nb_game, clock):
    """Rows an older gm wrote hold a plain sha256: they are found by it as a fallback."""
    _, mails = mail(engine, ADA, "PASSWORD RESET nb1")
    reset = code_in(mails[0][1])
    _, mails = mail(engine, VICTIM, "OBSERVE nb1")
    observe = code_in(mails[0][1])
    _, mails = mail(engine, "vic2@example.org", "OBSERVE nb1")
    late = code_in(mails[0][1])
    with engine.store.write():  # as the older gm stored them
        for table, code in (("address_codes", reset), ("pending_requests", observe),
                            ("pending_requests", late)):
            engine.store.db.execute(f"UPDATE {table} SET code_hash = :plain WHERE code_hash = :keyed",
                                    {"plain": plain(code), "keyed": keyed(engine, code)})
    _, mails = mail(engine, VICTIM, f"CONFIRM {observe}")
    assert [(m[0], "You now follow game nb1" in m[2]) for m in mails] == [(VICTIM, True)]
    _, mails = mail(engine, ADA, f"CONFIRM {reset}")
    ((address, subject, text),) = mails
    assert (address, subject) == (ADA, "[gm nb1] New password for nb1")
    new = re.search(r"\(seat ada\): (\w+)", text).group(1)
    outcome, _ = mail(engine, ADA, "BOARD", game_id="nb1", password=new)
    assert outcome.outcome == "help"
    # An old-style code past its time is refused, as any expired code is.
    clock.advance(3 * 86400 + 1)
    _, mails = mail(engine, "vic2@example.org", f"CONFIRM {late}")
    assert [(m[0], "used or expired" in m[2]) for m in mails] == [("vic2@example.org", True)]
    assert [r["email"] for r in engine.store.all("SELECT email FROM observers")] == [VICTIM]


# --- 2. LEAVE of a game not started: the same throttle -------------------------------------------
def test_leave_of_an_open_game_is_throttled_like_any_password(engine, clock):
    engine.config.gm_address = REFEREE
    open_nb7(engine)
    secret = joined(engine, ADA, "ada")
    start = last_outbox_id(engine)
    for n in range(guessing.FAILURE_LIMIT):  # eve guesses, to make ada leave
        outcome = engine.ingest(order_mail(EVE, "LEAVE nb7", game_id="nb7", password=f"guess-{n:04d}"))
        assert outcome.outcome == "help" and "nobody left" in outcome.detail
    assert engine.store.one("SELECT count(*) AS n FROM credential_failures")["n"] == guessing.FAILURE_LIMIT
    # The right password, now: refused, the seat locked; ada is told why.
    outcome = engine.ingest(order_mail(ADA, "LEAVE nb7", game_id="nb7", password=secret))
    assert "refuses passwords" in outcome.detail and in_nb7(engine) == [("ada", ADA)]
    mails = sent(engine, start)
    assert [m for m in mails if m[0] == EVE] == [m for m in mails if m[0] == EVE and "nobody left" in m[2]]
    assert len([m for m in mails if m[0] == EVE]) == guessing.FAILURE_LIMIT
    assert [m[1] for m in mails if m[0] == ADA] == ["[gm nb7] Wrong passwords for your seat",
                                                   "[gm] Not started"]
    assert "refuses passwords for this seat" in mails[-1][2] and mails[-1][0] == ADA
    assert sorted(m[1] for m in mails if m[0] == REFEREE) == [
        "[gm] Passwords from eve@evil.example refused for an hour",
        "[nb7] Passwords of seat ada refused for an hour"]
    assert len(mails) == guessing.FAILURE_LIMIT + 4
    clock.advance(HOUR + 1)  # the lock is over: the right password leaves
    _, mails = mail(engine, ADA, "LEAVE nb7", game_id="nb7", password=secret)
    assert [(m[0], "You have left game nb7" in m[2]) for m in mails] == [(ADA, True)]
    assert in_nb7(engine) == []


# --- 3. a reply by token set aside during a lock-out ------------------------------------------
def test_a_reply_by_token_with_a_locked_out_password_set_aside_is_retried_as_its_seat(
        engine, nb_game, monkeypatch, breaking_reader):
    for n in range(guessing.FAILURE_LIMIT):  # a stranger's guesses lock every seat
        engine.ingest(order_mail(EVE, "BOARD", game_id="nb1", password=f"guess-{n:04d}"))
    assert guessing.seat_locked(engine, "nb1", "ada") and guessing.seat_locked(engine, "nb1", "bob")
    view = engine.load("nb1")
    (mover,) = view.rules.to_move(view.state)
    move = view.rules.legal_orders(view.state, mover)[0]
    reply = engine.outbox.tokens.reply_to("nb1", f"{mover}@example.org")
    raw = order_mail(f"{mover}@example.org", move, game_id="nb1", password=nb_game[mover], to=reply,
                     X_Trigger="BOOM")
    assert engine.ingest(raw).outcome == "error"
    (row,) = engine.store.all("SELECT * FROM messages WHERE outcome = 'error'")
    assert row["auth"] == f"token nb1 {mover}"  # as intake.authenticate would have taken it
    assert nb_game[mover].encode() not in bytes(row["raw"])
    monkeypatch.setattr(mail_in, "parse", breaking_reader)  # the fault is fixed
    start = last_outbox_id(engine)
    outcome = ingest.retry(engine, row["id"])
    assert outcome.outcome == "applied" and len(engine.load("nb1").state.moves) == 1
    assert sorted(m["To"] for m in outbox(engine, start)) == [ADA, BOB]


# --- 4. PASSWORD RESET of a seat of an open game -----------------------------------------------
def test_password_reset_works_for_a_seat_of_a_game_not_started(engine):
    open_nb7(engine)
    secret = joined(engine, ADA, "ada")
    joined(engine, BOB, "bob")
    before = dict(engine.store.seats.player("nb7", "ada"))
    _, mails = mail(engine, EVE, "PASSWORD RESET nb7 ada")  # anyone may ask: the code goes to ada
    assert sorted(m[0] for m in mails) == [ADA, EVE]
    (code_mail,) = [m for m in mails if m[0] == ADA]
    assert re.fullmatch(r"CONFIRM \w+: confirm your password reset \(nb7\)", code_mail[1])
    assert [m[1] for m in mails if m[0] == EVE] == ["[gm] Password not reset"]
    assert dict(engine.store.seats.player("nb7", "ada")) == before  # nothing changed yet
    _, mails = mail(engine, EVE, f"CONFIRM {code_in(code_mail[1])}")  # not from ada's address
    assert [(m[0], "nothing changed" in m[2] or "not the address" in m[2]) for m in mails] == [(EVE, True)]
    _, mails = mail(engine, ADA, f"CONFIRM {code_in(code_mail[1])}")
    ((address, subject, text),) = mails
    assert (address, subject) == (ADA, "[gm nb7] New password for nb7")
    new = re.search(r"\(seat ada\): (\w+)", text).group(1)
    assert new != secret and engine.store.seats.player("nb7", "ada")["generation"] > before["generation"]
    history = [r["detail"] for r in engine.store.all("SELECT detail FROM history WHERE game_id = 'nb7'")]
    assert any("reset by PASSWORD RESET, confirmed from the registered address" in d for d in history)
    # The old password leaves no more; the new one does.
    _, mails = mail(engine, ADA, "LEAVE nb7", game_id="nb7", password=secret)
    assert [(m[0], "nobody left" in m[2]) for m in mails] == [(ADA, True)]
    _, mails = mail(engine, ADA, "LEAVE nb7", game_id="nb7", password=new)
    assert [(m[0], "You have left game nb7" in m[2]) for m in mails] == [(ADA, True)]
    assert in_nb7(engine) == [("bob", BOB)]


# --- 5. a password on the order line ----------------------------------------------------------
def test_a_password_on_the_order_line_is_kept_nowhere(engine, nb_game):
    view = engine.load("nb1")
    (mover,) = view.rules.to_move(view.state)
    move = view.rules.legal_orders(view.state, mover)[0]
    secret, address = nb_game[mover], f"{mover}@example.org"
    start = last_outbox_id(engine)
    outcome = engine.ingest(order_mail(address, f"GAME nb1 PASSWORD {secret} {move}", subject="orders"))
    assert outcome.outcome == "rejected"  # the line is judged as written, and is not an order
    (order,) = engine.store.all("SELECT * FROM orders WHERE game_id = 'nb1'")
    assert order["text"] == f"GAME nb1 PASSWORD *** {move}" and not order["accepted"]
    mails = outbox(engine, start)
    assert [m["To"] for m in mails] == [address]
    assert "PASSWORD ***" in body(mails[0]) and secret not in body(mails[0])
    for table in ("orders", "reports", "outbox", "history", "messages"):
        for row in engine.store.all(f"SELECT * FROM {table}"):
            assert secret not in " ".join(str(v) for v in dict(row).values()), table


def test_code_secret_file_is_a_config_key(tmp_path):
    from gm.core import config as config_module

    path = tmp_path / "gm.yaml"
    path.write_text(f"data_dir: {tmp_path / 'data'}\ncode_secret_file: {tmp_path / 'k'}\n")
    assert config_module.load(path).code_secret_file == tmp_path / "k"
    assert config_module.Config(data_dir=tmp_path).code_secret_file == tmp_path / "code-secret"
