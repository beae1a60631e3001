"""Hostile inbound mail, one named test per kind of trouble (issue "Trust: no mail can stop the mailbox").

These call gm.mail.inbound.parse and gm.mail.orders.read directly; no server.
"""

from __future__ import annotations

import pathlib
import random
import re
import time

import pytest

from gm.mail import inbound as mailin
from gm.mail import orders, quotes
from support import LINEAR_4X, growth

GM = "gm@example.test"
HEAD = b"To: gm@example.test\r\nDate: Mon, 6 May 2024 10:00:00 +0000\r\n"
ORDER = b"GAME nb1 PASSWORD kq7hz3xw2m\r\nb4xd4\r\n"


def msg(*headers: bytes, body: bytes = ORDER, sender: bytes = b"Ada <ada@example.org>") -> bytes:
    lines = ([b"From: " + sender] if sender is not None else []) + [*headers]
    if not any(h.lower().startswith(b"subject:") for h in headers):
        lines.append(b"Subject: orders")
    return b"\r\n".join(lines) + b"\r\n" + HEAD + b"\r\n" + body


def timed(raw: bytes, **kw) -> tuple[mailin.Inbound, float]:
    """The parsed mail and the CPU seconds this thread spent on it.  The bounds on it are guards
    against a stall (each many times the cost measured), not speed targets (benchmarks/); this
    thread's CPU time, not the wall clock, which a loaded machine stretches."""
    start = time.thread_time()
    inbound = mailin.parse(raw, GM, **kw)
    return inbound, time.thread_time() - start


# --- 1. raw 8-bit bytes and encoded words in headers ------------------------------------------
@pytest.mark.parametrize("header", [
    b"Message-ID: <\xff\xfe\xc3@example.org>",
    b"In-Reply-To: <\xe9t\xe9@example.org>",
    b"References: <a@example.org> <\xff@example.org>\r\n <b@example.org>",
    b"Subject: caf\xe9 \xff orders",
    b"Subject: =?x-no-such-charset?q?=FF?= orders",
    b"Subject: =?utf-8?b?!!!not-base64?= orders",
    b"Subject: =?\xff?q?x?= orders",
    b"Content-Type: text/plain; charset=\"\xff\xfe\"",
    b"Content-Disposition: inline; filename=\"\xff.txt\"",
    b"X-Anything: \x00\x01\x7f\xff",
])
def test_8bit_and_broken_header_values_do_not_crash(header):
    inbound, elapsed = timed(msg(header))
    assert inbound.sender == "ada@example.org"
    assert inbound.reply_address == "ada@example.org"
    assert inbound.robot is None
    assert "b4xd4" in inbound.text
    assert isinstance(inbound.subject, str) and isinstance(inbound.message_id, (str, type(None)))
    assert all(isinstance(r, str) for r in inbound.references)
    assert elapsed < 0.5


def test_8bit_in_from_keeps_the_address_and_replaces_the_name():
    inbound = mailin.parse(msg(sender=b"\xc3\xa9\xff Ada <ada@example.org>"), GM)
    assert inbound.sender == "ada@example.org"
    assert "\ufffd" in inbound.sender_name and isinstance(inbound.sender_name, str)


def test_8bit_in_references_keeps_the_good_ids():
    inbound = mailin.parse(msg(b"References: <a@example.org> <\xff@example.org> <b@example.org>",
                               b"In-Reply-To: <b@example.org>"), GM)
    assert inbound.references == ["<a@example.org>", "<b@example.org>"]


def test_an_encoded_word_in_from_cannot_smuggle_an_address():
    inbound = mailin.parse(msg(sender=b"=?utf-8?q?a@x=3E?= <b@y.example>"), GM)
    assert inbound.sender == "b@y.example"
    assert inbound.reply_address == "b@y.example"
    inbound = mailin.parse(msg(sender=b"=?utf-8?q?Ada_=3Cevil@x.example=3E?= <ada@example.org>"), GM)
    assert inbound.sender == "ada@example.org"
    assert "evil" not in inbound.reply_address


def test_an_encoded_display_name_is_decoded():
    inbound = mailin.parse(msg(sender=b"=?utf-8?q?Zo=C3=AB?= <zoe@example.org>"), GM)
    assert (inbound.sender, inbound.sender_name) == ("zoe@example.org", "Zoë")


