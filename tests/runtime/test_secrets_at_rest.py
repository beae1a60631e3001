"""Passwords at rest, never in clear nor world-readable: once the mail that carries a password, a
code or a reply token is handed on, no table holds it, and gm's files are its user's alone.

Driven through the Maildir daemon (gm.runtime.daemon.run, once): the welcomes go out, then an order
mail with its password in every place a mail can hold it, a reply by token, a PASSWORD RESET, a SET
ADDRESS and its CONFIRM.  Then every text and blob column of every table is searched, packed mail
and text unpacked and every MIME part decoded, for each secret."""

from __future__ import annotations

import email
import email.policy
import grp
import hashlib
import os
import re
import stat
from email.message import EmailMessage
from pathlib import Path

import pytest

from gm.mail import inbound as mail_in
from gm.service.intake import ingest
from gm.runtime.delivery import flush
from gm.runtime.maildir import MaildirTransport
from gm.runtime.transport import PermanentFailure
from gm.store.packing import unpack_mail
from mailroom import Mailroom, leaks, mode, text_of
from support import EXAMPLE_LAYOUT, GM_ADDRESS, PLAYERS, body, last_outbox_id, order_mail, outbox

ON_BOTH_BACKENDS = True  # the tests on the engine fixture: SQLite and PostgreSQL

ADA, BOB = dict(PLAYERS)["ada"], dict(PLAYERS)["bob"]
NEW_ADA = "ada@new.example"


# --- the attack -----------------------------------------------------------------------------------------
def hostile_order_mail(password: str, move: str, reply_address: str) -> bytes:
    """ada's order, her password in the subject (RFC 2047), a quoted-printable text part with a
    quoted reply, a base64 HTML part, and her reply address in Cc."""
    msg = EmailMessage()
    msg["From"] = f"Ada <{ADA}>"
    msg["To"] = GM_ADDRESS
    msg["Cc"] = reply_address
    msg["Subject"] = f"Re: GAME nb1 PASSWORD {password} — orders"
    msg["Message-ID"] = "<ada-order@example.org>"
    msg.set_content(f"GAME nb1 PASSWORD {password}\n{move}\n\nOn Monday gm wrote:\n"
                    f"> GAME nb1 PASSWORD {password}\n> épée\n", cte="quoted-printable")
    msg.add_alternative(f"<p>GAME nb1 PASS&#87;ORD <b>{password}</b></p><p>{move}</p>"
                        f"<blockquote>GAME nb1 PASSWORD {password}</blockquote>", subtype="html",
                        cte="base64")
    return bytes(msg)


