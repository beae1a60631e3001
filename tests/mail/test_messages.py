"""Robots, messy real mail and who may act, through Dovecot and SMTP (`run --once`)."""

from __future__ import annotations

import base64

import pytest

from support import GM_ADDRESS, PLAYERS, order_mail

ADDRESS = dict(PLAYERS)


def mail(headers: dict[str, str], body: bytes | str) -> bytes:
    base = {"To": GM_ADDRESS, "Subject": "orders", "Date": "Mon, 6 May 2024 10:00:00 +0000",
            "Message-ID": f"<{abs(hash((tuple(headers.items()), body)))}@example.org>"}
    base.update(headers)
    head = "".join(f"{k}: {v}\r\n" for k, v in base.items() if v is not None).encode()
    return head + b"\r\n" + (body.encode() if isinstance(body, str) else body)


@pytest.fixture
def game(harness):
    passwords = harness.new_game()
    harness.once()  # the welcomes go out first, so later counts are of replies only
    mover, legal = harness.legal()
    return harness, mover, passwords[mover], legal


def last_order(harness):
    return harness.engine.store.one("SELECT * FROM orders ORDER BY id DESC LIMIT 1")


# --- robots: stored and logged, never answered --------------------------------------
ROBOTS = {
    "auto-submitted": {"Auto-Submitted": "auto-replied"},
    "auto-generated": {"Auto-Submitted": "auto-generated; type=vacation"},
    "precedence-bulk": {"Precedence": "bulk"},
    "precedence-junk": {"Precedence": "junk"},
    "precedence-list": {"Precedence": "list"},
    "empty-return-path": {"Return-Path": "<>"},
    "list-id": {"List-Id": "Players <players.example.org>"},
    "list-unsubscribe": {"List-Unsubscribe": "<mailto:leave@example.org>"},
    "mailer-daemon": {"From": "MAILER-DAEMON@example.org"},
    "postmaster": {"From": "Postmaster <postmaster@example.org>"},
    "our-own-header": {"X-GM-Instance": GM_ADDRESS},
    "our-own-address": {"From": GM_ADDRESS},
}


@pytest.mark.parametrize("case", sorted(ROBOTS))
def test_robot_gets_no_reply(game, case):
    harness, mover, password, legal = game
    headers = {"From": ADDRESS[mover], **ROBOTS[case]}
    before = harness.smtp.count()
    harness.dovecot.append(mail(headers, f"GAME nb1 PASSWORD {password}\r\n{legal[0]}\r\n"))
    harness.once()
    assert harness.outcomes() == ["robot"]  # stored, not lost
    assert harness.states() == 1  # and the order in it not applied
    assert harness.smtp.count() == before
    assert harness.engine.store.one("SELECT COUNT(*) AS n FROM outbox WHERE status = 'queued'")["n"] == 0
    assert harness.dovecot.folder("INBOX") == {}
    assert len(harness.dovecot.folder("gm-processed")) == 1


def test_delivery_status_report_gets_no_reply(game):
    harness, mover, password, legal = game
    body = (
        "--b\r\nContent-Type: text/plain\r\n\r\nDelivery failed.\r\n"
        f"GAME nb1 PASSWORD {password}\r\n{legal[0]}\r\n"
        "--b\r\nContent-Type: message/delivery-status\r\n\r\n"
        "Reporting-MTA: dns; mx.example.org\r\n\r\nFinal-Recipient: rfc822; x@example.org\r\n"
        "Action: failed\r\nStatus: 5.1.1\r\n\r\n--b--\r\n"
    )
    headers = {"From": ADDRESS[mover], "MIME-Version": "1.0",
               "Content-Type": 'multipart/report; report-type=delivery-status; boundary="b"'}
    before = harness.smtp.count()
    harness.dovecot.append(mail(headers, body))
    harness.once()
    assert harness.outcomes() == ["robot"]
    assert harness.states() == 1
    assert harness.smtp.count() == before


def test_a_person_saying_auto_submitted_no_is_answered(game):
    harness, mover, password, legal = game
    headers = {"From": ADDRESS[mover], "Auto-Submitted": "no"}
    harness.dovecot.append(mail(headers, f"GAME nb1 PASSWORD {password}\r\n{legal[0]}\r\n"))
    harness.once()
    assert harness.outcomes() == ["applied"]
    assert harness.states() == 2


