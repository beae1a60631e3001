"""Hostile mail through the daemon, on the real Dovecot and on the Maildir inbox.

One mailbox receives a message of every kind that once stopped or abused gm,
then an honest order.  The daemon must read every one, play the order, answer
each mail at most once, only ever to its From address, and never a robot.
"""

from __future__ import annotations

import email
import email.policy
import time
from pathlib import Path


from gm.core import config as config_module
from gm.runtime import daemon
from gm.runtime.maildir import ensure_maildir
from gm.service.engine import Engine
from gm.store import Store
from support import GM_ADDRESS, PLAYERS

ADDRESS = dict(PLAYERS)
VICTIM = "victim@example.com"


def message(headers: list[tuple[str, str | bytes]], body: bytes | str, *, mid: str) -> bytes:
    """A message as raw bytes, headers exactly as given (8-bit and all)."""
    base = [("To", GM_ADDRESS), ("Date", "Mon, 6 May 2024 10:00:00 +0000"), ("Message-ID", f"<{mid}@example.org>")]
    names = {name.lower() for name, _ in headers}
    lines = [(n, v) for n, v in base if n.lower() not in names] + headers
    head = b"".join(n.encode() + b": " + (v if isinstance(v, bytes) else v.encode()) + b"\r\n" for n, v in lines)
    return head + b"\r\n" + (body if isinstance(body, bytes) else body.encode())


def deep_mime(depth: int) -> bytes:
    parts = [f"Content-Type: multipart/mixed; boundary=\"b{i}\"\r\n\r\n--b{i}\r\n" for i in range(depth)]
    return "".join(parts).encode() + b"Content-Type: text/plain\r\n\r\nHELP\r\n"


def corpus(password: str, mover: str) -> dict[str, tuple[bytes, str]]:
    """name -> (raw message, who may be answered: an address, or '' for nobody)."""
    me = ADDRESS[mover]
    huge_refs = " ".join(f"<{i}.{'r' * 40}@example.org>" for i in range(60_000)).encode()  # ~2.9 MB
    html_order = (f"<html><body><p>GAME nb1 PASSWORD {password}</p><p>HELP</p>"
                  "<p>-- </p><p>Ada, sent from my phone</p></body></html>")
    return {
        "8bit-headers": (message([("From", b"\xe9l\xe8ve <s1@example.net>"), ("Subject", b"ordres \xff\xfe"),
                                  ("Message-ID", b"<\xff\xfe@example.org>"), ("In-Reply-To", b"<\xc3\x28@x>"),
                                  ("References", b"<a\xff@x> <b@y>")], "HELP\r\n", mid="m1"), "s1@example.net"),
        "undeclared-charset": (message([("From", "s2@example.net"), ("Subject", "=?x-no-such?q?caf=E9?=")],
                                       "HELP\r\n", mid="m2"), "s2@example.net"),
        "backtracking-quote": (message([("From", "s3@example.net")],
                                       "HELP\r\nOn " + "x " * 2048 + "\r\n", mid="m3"), "s3@example.net"),
        "huge-references": (message([("From", "s4@example.net"), ("References", huge_refs)], "HELP\r\n", mid="m4"),
                            "s4@example.net"),
        "500-help-lines": (message([("From", "s5@example.net"), ("Reply-To", VICTIM)], "HELP\r\n" * 500, mid="m5"),
                           "s5@example.net"),
        "encoded-word-from": (message([("From", "=?utf-8?q?a@x=3E?= <s6@example.net>")], "HELP\r\n", mid="m6"),
                              "s6@example.net"),
        "malformed-from": (message([("From", "not an address at all")], "HELP\r\n", mid="m7"), ""),
        "auto-response-suppress": (message([("From", "s8@example.net"), ("X-Auto-Response-Suppress", "All")],
                                           "HELP\r\n", mid="m8"), ""),
        "x-loop": (message([("From", "s9@example.net"), ("X-Loop", "s9@example.net")], "HELP\r\n", mid="m9"), ""),
        "precedence-auto-reply": (message([("From", "s10@example.net"), ("Precedence", "auto_reply")],
                                          "HELP\r\n", mid="m10"), ""),
        "mailing-list": (message([("From", "s11@example.net"), ("Mailing-List", "list players@example.org")],
                                 "HELP\r\n", mid="m11"), ""),
        "noreply-sender": (message([("From", "noreply@example.net")], "HELP\r\n", mid="m12"), ""),
        "out-of-office": (message([("From", "s13@example.net"), ("Subject", "Out of Office: back Monday")],
                                  "HELP\r\n", mid="m13"), ""),
        "automatic-reply": (message([("From", "s14@example.net"), ("Subject", "Automatic reply: orders")],
                                    "HELP\r\n", mid="m14"), ""),
        "auto-subject": (message([("From", "s15@example.net"), ("Subject", "Auto: orders")],
                                 "HELP\r\n", mid="m15"), ""),
        "deep-mime": (message([("From", "s16@example.net"), ("MIME-Version", "1.0")] , deep_mime(700), mid="m16")
                      .replace(b"\r\n\r\nContent-Type: multipart", b"\r\nContent-Type: multipart", 1),
                      "s16@example.net"),
        "huge-html": (message([("From", "s17@example.net"), ("Content-Type", "text/html")],
                              "<p>" + "<b>x</b>" * 560_000 + "</p>", mid="m17"), "s17@example.net"),
        "html-signature": (message([("From", me), ("Content-Type", "text/html; charset=utf-8")], html_order,
                                   mid="m18"), me),
        "breaks-the-reader": (message([("From", "s19@example.net"), ("X-Trigger", "BOOM")], "HELP\r\n", mid="m19"),
                              ""),
    }