def test_a_utf8_address_is_a_person_with_its_domain_in_a_label_form():
    # This From is a person, not a robot's mail without a sender address.
    inbound = mailin.parse(msg(sender="Jörg Ünal <JÖRG@Bücher.example>".encode()), GM)
    assert (inbound.sender, inbound.sender_name) == ("jörg@xn--bcher-kva.example", "Jörg Ünal")
    assert inbound.robot is None and inbound.reply_address == "jörg@xn--bcher-kva.example"


@pytest.mark.parametrize("sender", [
    b"",
    b"not an address",
    b"ada@example.org, bob@example.org",
    b"Ada <ada@>",
    b"<@example.org>",
    b"ada@exa mple.org",
    b"j\xf6rg@example.org",  # Latin-1, not UTF-8: a replacement character is never an address
    b"j\xc3\xb6rg@exa\xffmple.org",
    b"(" * 5_000,
    b"a:b," * 2_000,
    b"x" * 10_000 + b" <ada@example.org>",
    b"ada@[127.0.0.1",
])
def test_a_from_without_one_valid_address_gives_no_sender_and_no_reply(sender):
    inbound, elapsed = timed(msg(sender=sender))
    assert inbound.sender == "" and inbound.reply_address == ""
    assert inbound.robot  # nobody to answer
    assert any(p.startswith("From:") for p in inbound.problems)
    assert elapsed < 0.5


def test_two_from_fields_give_no_sender():
    inbound = mailin.parse(msg(b"From: eve@example.net"), GM)
    assert inbound.sender == "" and inbound.robot


def test_a_missing_from_gives_no_sender():
    inbound = mailin.parse(msg(sender=None), GM)
    assert inbound.sender == "" and inbound.robot == "no sender address"


# --- 2. linear quote stripping and order reading -------------------------------------------
OLD_QUOTE_STARTS = [
    re.compile(r"^\s*On\b.*\bwrote:\s*$", re.I),
    re.compile(r"^\s*Am\b.*\bschrieb\b.*:\s*$", re.I),
    re.compile(r"^\s*Le\b.*\ba écrit\s*:\s*$", re.I),
    re.compile(r"^\s*-+\s*Original Message\s*-+\s*$", re.I),
    re.compile(r"^\s*-+\s*Forwarded message\s*-+\s*$", re.I),
    re.compile(r"^_{10,}\s*$"),
    re.compile(r"^\s*From:\s.*<?\S+@\S+>?\s*$", re.I),
]


@pytest.mark.parametrize("head, unit, count, tail", [
    ("On ", "x ", 500, ""), ("On ", "x", 1_000, "@"), ("Am ", "schrieb ", 500, ""), ("Le ", " a", 500, ""),
    ("From: ", "a ", 2_000, ""), ("From: ", "@ ", 2_000, ""), ("", "-", 4_000, " Original Message"),
    ("", "_", 4_000, "x"), ("", " ", 4_000, "On"), ("On\t", "\t", 4_000, "wrote"), ("", "-- ", 1_400, ""),
])
def test_long_lines_are_stripped_in_linear_time(head, unit, count, tail):
    def mail(times: int) -> bytes:
        return msg(body=ORDER + (head + unit * count * times + tail).encode() + b"\r\n> b1xb2\r\n")

    def read(times: int) -> None:
        orders.read("GAME " + " " * 4_000 * times + "PASSWORD" + " " * 4_000 * times,
                    head + unit * count * times + tail)

    raw = mail(1)
    inbound = mailin.parse(raw, GM)
    assert "b4xd4" in inbound.text
    # The old regexes took 4.4 s on a 1 KB line, backtracking: a line four times longer costs
    # about four times the CPU now (support.growth; a wall-clock bound fails under load).  Lines
    # 4 and 16 times as long, so that both take more CPU than the floor.
    assert growth(lambda r: mailin.parse(r, GM), mail(4), mail(16)) < LINEAR_4X
    assert growth(read, 4, 16) < LINEAR_4X


def test_quote_detection_agrees_with_the_old_patterns():
    words = ["On", "on", "wrote:", "Wrote :", "Am", "schrieb", "Le", "a écrit", "a écrit :", "-", "---",
             "Original Message", "Forwarded message", "_" * 10, "_", "From:", "From:\t", "a@b", "<a@b>",
             "x", " ", "\t", ":", "@", ">", "onwrote:", "schrieb:", "ÉCRIT"]
    rng = random.Random(7)
    for _ in range(20_000):
        line = "".join(rng.choice(words) + rng.choice(["", " ", "  "]) for _ in range(rng.randint(1, 6)))
        line = line.rstrip()
        old = any(p.match(line) for p in OLD_QUOTE_STARTS)
        assert quotes.is_quote_start(line) == old, line


