"""A lock never loses the owner's order: forged wrong passwords lock a seat, and the owner's right
password is then held, not refused, until the seat's registered address confirms it (with reply
tokens on and off); confirmed while its turn is open it is judged as it came, after the turn closed
it is refused as an old turn's; a wrong password during the lock is still refused and counted."""

from __future__ import annotations

import re

import pytest

from gm.service.people import guessing
from mailroom import Mailroom, text_of
from support import EXAMPLE_LAYOUT, PLAYERS, Clock, last_outbox_id, order_mail, outbox

ADA, BOB, EVE = "ada@example.org", "bob@example.org", "eve@evil.example"
MOVE = "Rb4xd4"  # ada's first move in nb1 (tests/runtime/test_attacks.py)
DAY = 86400.0
ON_BOTH_BACKENDS = True  # the engine tests run on SQLite and PostgreSQL (the release takes locks late)


def flat(msg) -> str:
    return " ".join(text_of(msg).split())


def exchange(room: Mailroom, *raws: bytes) -> list[tuple[str, str, str]]:
    """``raws`` into the inbox Maildir, one pass of `gm run --once`: the mails it wrote, as
    (envelope recipient, subject, flattened text)."""
    for raw in raws:
        room.deliver(raw)
    return [(envelope, msg["Subject"], flat(msg)) for envelope, msg in room.run()]


def code_in(subject: str) -> str:
    return re.search(r"CONFIRM (\w+)", subject).group(1)


def forged_guesses(sender: str = ADA, game_id: str = "nb1") -> list[bytes]:
    return [order_mail(sender, "BOARD", game_id=game_id, password=f"guess-{n:04d}")
            for n in range(guessing.FAILURE_LIMIT)]


def moves(engine, game_id: str = "nb1") -> int:
    view = engine.load(game_id)
    return len(view.state.moves)


def room_with_nb1(tmp_path, tokens: bool, clock) -> tuple[Mailroom, dict[str, str]]:
    # the forged guesses' refusals leave room for ada's answers (the cap on them is not tested here)
    room = Mailroom(tmp_path, "error_replies_per_hour: 50\n" + ("" if tokens else "reply_tokens: false\n"),
                    clock)
    secrets = room.engine.create_game("neighbors", "nb1", PLAYERS, seed=5, options={"layout": EXAMPLE_LAYOUT})
    exchange(room)  # the welcomes
    return room, secrets


# --- through the daemon: held, confirmed, judged ----------------------------------------------------
@pytest.mark.parametrize("tokens", [True, False])
def test_forged_guesses_then_the_owners_password_is_held_and_judged_once_confirmed(tmp_path, tokens):
    clock = Clock()
    room, secrets = room_with_nb1(tmp_path, tokens, clock)
    exchange(room, *forged_guesses())  # From: ada, forged: her seat and her address are locked
    assert guessing.seat_locked(room.engine, "nb1", "ada")
    clock.advance(60)
    mails = exchange(room, order_mail(ADA, MOVE, game_id="nb1", password=secrets["ada"]))
    assert room.outcomes()[-1] == "held" and moves(room.engine) == 0
    # One mail, to the registered address: the code to confirm it.
    ((address, subject, text),) = mails
    assert address == ADA and re.fullmatch(r"CONFIRM \w+: confirm your held mail \(nb1\)", subject)
    assert "held" in text and "deadline does not wait" in text
    assert ("reply address" in text) is tokens  # no reply address promised where there is none
    (row,) = room.engine.store.all("SELECT * FROM messages WHERE outcome = 'held'")
    assert row["auth"] == "password nb1 ada 1" and secrets["ada"].encode() not in bytes(row["raw"])
    came = row["received"]
    clock.advance(600)
    # ada replies to the code mail (nothing written): her move is judged, as it came.
    mails = exchange(room, order_mail(ADA, "Yes, that was me.", subject=f"Re: {subject}"))
    assert moves(room.engine) == 1
    assert room.engine.store.inbox.message(row["id"])["outcome"] == "applied"
    (order,) = room.engine.store.all("SELECT at, turn FROM orders WHERE accepted = 1 AND player = 'ada'")
    assert order["at"] == came and order["turn"] == 1
    assert "Held mail confirmed" in [m[1] for m in mails if m[0] == ADA][0]
    reports = [m[0] for m in mails if m[1] == "[gm nb1] Neighbors report" and "game nb1, turn 2" in m[2]]
    assert BOB in reports  # the report of the move reached bob
    assert ADA in reports  # and ada, as the answer to her order


@pytest.mark.parametrize("tokens", [True, False])
def test_the_refusal_during_a_lock_promises_a_reply_address_only_where_there_is_one(tmp_path, tokens):
    room, secrets = room_with_nb1(tmp_path, tokens, Clock())
    mails = exchange(room, *forged_guesses())
    (notice,) = [m for m in mails if m[1].endswith("Wrong passwords for your seat")]
    assert ("reply address" in notice[2]) is tokens and "held" in notice[2]
    mails = exchange(room, order_mail(ADA, MOVE, game_id="nb1", password="one-more-guess"))
    ((address, _, text),) = mails
    assert address == ADA and "Your mail was not read" in text
    assert ("reply address" in text) is tokens and ("Reply" in text or "reply" in text) is tokens