def replies_by_thread(raws: list[bytes]) -> dict[str, list[email.message.Message]]:
    out: dict[str, list] = {}
    for raw in raws:
        msg = email.message_from_bytes(raw, policy=email.policy.compat32)
        out.setdefault(str(msg.get("In-Reply-To", "")), []).append(msg)
    return out


def check(engine: Engine, sent: list[tuple[str, bytes]], cases: dict, order_mid: str) -> None:
    """What must hold after the daemon read the hostile corpus and the honest order."""
    outcomes = {r["message_id"]: r["outcome"] for r in engine.store.all("SELECT * FROM messages")}
    assert len(engine.store.all("SELECT id FROM messages")) == len(cases) + 1  # every one kept
    assert outcomes[order_mid] == "applied"  # and the order after them played
    assert len(engine.load("nb1").state.moves) == 1
    by_thread = replies_by_thread([raw for _, raw in sent])
    recipients = {to for to, _ in sent}
    assert VICTIM not in recipients and "a@x" not in recipients
    for name, (raw, answer_to) in cases.items():
        mid = f"<m{list(cases).index(name) + 1}@example.org>"
        replies = by_thread.get(mid, [])
        assert len(replies) <= 1, name
        if not answer_to:
            assert replies == [], name
        else:
            assert all(r["To"] == answer_to for r in replies), name
        assert all(len(r.as_bytes()) < 300_000 for r in replies), name
        assert all(len(str(r.get("References", "")).split()) <= 10 for r in replies), name
    assert len(by_thread.get("<m5@example.org>", [])) == 1  # 500 HELP lines, one reply
    deep = by_thread.get("<m16@example.org>", [])
    assert len(deep) == 1 and "nested" in deep[0].get_payload(decode=True).decode()


def honest_order(engine: Engine, passwords: dict) -> tuple[bytes, str]:
    view = engine.load("nb1")
    (mover,) = view.rules.to_move(view.state)
    move = view.rules.legal_orders(view.state, mover)[0]
    raw = message([("From", ADDRESS[mover]), ("Subject", "orders")],
                  f"GAME nb1 PASSWORD {passwords[mover]}\r\n{move}\r\n", mid="honest")
    return raw, "<honest@example.org>"


def test_hostile_mail_through_dovecot(harness, breaking_reader):
    passwords = harness.new_game()
    harness.once()  # the welcomes
    welcomes = harness.smtp.count()
    mover, _ = harness.legal()
    cases = corpus(passwords[mover], mover)
    for raw, _ in cases.values():
        harness.dovecot.append(raw)
    order, order_mid = honest_order(harness.engine, passwords)
    harness.dovecot.append(order)
    started = time.monotonic()
    harness.once()
    assert time.monotonic() - started < 60
    assert harness.dovecot.folder("INBOX") == {}  # every message read and moved
    with harness.smtp.lock:
        sent = [(rcpt[0], m.as_bytes()) for rcpt, m in harness.smtp.messages[welcomes:]]
    check(harness.engine, sent, cases, order_mid)
    failed = harness.engine.store.all("SELECT * FROM messages WHERE outcome = 'error'")
    assert len(failed) == 1 and b"X-Trigger: BOOM" in bytes(failed[0]["raw"])
    assert "the reader broke" in failed[0]["detail"]


def test_hostile_mail_through_the_maildir(tmp_path, breaking_reader):
    conf = tmp_path / "gm.yaml"
    conf.write_text(f"data_dir: {tmp_path / 'data'}\naddress: {GM_ADDRESS}\nmax_message_bytes: 50000\n")
    config = config_module.load(conf)
    engine = Engine(Store(config.database), config)
    passwords = engine.create_game("neighbors", "nb1", PLAYERS, seed=7)
    mover = engine.load("nb1").rules.to_move(engine.load("nb1").state)[0]
    cases = corpus(passwords[mover], mover)
    inbox = ensure_maildir(Path(config.inbox))
    order, order_mid = honest_order(engine, passwords)
    for n, raw in enumerate([raw for raw, _ in cases.values()] + [order]):
        (inbox / "tmp" / f"{n:03d}.msg").write_bytes(raw)
        (inbox / "tmp" / f"{n:03d}.msg").rename(inbox / "new" / f"{n:03d}.msg")
    welcomes = {p.name for p in (Path(config.outbox) / "new").glob("*")} if (Path(config.outbox) / "new").exists() \
        else set()
    daemon.run(engine, config, once=True)
    assert list((inbox / "new").iterdir()) == []
    sent = []
    for path in sorted((Path(config.outbox) / "new").iterdir()):
        raw = path.read_bytes()
        envelope, _, rest = raw.partition(b"\r\n")
        to = envelope.split(b":", 1)[1].strip().decode()
        if path.name not in welcomes and b"Welcome" not in rest.split(b"\n\n", 1)[0]:
            sent.append((to, rest))
    check(engine, sent, cases, order_mid)
    failed = engine.store.all("SELECT * FROM messages WHERE outcome = 'error'")
    assert len(failed) == 1 and b"X-Trigger: BOOM" in bytes(failed[0]["raw"])
    engine.store.close()