def test_orders_read_agrees_with_the_old_patterns_on_short_lines():
    game = re.compile(r"\bGAME\s*[:=]?\s*([A-Za-z0-9][A-Za-z0-9_.-]*)", re.I)
    password = re.compile(r"\bPASS(?:WORD)?\s*[:=]?\s*(\S+)", re.I)
    tag = re.compile(r"\[(?:([A-Za-z0-9][A-Za-z0-9_.-]*) T\d+|gm ([A-Za-z0-9][A-Za-z0-9_.-]*))\]")
    parts = ["GAME", "game", "Pass", "PASSWORD", "word", " ", "\t", ":", "=", "nb1", "x", "_", ".", "-",
             "[", "]", " T", "3", "é", "\u00a0", "aGAME", "PRESS", "TO", "gm", "[gm ", "GM"]
    rng = random.Random(11)
    for _ in range(20_000):
        text = "".join(rng.choice(parts) for _ in range(rng.randint(0, 8)))
        g, p, t = game.search(text), password.search(text), tag.search(text)
        assert orders.find_game(text) == (g and (g.group(0), g.group(1)) or None), text
        assert orders.find_password(text) == (p and (p.group(0), p.group(1)) or None), text
        assert orders.subject_tag(text) == (t and (t.group(1) or t.group(2)) or None), text


def test_a_subject_tag_is_only_gms_own_and_read_in_linear_time():
    """``[gm nb1]`` (and ``[nb1 T3]`` of older mail) names a game; other bracketed words do not."""
    assert orders.subject_tag("Re: [gm nb1] Neighbors report") == "nb1"
    assert orders.subject_tag("Re: [nb1 T3] Neighbors report") == "nb1"
    assert orders.subject_tag("Fwd: [URGENT] [gm nb2] x") == "nb2"
    for subject in ("[URGENT] x", "[gm] x", "[GM nb1] x", "[gm  nb1] x", "[gm nb1 T3] x", "[gm nb1", "gm nb1] x"):
        assert orders.subject_tag(subject) is None, subject
    assert growth(lambda times: orders.subject_tag("[gm [gm nb1" * 2_000 * times), 4, 16) < LINEAR_4X


def test_no_regular_expressions_in_gm_mail():
    """Every reader in gm/mail is string methods: no pattern that a long line could make backtrack."""
    root = pathlib.Path(mailin.__file__).parent
    for path in root.glob("*.py"):
        source = path.read_text()
        assert "import re\n" not in source and "re.compile" not in source, path.name


# --- 3. (outbound caps are in test_outbound.py); inbound keeps only the last references --------
def test_megabytes_of_references_are_read_quickly_and_kept_short():
    def mail(count: int) -> bytes:
        refs = b"".join(b" <ref%d@example.org>\r\n" % n for n in range(count))
        return msg(b"References:" + refs + b"In-Reply-To: <last@example.org>")

    raw = mail(120_000)
    inbound = mailin.parse(raw, GM)
    assert len(inbound.raw) > 2_800_000
    assert inbound.too_large
    assert inbound.sender == "ada@example.org"
    assert len(inbound.references) == mailin.MAX_REFERENCES
    assert inbound.references[-1] == "<last@example.org>"
    # A quarter of the references, about a quarter of the CPU (it was a 1 s wall-clock bound,
    # for 0.15 s of CPU).
    assert growth(lambda r: mailin.parse(r, GM), mail(30_000), raw) < LINEAR_4X


# --- 4. replies go to From, never to Reply-To ---------------------------------------------
def test_reply_address_is_from_not_reply_to():
    inbound = mailin.parse(msg(b"Reply-To: Eve <EVE@example.net>"), GM)
    assert inbound.reply_to == "eve@example.net"  # parsed, for the service to compare with a player's
    assert inbound.sender == "ada@example.org"
    assert inbound.reply_address == "ada@example.org"


def test_a_bad_reply_to_is_empty_and_noted():
    inbound = mailin.parse(msg(b"Reply-To: a@b.example, c@d.example"), GM)
    assert inbound.reply_to == "" and inbound.reply_address == "ada@example.org"
    assert any(p.startswith("Reply-To:") for p in inbound.problems)