# --- the turn closes before the confirmation -------------------------------------------------------
def test_a_confirmation_after_the_turn_closed_is_refused_as_an_old_turn(engine, clock):
    secrets = engine.create_game("fuzzy-borders", "fb1", PLAYERS, seed=5, options={"deadline": "12h"})
    assert engine.ingest(order_mail(BOB, "J10", game_id="fb1", password=secrets["bob"])).outcome == "sealed"
    for raw in forged_guesses(game_id="fb1"):
        engine.ingest(raw)
    held = engine.ingest(order_mail(ADA, "J12", game_id="fb1", password=secrets["ada"]))
    assert held.outcome == "held"
    (code_mail,) = [m for m in outbox(engine) if m["Subject"].startswith("CONFIRM")]
    clock.advance(DAY / 2 + 60)  # the deadline passes: it does not wait for the confirmation
    start = last_outbox_id(engine)
    engine.ingest(order_mail(ADA, f"CONFIRM {code_in(code_mail['Subject'])}"))
    view = engine.load("fb1")
    assert view.turn == 2 and view.rules.dump(view.state)["claims"]["ada"] == []
    (row,) = engine.store.all("SELECT outcome, detail FROM messages WHERE auth = 'password fb1 ada 1'")
    assert row["outcome"] == "rejected" and "turn 1" in row["detail"] and "closed" in row["detail"]
    (refusal,) = [m for m in outbox(engine, start) if "old turn" in m["Subject"]]
    assert refusal["To"] == ADA and "not read" in " ".join(text_of(refusal).split())


# --- what stays refused ---------------------------------------------------------------------------
def test_a_wrong_password_during_the_lock_is_refused_and_counted(engine, nb_game):
    engine.config.error_replies_per_hour = 50  # the forged guesses' refusals leave ada's answers room
    for raw in forged_guesses():
        engine.ingest(raw)
    failures = engine.store.one("SELECT count(*) AS n FROM credential_failures")["n"]
    start = last_outbox_id(engine)
    outcome = engine.ingest(order_mail(ADA, MOVE, game_id="nb1", password="not-her-password"))
    assert outcome.outcome == "rejected" and moves(engine) == 0
    assert engine.store.one("SELECT count(*) AS n FROM credential_failures")["n"] == failures + 1
    assert [m["Subject"].startswith("CONFIRM") for m in outbox(engine, start)] == [False]
    assert engine.store.all("SELECT id FROM messages WHERE outcome = 'held'") == []


def test_a_forger_cannot_confirm_the_code_goes_to_the_registered_address_only(engine, nb_game):
    for raw in forged_guesses():
        engine.ingest(raw)
    start = last_outbox_id(engine)
    assert engine.ingest(order_mail(ADA, MOVE, game_id="nb1", password=nb_game["ada"])).outcome == "held"
    (code_mail,) = outbox(engine, start)
    assert code_mail["To"] == ADA
    code = code_in(code_mail["Subject"])
    assert all(code not in m.as_string() for m in outbox(engine) if m["To"] != ADA)
    # From eve, the code is refused; a wrong code from ada's address (forged) does nothing either.
    engine.ingest(order_mail(EVE, f"CONFIRM {code}"))
    engine.ingest(order_mail(ADA, "CONFIRM " + ("x" * len(code))))
    assert moves(engine) == 0 and len(engine.store.all("SELECT id FROM messages WHERE outcome = 'held'")) == 1
    engine.ingest(order_mail(ADA, f"CONFIRM {code}"))
    assert moves(engine) == 1
    engine.ingest(order_mail(ADA, f"CONFIRM {code}"))  # used: nothing is judged twice
    assert moves(engine) == 1 and engine.store.all("SELECT id FROM messages WHERE outcome = 'held'") == []


def test_mails_held_within_the_hour_share_one_code_and_are_judged_in_order(engine, nb_game, clock):
    for raw in forged_guesses():
        engine.ingest(raw)
    start = last_outbox_id(engine)
    assert engine.ingest(order_mail(ADA, "BOARD", game_id="nb1", password=nb_game["ada"])).outcome == "held"
    clock.advance(60)
    assert engine.ingest(order_mail(ADA, MOVE, game_id="nb1", password=nb_game["ada"])).outcome == "held"
    first, second = outbox(engine, start)
    assert first["Subject"].startswith("CONFIRM") and "Held until you confirm" in second["Subject"]
    assert second["To"] == ADA and "confirm" in " ".join(text_of(second).split())
    engine.ingest(order_mail(ADA, f"CONFIRM {code_in(first['Subject'])}"))
    assert moves(engine) == 1
    outcomes = [r["outcome"] for r in engine.store.all("SELECT outcome FROM messages ORDER BY id")]
    assert outcomes[-3:] == ["help", "applied", "help"]  # BOARD, the move, the CONFIRM itself


def test_a_held_claim_does_not_replace_a_later_one_judged_before_the_confirmation(engine, clock):
    secrets = engine.create_game("fuzzy-borders", "fb1", PLAYERS, seed=5, options={"deadline": "12h"})
    engine.ingest(order_mail(BOB, "BOARD", game_id="fb1", password=secrets["bob"]))  # a mail with bob's token
    for raw in forged_guesses(game_id="fb1"):
        engine.ingest(raw)
    assert engine.ingest(order_mail(ADA, "J12", game_id="fb1", password=secrets["ada"])).outcome == "held"
    (code_mail,) = [m for m in outbox(engine) if m["Subject"].startswith("CONFIRM")]
    clock.advance(60)  # ada replies to a report of fb1: its reply address passes the lock at once
    reply = engine.outbox.tokens.reply_to("fb1", ADA)
    assert engine.ingest(order_mail(ADA, "J10", to=reply)).outcome == "sealed"
    engine.ingest(order_mail(ADA, f"CONFIRM {code_in(code_mail['Subject'])}"))
    view = engine.load("fb1")
    assert view.rules.dump(view.state)["sealed"] == {"ada": "J10"}  # her later claim stands
    (row,) = engine.store.all("SELECT outcome, detail FROM messages WHERE auth = 'password fb1 ada 1'")
    assert row["outcome"] == "rejected" and "later mail" in row["detail"]
