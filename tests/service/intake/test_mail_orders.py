"""Order mails from .eml fixtures: what is applied, what is refused, what is answered."""

from __future__ import annotations

import pytest

from gm.mail.redact import redact
from support import body, eml, last_outbox_id, outbox

ON_BOTH_BACKENDS = True  # every test that uses the config: on SQLite and on PostgreSQL


def seq(engine, game="nb1") -> int:
    return engine.store.turns.latest_state(game)["seq"]


def board_after(engine):
    loaded = engine.load("nb1")
    return loaded.state


def assert_applied(engine, start_id, expected_move="Rb4xd4"):
    state = board_after(engine)
    assert state.moves and state.moves[-1].notation() == expected_move
    sent = outbox(engine, start_id)
    reports = [m for m in sent if m["Subject"].startswith("[gm nb1] ") and "game nb1, turn 2" in body(m)]
    assert {m["To"] for m in reports} == {"ada@example.org", "bob@example.org"}
    for msg in sent:
        for line in body(msg).splitlines():
            assert len(line) <= 72, line
        assert msg["Auto-Submitted"] in {"auto-generated", "auto-replied"}
    return reports


@pytest.mark.parametrize(
    "fixture",
    ["plain.eml", "multipart-alternative.eml", "html-only.eml", "quoted-printable.eml",
     "latin1.eml"],
)
def test_readable_mail_applies_the_order(engine, nb_game, fixture):
    start = last_outbox_id(engine)
    outcome = engine.ingest(eml(fixture, game="nb1", password=nb_game["ada"]))
    assert outcome.outcome == "applied", outcome.detail
    reports = assert_applied(engine, start)
    ada_copy = next(m for m in reports if m["To"] == "ada@example.org")
    # The sender's report threads under the order mail.
    raw_mid = engine.store.one("SELECT message_id FROM messages ORDER BY id DESC")["message_id"]
    assert ada_copy["In-Reply-To"] == raw_mid
    text = body(ada_copy)
    assert "ada: Rb4xd4 takes a knight" in text
    assert "To move: bob (13 legal orders)" in text  # NB5 example: 13 without the option


def test_unknown_charset_is_refused_with_a_reply(engine, nb_game):
    """A body in a charset gm cannot read is not guessed at (not read as UTF-8 either):
    the sender is told, and nothing changes."""
    start, before = last_outbox_id(engine), seq(engine)
    outcome = engine.ingest(eml("unknown-charset.eml", game="nb1", password=nb_game["ada"]))
    assert outcome.outcome == "rejected", outcome.detail
    assert seq(engine) == before
    (reply,) = outbox(engine, start)
    assert reply["To"] == "ada@example.org"
    assert "character set 'x-no-such-charset' is not one gm can read" in " ".join(body(reply).split())


def test_quoted_old_order_is_never_applied(engine, nb_game):
    start = last_outbox_id(engine)
    outcome = engine.ingest(eml("quoted-reply.eml", game="nb1", password=nb_game["ada"]))
    assert outcome.outcome == "applied"
    assert_applied(engine, start)  # b4xd4 from the new text, not d2xd4 from the quote
    ada_copy = next(m for m in outbox(engine, start) if m["To"] == "ada@example.org")
    assert "<earlier@localhost>" in ada_copy["References"]


@pytest.mark.parametrize(
    "fixture, words",
    [
        ("unknown-game.eml", "no game called 'nosuchgame'"),
        ("wrong-password.eml", "the password is wrong"),
        ("not-your-turn.eml", "it is not your turn (waiting for ada)"),
        ("bad-syntax.eml", "is not a capture"),
        ("illegal.eml", "the ferz on b2 cannot capture on d4"),
        ("empty.eml", "no orders and no commands"),
    ],
)
def test_bad_mail_gets_a_clear_reply_and_changes_nothing(engine, nb_game, fixture, words):
    before_seq, before_state = seq(engine), board_after(engine)
    start = last_outbox_id(engine)
    raw = eml(fixture, game="nb1", password=nb_game["ada"], bob_password=nb_game["bob"])
    outcome = engine.ingest(raw)
    assert outcome.outcome == "rejected"
    assert seq(engine) == before_seq and board_after(engine) == before_state
    (reply,) = outbox(engine, start)
    text = " ".join(body(reply).split())
    assert words in text
    assert reply["In-Reply-To"] and reply["Auto-Submitted"] == "auto-replied"
    assert reply["To"] in {"ada@example.org", "bob@example.org"}
    if fixture == "illegal.eml":
        # The reply lists the legal captures.
        assert "The legal orders are:" in body(reply) and "b4xd4" in body(reply)
    row = engine.store.one("SELECT outcome, raw FROM messages ORDER BY id DESC")
    # Kept with its password masked (secrets at rest), not byte for byte.
    assert row["outcome"] == "rejected" and bytes(row["raw"]) == redact(raw)