# --- 5. robots -----------------------------------------------------------------------------
ROBOTS = {
    "x-auto-response-suppress-all": (b"X-Auto-Response-Suppress: All",),
    "x-auto-response-suppress-oof": (b"X-Auto-Response-Suppress: OOF",),
    "x-auto-response-suppress-autoreply": (b"X-Auto-Response-Suppress: AutoReply",),
    "x-auto-response-suppress-dr-rn-nrn": (b"X-Auto-Response-Suppress: DR, RN, NRN",),
    "x-loop": (b"X-Loop: gm@example.test",),
    "precedence-auto-reply": (b"Precedence: auto_reply",),
    "precedence-bulk": (b"Precedence: bulk",),
    "precedence-junk": (b"Precedence: junk",),
    "precedence-list": (b"Precedence: list",),
    "mailing-list": (b"Mailing-List: contact players-help@example.org",),
    "list-id": (b"List-Id: <players.example.org>",),
    "list-unsubscribe": (b"List-Unsubscribe: <mailto:leave@example.org>",),
    "auto-submitted": (b"Auto-Submitted: auto-replied",),
    "auto-submitted-generated": (b"Auto-Submitted: auto-generated; type=vacation",),
    "auto-submitted-notified": (b"Auto-Submitted: auto-notified",),
    "return-path-empty": (b"Return-Path: <>",),
    "return-path-spaced": (b"Return-Path: < >",),
    "x-autoreply": (b"X-Autoreply: yes",),
    "x-autorespond": (b"X-Autorespond: vacation",),
    "our-header": (b"X-GM-Instance: gm@example.test",),
    "out-of-office": (b"Subject: Out of Office: orders",),
    "automatic-reply": (b"Subject: Automatic reply: [nb1 T3] Report",),
    "auto": (b"Subject: Auto: [nb1 T3] Report",),
    "autoreply": (b"Subject: Autoreply: orders",),
    "auto-reply": (b"Subject: Auto-Reply: orders",),
    "abwesenheitsnotiz": (b"Subject: Abwesenheitsnotiz: orders",),
    "undeliverable": (b"Subject: Undeliverable: orders",),
    "dsn": (b"Subject: Delivery Status Notification (Failure)",),
}
ROBOT_SENDERS = [b"noreply@example.org", b"no-reply@example.org", b"NoReply-123@example.org",
                 b"mailer-daemon@example.org", b"MAILER-DAEMON@example.org", b"postmaster@example.org",
                 b"bounce@example.org", b"bounces+ada=example.org@lists.example.org",
                 b"bounce-12345@example.org", b"donotreply@example.org", b"gm@example.test"]


@pytest.mark.parametrize("case", sorted(ROBOTS))
def test_robot_headers_and_subjects(case):
    inbound = mailin.parse(msg(*ROBOTS[case]), GM)
    assert inbound.robot, case
    assert inbound.sender == "ada@example.org"


@pytest.mark.parametrize("sender", ROBOT_SENDERS)
def test_robot_senders(sender):
    assert mailin.parse(msg(sender=sender), GM).robot


def test_a_multipart_report_is_a_robot_even_when_too_large():
    body = (b"--r\r\nContent-Type: text/plain\r\n\r\nDelivery failed\r\n--r\r\n"
            b"Content-Type: message/delivery-status\r\n\r\nAction: failed\r\n\r\n--r--\r\n")
    head = (b"MIME-Version: 1.0", b'Content-Type: multipart/report; report-type=delivery-status; boundary="r"')
    assert mailin.parse(msg(*head, body=body), GM).robot
    inbound = mailin.parse(msg(*head, body=body + b"x" * 300_000), GM)
    assert inbound.too_large and inbound.robot


def test_people_are_not_robots():
    for headers in [(), (b"Auto-Submitted: no",), (b"X-Auto-Response-Suppress: None",),
                    (b"Precedence: first-class",), (b"Subject: Re: [nb1 T3] Report",),
                    (b"Subject: about being out of office next week",)]:
        inbound = mailin.parse(msg(*headers), GM)
        assert inbound.robot is None, headers
    for sender in (b"bob@example.org", b"replyguy@example.org", b"post@example.org", b"nobounce@example.org"):
        assert mailin.parse(msg(sender=sender), GM).robot is None, sender