# --- messy mail ------------------------------------------------------------------------
def messy(case: str, password: str, move: str, other: str) -> tuple[dict, bytes | str]:
    creds = f"GAME nb1 PASSWORD {password}"
    mime = {"MIME-Version": "1.0"}
    if case == "html-only":
        html = f"<html><body><p>{creds}</p><p><b>{move}</b></p><div>&nbsp;</div></body></html>"
        return {**mime, "Content-Type": "text/html; charset=utf-8"}, html
    if case == "plain-preferred-over-html":
        body = (f"--a\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{creds}\r\n{move}\r\n"
                f"--a\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>{creds}</p><p>{other}</p>\r\n--a--\r\n")
        return {**mime, "Content-Type": 'multipart/alternative; boundary="a"'}, body
    if case == "quoted-reply-with-old-order":
        body = (f"{creds}\r\n{move}\r\n\r\nOn Mon, 6 May 2024 at 09:00, gm <{GM_ADDRESS}> wrote:\r\n"
                f"> {creds}\r\n> {other}\r\n")
        return {"In-Reply-To": "<old@example.test>"}, body
    if case == "bare-quote-lines":
        return {}, f"{creds}\r\n> {other}\r\n{move}\r\n>> {other}\r\n"
    if case == "signature":
        return {}, f"{creds}\r\n{move}\r\n-- \r\nAda, who once wrote\r\n{other}\r\n"
    if case == "format-flowed":
        # RFC 3676 with DelSp: the order is soft-broken in the middle.
        return ({**mime, "Content-Type": "text/plain; charset=utf-8; format=flowed; delsp=yes"},
                f"{creds}\r\n{move[:3]} \r\n{move[3:]}\r\n")
    if case == "quoted-printable":
        return ({**mime, "Content-Type": "text/plain; charset=utf-8",
                 "Content-Transfer-Encoding": "quoted-printable"},
                f"# Gr=C3=BC=C3=9Fe\r\n{creds}\r\n{move[:2]}=\r\n{move[2:]}\r\n")
    if case == "base64":
        text = f"# Grüße\r\n{creds}\r\n{move}\r\n".encode()
        return ({**mime, "Content-Type": "text/plain; charset=utf-8",
                 "Content-Transfer-Encoding": "base64"}, base64.encodebytes(text))
    if case == "unknown-charset":
        return ({**mime, "Content-Type": "text/plain; charset=x-no-such-charset",
                 "Subject": "=?x-no-such-charset?q?orders_=FF?="},
                b"# Gr\xfc\xdfe \xff\xfe\r\n" + f"{creds}\r\n{move}\r\n".encode())
    if case == "missing-charset-latin1":
        return ({**mime, "Content-Type": "text/plain", "Content-Transfer-Encoding": "8bit"},
                b"# Gr\xfc\xdfe\r\n" + f"{creds}\r\n{move}\r\n".encode())
    if case == "attachments-ignored":
        blob = base64.encodebytes(bytes(range(256)) * 4).decode()
        body = (f"--m\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{creds}\r\n{move}\r\n"
                f"--m\r\nContent-Type: text/plain; name=old.txt\r\n"
                f"Content-Disposition: attachment; filename=old.txt\r\n\r\n{other}\r\n"
                f"--m\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n"
                f"Content-Disposition: attachment; filename=x.bin\r\n\r\n{blob}"
                "--m--\r\n")
        return {**mime, "Content-Type": 'multipart/mixed; boundary="m"'}, body
    raise AssertionError(case)


MESSY = ["html-only", "plain-preferred-over-html", "quoted-reply-with-old-order", "bare-quote-lines",
         "signature", "format-flowed", "quoted-printable", "base64",
         "missing-charset-latin1", "attachments-ignored"]


@pytest.mark.parametrize("case", MESSY)
def test_messy_mail_is_read(game, case):
    harness, mover, password, legal = game
    move, other = legal[0], legal[-1]
    assert move != other
    headers, body = messy(case, password, move, other)
    harness.dovecot.append(mail({"From": ADDRESS[mover], **headers}, body))
    harness.once()
    assert harness.outcomes() == ["applied"], harness.engine.store.one("SELECT detail FROM messages")["detail"]
    order = last_order(harness)
    assert order["accepted"] == 1 and order["canonical"] == move
    assert harness.states() == 2
    harness.smtp.wait_for(ADDRESS[mover], 2)  # welcome, then the report


def test_mail_in_an_unknown_charset_is_refused_with_a_reply(game):
    """A body in a charset gm cannot read is never guessed at (not read as UTF-8 either);
    its sender is told, and nothing is done."""
    harness, mover, password, legal = game
    headers, body = messy("unknown-charset", password, legal[0], legal[-1])
    harness.dovecot.append(mail({"From": ADDRESS[mover], **headers}, body))
    harness.once()
    assert harness.outcomes() == ["rejected"]
    assert harness.states() == 1
    (welcome, reply) = harness.smtp.wait_for(ADDRESS[mover], 2)
    assert "character set 'x-no-such-charset' is not one gm can read" in " ".join(reply.get_content().split())
    assert harness.dovecot.folder("INBOX") == {}