def test_robot_mail_is_stored_but_not_answered(engine, nb_game):
    start = last_outbox_id(engine)
    outcome = engine.ingest(eml("auto-reply.eml", game="nb1", password=nb_game["ada"]))
    assert outcome.outcome == "robot"
    assert outbox(engine, start) == []
    assert board_after(engine).moves == ()
    assert engine.store.one("SELECT outcome FROM messages")["outcome"] == "robot"


def test_our_own_mail_is_not_answered(engine, nb_game):
    start = last_outbox_id(engine)
    (welcome,) = [m for m in outbox(engine) if m["To"] == "ada@example.org"][:1]
    outcome = engine.ingest(welcome.as_bytes())
    assert outcome.outcome == "robot"
    assert outbox(engine, start) == []


def test_same_message_twice_is_applied_once(engine, nb_game):
    raw = eml("plain.eml", game="nb1", password=nb_game["ada"])
    assert engine.ingest(raw, "maildir:one").outcome == "applied"
    start = last_outbox_id(engine)
    # Same source key, and the same Message-ID under a new key (a redelivery).
    assert engine.ingest(raw, "maildir:one").outcome == "duplicate"
    assert engine.ingest(raw, "imap:1:99").outcome == "duplicate"
    assert len(board_after(engine).moves) == 1
    assert outbox(engine, start) == []


def test_help_and_board_commands(engine, nb_game):
    start = last_outbox_id(engine)
    outcome = engine.ingest(eml("help.eml", game="nb1", password=nb_game["ada"]))
    assert outcome.outcome == "help"
    (reply,) = outbox(engine, start)  # HELP and BOARD answered in one mail
    help_part, board_part = body(reply).split("=" * 72)
    assert "NB5." in help_part and "GAME <game id> PASSWORD" in help_part
    assert " 4  . R . N . B .  4" in board_part
    assert board_after(engine).moves == ()


def test_order_from_another_address_copies_the_registered_one(engine, nb_game):
    raw = eml("plain.eml", game="nb1", password=nb_game["ada"]).replace(
        b"ada@example.org", b"ada.work@example.com")
    start = last_outbox_id(engine)
    assert engine.ingest(raw).outcome == "applied"
    notes = [m for m in outbox(engine, start) if "another address" in m["Subject"]]
    assert [m["To"] for m in notes] == ["ada@example.org"]


def test_error_replies_are_rate_limited(engine, nb_game, config):
    config.error_replies_per_hour = 3
    start = last_outbox_id(engine)
    for i in range(6):
        raw = eml("wrong-password.eml", game="nb1").replace(b"wrong-pw-1", f"wrong-pw-{i}".encode())
        assert engine.ingest(raw).outcome == "rejected"
    assert len(outbox(engine, start)) == 3
    assert engine.store.one("SELECT COUNT(*) AS n FROM messages")["n"] == 6


def test_broken_input_is_stored_without_a_traceback(engine, nb_game):
    for raw in [b"", b"\x00\xff\xfe garbage", b"From: \nSubject: =?bogus?q?x?=\n\n\xff",
                b"Content-Type: multipart/mixed; boundary=\n\n--\n"]:
        outcome = engine.ingest(raw)
        assert outcome.outcome in {"robot", "rejected", "help"}
    assert engine.store.one("SELECT COUNT(*) AS n FROM messages")["n"] == 4


def test_a_remembered_password_does_not_open_the_door_to_a_wrong_one(engine, nb_game):
    assert engine.ingest(eml("plain.eml", game="nb1", password=nb_game["ada"])).outcome == "applied"
    wrong = eml("not-your-turn.eml", game="nb1", bob_password=nb_game["ada"])  # bob with ada's password
    outcome = engine.ingest(wrong)
    # ada's password names ada's seat, whoever sends it; it is bob's turn, so ada is refused.
    assert outcome.outcome == "rejected" and "not your turn" in outcome.detail
    bad = eml("wrong-password.eml", game="nb1").replace(b"wrong-pw-1", b"wrong-pw-x")
    assert engine.ingest(bad).outcome == "rejected"
    assert len(engine.load("nb1").state.moves) == 1


def test_a_prepared_mail_is_judged_on_the_password_check_prepare_started(engine, nb_game, monkeypatch):
    from gm.core import passwords

    right = eml("plain.eml", game="nb1", password=nb_game["ada"])
    wrong = eml("wrong-password.eml", game="nb1")
    prepared = [engine.prepare(right), engine.prepare(wrong)]
    assert engine.passwords.pending == 2  # both checks under way before anything is judged
    ada_hash = engine.store.seats.player("nb1", "ada")["pw_hash"]
    hashed_again = []
    real_verify = passwords.verify

    def verify(password, stored):
        hashed_again.append(stored)
        return real_verify(password, stored)

    monkeypatch.setattr(passwords, "verify", verify)
    assert engine.ingest(right, inbound=prepared[0]).outcome == "applied"
    outcome = engine.ingest(wrong, inbound=prepared[1])
    assert outcome.outcome == "rejected" and "password is wrong" in outcome.detail
    assert len(engine.load("nb1").state.moves) == 1
    # ada's seat was judged on the prepared checks; only bob's seat was tried afresh.
    assert ada_hash not in hashed_again and len(hashed_again) == 1
    engine.close()