# --- 6. size on raw bytes, MIME depth ------------------------------------------------------
def test_an_oversized_html_mail_is_not_converted():
    html = b"<html><body><p>GAME nb1</p>" + b"<table><tr><td>x</td><td>y</td></tr></table>\r\n" * 85_000
    raw = msg(b"MIME-Version: 1.0", b"Content-Type: text/html; charset=utf-8", body=html)
    assert len(raw) > 3_900_000
    inbound, elapsed = timed(raw)
    assert inbound.too_large and inbound.refuse and "too large" in inbound.refuse
    assert inbound.text == "" and inbound.full_text == ""
    assert inbound.sender == "ada@example.org" and inbound.robot is None
    assert elapsed < 0.2  # it took 12.9 s to convert


def test_max_bytes_is_the_callers():
    raw = msg(body=ORDER + b"# " + b"x" * 2_000 + b"\r\n")
    assert not mailin.parse(raw, GM).too_large
    small = mailin.parse(raw, GM, max_bytes=1_000)
    assert small.too_large and small.text == "" and small.size == len(raw)
    assert mailin.parse(raw, GM, max_bytes=len(raw)).too_large is False


def test_a_large_html_body_within_max_bytes_is_converted_only_in_part():
    html = (b"<html><head><style>" + b"p{}" * 100_000 + b"</style></head><body><p>GAME nb1 PASSWORD x</p>"
            b"<p>b4xd4</p>" + b"<table><tr><td>x</td></tr></table>" * 30_000 + b"</body></html>")
    raw = msg(b"MIME-Version: 1.0", b"Content-Type: text/html", body=html)
    inbound, elapsed = timed(raw, max_bytes=4_000_000)
    assert inbound.html_only and "b4xd4" in inbound.text
    assert any("HTML body cut" in p for p in inbound.problems)
    assert elapsed < 1.0


def nest(depth: int) -> bytes:
    opening = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (n, n)
                       for n in range(depth))
    closing = b"".join(b"--b%d--\r\n" % n for n in reversed(range(depth)))
    return opening + b"Content-Type: text/plain\r\n\r\n" + ORDER + closing


@pytest.mark.parametrize("depth", [21, 100, 1_500])
def test_a_deep_mime_nest_is_refused_once_not_a_robot(depth):
    raw = b"From: ada@example.org\r\nSubject: orders\r\nMIME-Version: 1.0\r\n" + nest(depth)
    inbound, elapsed = timed(raw)
    assert inbound.refuse == f"too deeply nested: more than {mailin.MAX_MIME_DEPTH} MIME levels"
    assert inbound.problems.count(inbound.refuse) == 1
    assert inbound.robot is None and inbound.sender == "ada@example.org"
    assert inbound.text == ""
    assert elapsed < 0.5


def test_a_deep_message_rfc822_nest_is_refused():
    raw = b"From: ada@example.org\r\n" + b"Content-Type: message/rfc822\r\n\r\n" * 1_500 + b"Subject: x\r\n\r\nhi\r\n"
    inbound = mailin.parse(raw, GM)
    assert inbound.refuse and "nested" in inbound.refuse and inbound.robot is None


def test_a_nest_at_the_limit_is_read():
    raw = b"From: ada@example.org\r\nSubject: orders\r\nMIME-Version: 1.0\r\n" + nest(mailin.MAX_MIME_DEPTH)
    inbound = mailin.parse(raw, GM)
    assert inbound.refuse is None and "b4xd4" in inbound.text


def test_a_broad_tree_is_read():
    def tree(count: int) -> bytes:
        parts = b"".join(b"--b\r\nContent-Type: multipart/alternative; boundary=\"c%d\"\r\n\r\n--c%d\r\n"
                         b"Content-Type: text/plain\r\n\r\npart %d\r\n--c%d--\r\n" % (n, n, n, n)
                         for n in range(count))
        return msg(b"MIME-Version: 1.0", b'Content-Type: multipart/mixed; boundary="b"', body=parts + b"--b--\r\n")

    raw = tree(500)
    inbound = mailin.parse(raw, GM)
    assert inbound.refuse is None and inbound.text == "part 0"
    # A quarter of the parts, about a quarter of the CPU (it was a 1 s wall-clock bound, for 0.08 s of CPU).
    assert growth(lambda r: mailin.parse(r, GM), tree(125), raw) < LINEAR_4X