def test_oversized_mail_refused_politely(game):
    harness, mover, password, legal = game
    limit = harness.config.max_message_bytes
    padding = ("# " + "x" * 70 + "\r\n") * (limit // 70 + 10)
    harness.dovecot.append(mail({"From": ADDRESS[mover]},
                                f"GAME nb1 PASSWORD {password}\r\n{legal[0]}\r\n{padding}"))
    harness.once()
    assert harness.outcomes() == ["rejected"]
    assert harness.states() == 1
    stored = bytes(harness.engine.store.one("SELECT raw FROM messages")["raw"])
    # Read only as far as needed to know (limit + 1 bytes), and kept masked (the
    # password in it is not stored; the masked copy is no more than a few bytes longer).
    assert len(stored) < limit + 200 and password.encode() not in stored
    (welcome, reply) = harness.smtp.wait_for(ADDRESS[mover], 2)
    assert "too large" in reply.get_content()
    assert reply["Auto-Submitted"] == "auto-replied"
    assert harness.dovecot.folder("INBOX") == {}


# --- who may act -----------------------------------------------------------------------
def test_order_from_another_address_copies_the_registered_one(game):
    harness, mover, password, legal = game
    harness.dovecot.append(order_mail("Ada Abroad <ada.travel@example.net>",
                                      f"GAME nb1 PASSWORD {password}\n{legal[0]}\n"))
    harness.once()
    assert harness.outcomes() == ["applied"]
    assert harness.states() == 2
    copies = [m for m in harness.smtp.to(ADDRESS[mover]) if "another address" in m["Subject"]]
    assert len(copies) == 1
    assert "ada.travel@example.net" in copies[0].get_content()


def test_wrong_password_changes_nothing(game):
    harness, mover, password, legal = game
    harness.dovecot.append(order_mail(ADDRESS[mover], f"GAME nb1 PASSWORD not-{password}\n{legal[0]}\n"))
    harness.once()
    assert harness.outcomes() == ["rejected"]
    assert harness.states() == 1
    (welcome, reply) = harness.smtp.wait_for(ADDRESS[mover], 2)
    assert "password is wrong" in reply.get_content()


def test_error_replies_are_rate_limited_per_sender(game):
    harness, mover, password, legal = game
    limit = harness.config.error_replies_per_hour
    for n in range(limit + 2):
        harness.dovecot.append(order_mail("pest@example.net", f"GAME nb1 PASSWORD guess{n}\n{legal[0]}\n"))
    harness.dovecot.append(order_mail("other@example.net", "GAME nb1 PASSWORD guess\nb1xb2\n"))
    harness.once()
    assert harness.outcomes() == ["rejected"] * (limit + 3)  # every one stored
    assert len(harness.smtp.to("pest@example.net")) == limit
    assert len(harness.smtp.to("other@example.net")) == 1  # the limit is per sender
    assert harness.states() == 1


# --- hostile mail (issue "Trust: no mail can stop the mailbox") --------------------------------
def test_reply_goes_to_from_never_to_reply_to(game):
    harness, mover, password, legal = game
    harness.dovecot.append(mail({"From": ADDRESS[mover], "Reply-To": "eve@example.net"},
                                f"GAME nb1 PASSWORD not-{password}\r\n{legal[0]}\r\n"))
    harness.once()
    assert harness.outcomes() == ["rejected"]
    (welcome, reply) = harness.smtp.wait_for(ADDRESS[mover], 2)
    assert "password is wrong" in reply.get_content()
    assert harness.smtp.to("eve@example.net") == []


def test_8bit_header_bytes_do_not_stop_the_mailbox(game):
    harness, mover, password, legal = game
    raw = mail({"From": ADDRESS[mover], "Message-ID": None, "Subject": None},
               f"GAME nb1 PASSWORD {password}\r\n{legal[0]}\r\n")
    raw = (b"Message-ID: <\xff\xfe@example.org>\r\nSubject: caf\xe9 orders\r\n"
           b"References: <a@example.org> <\xff@example.org>\r\n") + raw
    harness.dovecot.append(raw)
    harness.once()
    assert harness.outcomes() == ["applied"]
    assert harness.states() == 2


def test_a_deep_mime_nest_is_answered_once_and_not_applied(game):
    harness, mover, password, legal = game
    opening = "".join(f'Content-Type: multipart/mixed; boundary="b{n}"\r\n\r\n--b{n}\r\n' for n in range(1_500))
    closing = "".join(f"--b{n}--\r\n" for n in reversed(range(1_500)))
    raw = mail({"From": ADDRESS[mover], "MIME-Version": "1.0"}, "").rstrip(b"\r\n") + b"\r\n" + (
        opening + f"Content-Type: text/plain\r\n\r\nGAME nb1 PASSWORD {password}\r\n{legal[0]}\r\n" + closing).encode()
    before = harness.smtp.count()
    harness.dovecot.append(raw)
    harness.once()
    assert harness.outcomes() == ["rejected"]  # refused, not taken for a robot's
    assert harness.states() == 1
    harness.smtp.wait_for(ADDRESS[mover], 2)
    assert harness.smtp.count() == before + 1