def test_passwords_codes_and_tokens_are_not_kept_once_handed_on(tmp_path):
    room = Mailroom(tmp_path)
    engine = room.engine
    passwords = engine.create_game("neighbors", "nb1", PLAYERS, seed=5, options={"layout": EXAMPLE_LAYOUT})
    ada_reply = engine.outbox.tokens.reply_to("nb1", ADA)
    bob_reply = engine.outbox.tokens.reply_to("nb1", BOB)
    welcomes = room.run()
    assert sorted(to for to, _ in welcomes) == [ADA, BOB]
    for to, msg in welcomes:  # handed on whole: the player has her password
        assert msg["Subject"].endswith("Welcome to Neighbors") and passwords[msg["To"][:3]] in text_of(msg)

    room.deliver(hostile_order_mail(passwords["ada"], "Rb4xd4", ada_reply))
    reports = room.run()
    assert room.outcomes() == ["applied"]
    assert engine.load("nb1").state.moves[-1].notation() == "Rb4xd4"
    assert sorted(to for to, _ in reports) == [ADA, BOB]

    view = engine.load("nb1")
    bob_move = view.rules.legal_orders(view.state, "bob")[0]
    room.deliver(order_mail(BOB, bob_move, to=bob_reply, subject="Re: [nb1 T2] report"))
    reports = room.run()
    assert room.outcomes()[-1] == "applied", engine.store.one("SELECT detail FROM messages ORDER BY id DESC")["detail"]
    assert len(engine.load("nb1").state.moves) == 2
    assert sorted(to for to, _ in reports) == [ADA, BOB]

    # PASSWORD RESET mails the registered address a code; sent back from there, a new password.
    room.deliver(order_mail(ADA, "PASSWORD RESET nb1"))
    (asked,) = room.run()
    assert asked[0] == ADA and "confirm your password reset" in asked[1]["Subject"]
    reset_code = re.search(r"CONFIRM (\w+)", asked[1]["Subject"]).group(1)
    room.deliver(order_mail(ADA, "Yes.", subject=f"Re: {asked[1]['Subject']}"))
    (reset,) = room.run()
    assert reset[0] == ADA and "new password" in reset[1]["Subject"].lower()
    new_password = re.search(r"\(seat ada\): (\w+)", text_of(reset[1])).group(1)

    room.deliver(order_mail(ADA, f"SET ADDRESS {NEW_ADA}", game_id="nb1", password=new_password))
    sent = dict(room.run())
    assert set(sent) == {ADA, NEW_ADA} and "Address change started" in sent[ADA]["Subject"]
    code = re.search(r"CONFIRM (\w+)", sent[NEW_ADA]["Subject"]).group(1)
    room.deliver(order_mail(NEW_ADA, "Yes, it is me.", subject=f"Re: CONFIRM {code}: confirm your new address"))
    sent = room.run()
    assert sorted(to for to, _ in sent) == [ADA, NEW_ADA]
    assert engine.load("nb1").player("ada")["email"] == NEW_ADA
    assert room.outcomes() == ["applied", "applied", "help", "help", "help", "help"]
    subjects = sorted((to, m["Subject"]) for to, m in sent)
    revert_code = re.search(r"CONFIRM (\w+)", subjects[0][1]).group(1)
    assert subjects == [
        (ADA, f"CONFIRM {revert_code}: your address changed; reply to undo it (nb1)"),
        (NEW_ADA, "[gm nb1] Address changed: Re: CONFIRM [redacted]: confirm your new address")]

    secrets = [passwords["ada"], passwords["bob"], new_password, code, reset_code, revert_code,
               ada_reply.split("@")[0].rpartition(".")[2], bob_reply.split("@")[0].rpartition(".")[2]]
    found = leaks(engine, secrets)
    assert found == [], found
    # Nor a plain digest of a code, which a 50-bit code does not survive: they are keyed (gm.core.codes).
    plain = [hashlib.sha256(c.lower().encode()).hexdigest() for c in (code, reset_code, revert_code)]
    assert leaks(engine, plain) == []
    # The store still says what happened: the masked mails, the blanked welcomes' headers.
    (kept,) = engine.store.all("SELECT raw, subject FROM messages WHERE message_id = '<ada-order@example.org>'")
    assert b"Rb4xd4" in bytes(kept["raw"]) and "[redacted]" in kept["subject"]
    welcome_rows = engine.store.all("SELECT subject, secret FROM outbox WHERE kind = 'welcome'")
    assert [r["secret"] for r in welcome_rows] == [1, 1]

    data = Path(room.config.data_dir)
    assert mode(data) == 0o700 and mode(room.config.database) == 0o600
    for suffix in ("-wal", "-shm"):
        wal = Path(str(room.config.database) + suffix)
        assert not wal.exists() or mode(wal) == 0o600
    assert mode(room.config.reply_token_secret_file) == 0o600  # (no VERP secret: a Maildir has no envelope)
    assert mode(room.config.code_secret_file) == 0o600
    for box in (room.config.inbox, room.config.outbox):
        assert mode(box) == 0o700 and all(mode(Path(box) / sub) == 0o700 for sub in ("tmp", "new", "cur"))
    written = list((Path(room.config.outbox) / "new").iterdir())
    assert len(written) == 2 + 2 + 2 + 1 + 1 + 2 + 2 and all(mode(p) == 0o600 for p in written)


def test_with_a_group_the_store_is_shared_with_it(tmp_path):
    group = grp.getgrgid(os.getgid()).gr_name
    room = Mailroom(tmp_path, f"group: {group}\n")
    room.engine.create_game("neighbors", "nb1", PLAYERS, seed=5)
    room.run()
    data = Path(room.config.data_dir)
    assert stat.S_IMODE(os.stat(data).st_mode) == 0o2770 and os.stat(data).st_gid == os.getgid()
    files = [Path(room.config.database), room.config.reply_token_secret_file,
             *(Path(room.config.outbox) / "new").iterdir()]
    files += [p for p in (Path(str(room.config.database) + "-wal"), Path(str(room.config.database) + "-shm"))
              if p.exists()]
    assert len(files) >= 4 and all(mode(p) == 0o660 and os.stat(p).st_gid == os.getgid() for p in files)
    assert mode(room.config.outbox) == 0o2770


def test_an_unknown_group_is_refused(tmp_path):
    from gm.core.filemodes import GroupError

    with pytest.raises(GroupError):
        Mailroom(tmp_path, "group: no-such-group-here\n")


# --- a mail set aside keeps whom it authenticated as, not its password ---------------------------------
def first_move(engine):
    view = engine.load("nb1")
    (mover,) = view.rules.to_move(view.state)
    return mover, view.rules.legal_orders(view.state, mover)[0]


def set_aside(engine, raw: bytes):
    assert engine.ingest(raw).outcome == "error"
    (row,) = engine.store.all("SELECT * FROM messages WHERE outcome = 'error'")
    return row


def test_a_reply_by_token_set_aside_is_retried_as_its_seat(engine, nb_game, monkeypatch, breaking_reader):
    mover, move = first_move(engine)
    reply = engine.outbox.tokens.reply_to("nb1", f"{mover}@example.org")
    token = reply.split("@")[0].rpartition(".")[2]
    row = set_aside(engine, order_mail(f"{mover}@example.org", move, to=reply, X_Trigger="BOOM"))
    assert row["auth"] == f"token nb1 {mover}" and token.encode() not in bytes(row["raw"])
    monkeypatch.setattr(mail_in, "parse", breaking_reader)  # the fault is fixed
    start = last_outbox_id(engine)
    outcome = ingest.retry(engine, row["id"])
    assert outcome.outcome == "applied" and len(engine.load("nb1").state.moves) == 1
    assert sorted(m["To"] for m in outbox(engine, start)) == ["ada@example.org", "bob@example.org"]