def test_a_huge_mime_parameter_header_is_refused_quickly():
    body = b"--b\r\nContent-Type: text/plain" + b";" * 200_000 + b"\r\n\r\nhi\r\n--b--\r\n"
    raw = msg(b"MIME-Version: 1.0", b'Content-Type: multipart/mixed; boundary="b"', body=body)
    inbound, elapsed = timed(raw)
    assert inbound.refuse and "MIME" in inbound.refuse
    assert elapsed < 0.5


@pytest.mark.parametrize("encoding", [b"base64", b"quoted-printable", b"x-uuencode", b"bogus", b"7bit"])
def test_bad_transfer_encodings_do_not_crash(encoding):
    raw = msg(b"MIME-Version: 1.0", b"Content-Type: text/plain; charset=utf-8",
              b"Content-Transfer-Encoding: " + encoding, body=b"GAME nb1\r\n=ZZ=\r\n!!!@@@\r\nbegin 644 x\r\n")
    inbound = mailin.parse(raw, GM)
    assert inbound.sender == "ada@example.org"
    assert isinstance(inbound.text, str)


# --- 7. HTML signatures ----------------------------------------------------------------------
@pytest.mark.parametrize("html", [
    b"<p>GAME nb1 PASSWORD x</p><p>b4xd4</p><p>-- <br>Ada<br>c3xd3</p>",
    b"<div>GAME nb1 PASSWORD x</div><div>b4xd4</div><div>--&nbsp;</div><div>Ada</div><div>c3xd3</div>",
    b"<p>GAME nb1 PASSWORD x<br>b4xd4<br>--<br>Ada c3xd3</p>",
    b"<p>GAME nb1 PASSWORD x<br>b4xd4</p><pre>-- \nAda\nc3xd3</pre>",
])
def test_an_html_signature_is_cut_after_conversion(html):
    inbound = mailin.parse(msg(b"MIME-Version: 1.0", b"Content-Type: text/html; charset=utf-8", body=html), GM)
    assert inbound.html_only
    mail = orders.read(inbound.subject, inbound.text)
    assert mail.game_id == "nb1"
    assert mail.order_lines == ["b4xd4"], inbound.text


# --- never raises ----------------------------------------------------------------------------
@pytest.mark.parametrize("raw", [b"", b"\r\n", b"\r\n\r\n", b"From:", b"From: \r\n\r\n", bytes(range(256)) * 20,
                                 b"\xff" * 10_000, b"From: a@b.example\r" * 3_000, b":" * 50_000,
                                 b" continuation first\r\nFrom: ada@example.org\r\n\r\nhi"])
def test_junk_never_raises(raw):
    inbound, elapsed = timed(raw)
    assert isinstance(inbound, mailin.Inbound) and elapsed < 0.5


def test_not_even_a_bytes_object_raises():
    assert mailin.parse("From: ada@example.org\r\n\r\nhi", GM).sender == "ada@example.org"  # type: ignore[arg-type]
    assert mailin.parse(bytearray(b"From: ada@example.org\r\n\r\nhi"), GM).text == "hi"  # type: ignore[arg-type]


@pytest.mark.parametrize("filler", [b"\n" * 250_000, b"--x\n" * 62_000, b"--b0-\r\n" * 30_000])
def test_many_lines_inside_a_nest_at_the_limit_are_read_or_refused_in_linear_time(filler):
    opening = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (n, n)
                       for n in range(mailin.MAX_MIME_DEPTH))

    def nested(lines: bytes) -> bytes:
        return (b"From: ada@example.org\r\nSubject: orders\r\nMIME-Version: 1.0\r\n" + opening
                + b"Content-Type: text/plain\r\n\r\n" + ORDER + lines)

    raw = nested(filler)
    inbound = mailin.parse(raw, GM)
    assert inbound.robot is None
    assert inbound.refuse is None or inbound.refuse.startswith("too complex")
    # Each line checked against the open boundaries once: a quarter of the lines (every filler is
    # a repeated line), about a quarter of the work.  CPU, not a wall-clock bound (0.6 s failed
    # on a loaded machine): "--b0-" took 0.17 s of CPU at 30,000 lines and 0.044 s at 7,500.
    assert growth(lambda r: mailin.parse(r, GM), nested(filler[:len(filler) // 4]), raw) < LINEAR_4X