def test_a_wrong_password_set_aside_stays_wrong_on_retry(engine, nb_game, monkeypatch, breaking_reader):
    mover, move = first_move(engine)
    row = set_aside(engine, order_mail(f"{mover}@example.org", move, game_id="nb1", password="not-it-at-all",
                                       X_Trigger="BOOM"))
    assert row["auth"] == "none" and b"not-it-at-all" not in bytes(row["raw"])
    monkeypatch.setattr(mail_in, "parse", breaking_reader)
    start = last_outbox_id(engine)
    outcome = ingest.retry(engine, row["id"])
    assert outcome.outcome == "rejected" and "the password is wrong" in outcome.detail
    assert not engine.load("nb1").state.moves
    (reply,) = outbox(engine, start)
    assert reply["To"] == f"{mover}@example.org" and "Your orders were not read" in body(reply)


def test_the_same_bytes_again_are_a_duplicate_though_the_copy_kept_differs(engine, nb_game):
    mover, move = first_move(engine)
    raw = order_mail(f"{mover}@example.org", move, game_id="nb1", password=nb_game[mover])
    assert engine.ingest(raw).outcome == "applied"
    (row,) = engine.store.all("SELECT raw, source_key FROM messages")
    assert bytes(row["raw"]) != raw and row["source_key"] == ingest.source_key_of(raw)
    assert engine.ingest(raw).outcome == "duplicate"
    assert engine.ingest(raw, "maildir:1.host").outcome == "duplicate"  # its Message-ID, another key
    assert len(engine.load("nb1").state.moves) == 1


def test_sending_blanks_secret_mail_and_masks_reply_tokens_on_either_store(engine, nb_game, tmp_path):
    reply = engine.outbox.tokens.reply_to("nb1", ADA)
    assert flush(engine.store, MaildirTransport(tmp_path / "out"), now=engine.clock()) == 2
    rows = engine.store.all("SELECT * FROM outbox ORDER BY id")
    assert [(r["kind"], r["secret"], r["status"]) for r in rows] == [("welcome", 1, "sent")] * 2
    kept = [email.message_from_bytes(unpack_mail(r["raw"]), policy=email.policy.default) for r in rows]
    assert all(k.get_content().startswith("[This mail carried a password") for k in kept)
    assert kept[0]["Reply-To"] == reply.replace(reply.split("@")[0].rpartition(".")[2], "redacted")
    assert leaks(engine, list(nb_game.values())) == []
    sent = [p.read_bytes() for p in sorted((tmp_path / "out" / "new").iterdir())]
    assert all(any(pw.encode() in raw for pw in nb_game.values()) for raw in sent)  # handed on whole


class RefusingTransport:
    """A mail server that refuses every message for good (a 5xx)."""

    def send(self, recipient: str, raw: bytes, outbox_id: int) -> None:
        raise PermanentFailure(f"550 5.1.1 <{recipient}>: no such user")


def test_a_secret_mail_refused_for_good_is_blanked_too(engine, nb_game):
    assert flush(engine.store, RefusingTransport(), now=engine.clock()) == 0
    rows = engine.store.all("SELECT status, secret FROM outbox ORDER BY id")
    assert [(r["status"], r["secret"]) for r in rows] == [("bounced", 1)] * 2
    assert leaks(engine, list(nb_game.values())) == []


def test_opt_in_codes_and_a_joined_password_are_not_kept_once_handed_on(tmp_path):
    """JOIN and OBSERVE by mail (double opt-in): the code mailed to the address, its
    reply to gm+confirm.<code>@, and the password the JOIN's answer carries are nowhere in the
    store once the daemon has handed them on."""
    from gm.service.people import lobby

    room = Mailroom(tmp_path)
    engine = room.engine
    engine.create_game("neighbors", "nb1", PLAYERS, seed=5, options={"layout": EXAMPLE_LAYOUT})
    lobby.open_game(engine, "neighbors", "open1", 2, seed=4)
    room.run()
    zoe = "zoe@example.net"
    room.deliver(order_mail(zoe, "OBSERVE nb1\nJOIN open1 zoe"))
    (asked,) = room.run()
    assert asked[0] == zoe and asked[1]["Subject"].startswith("CONFIRM ")
    code = asked[1]["Subject"].split(":")[0].split()[1]
    assert code in asked[1]["Reply-To"]
    room.deliver(order_mail(zoe, "", to=asked[1]["Reply-To"], subject="Re: " + asked[1]["Subject"]))
    answers = room.run()
    assert [to for to, _ in answers] == [zoe]
    password = re.search(r"password[^:\n]*: (\w+)", text_of(answers[0][1]), re.I).group(1)
    assert engine.store.selfservice.observer("nb1", zoe) is not None
    assert [p["name"] for p in engine.store.seats.players("open1")] == ["zoe"]
    found = leaks(engine, [code, password])
    assert found == [], found
