"""Fuzzing gm.mail.inbound.parse, gm.mail.orders.read and the whole ingest path with Hypothesis.

Broken headers (raw 8-bit bytes, bad or unknown charsets, encoded words, huge
values, stray CR/LF), MIME trees (deep, broad, bad boundaries, bad transfer
encodings), sizes and addresses.  Every example must parse without raising
within the per-example deadline; the reply address is "" or exactly the From
addr-spec; a robot marker is always flagged; an oversized mail is never read.

The runs are derandomized (the same examples every time, no example database)
so that CI is repeatable; the whole file takes well under 30 s.  For a
longer hunt: GM_FUZZ_EXAMPLES=5000 GM_FUZZ_RANDOM=1 (new examples each run).
"""

from __future__ import annotations

import os
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm.core.config import Config
from gm.mail import inbound as mailin
from gm.mail import orders
from gm.mail.outbound import MAX_OUTGOING_BYTES
from gm.mail.rawmail import valid_addr_spec
from gm.service.engine import Engine
from gm.store import Store
from gm.store.packing import unpack_mail

GM = "gm@example.test"
# A stall guard on each example: this process's CPU time (time.process_time: the password checks
# on gm.service.auth's threads count too), which a loaded machine does not stretch as it does
# the wall clock (hypothesis's own deadline, which is wall clock, is off).
DEADLINE_MS = 2_000
FUZZ = settings(
    deadline=None,
    max_examples=int(os.environ.get("GM_FUZZ_EXAMPLES", "800")),
    derandomize=os.environ.get("GM_FUZZ_RANDOM") != "1",
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example,
                           HealthCheck.filter_too_much],
)

# --- pieces ---------------------------------------------------------------------------------
CHARSETS = ["utf-8", "UTF-8", "iso-8859-1", "latin-1", "x-no-such-charset", "", "unknown-8bit", "utf-7",
            "utf-16", "\xff", "us-ascii", "gb2312", "utf-8*en", "cp1252", "us-ascii'en'"]
big = st.builds(
    lambda piece, n: piece * n,
    st.sampled_from([b"(", b"<", b">", b"=?", b"=?utf-8?q?", b"a@", b"@", b" ", b"\t", b"\r\n ", b"\xff", b"On ",
                     b"x", b";", b'"', b"\\", b":", b",", b"<a@b>", b"\r", b"\n", b"=?x?b?====?=", b"-- "]),
    st.integers(0, 30_000),
)
encoded_word = st.builds(
    lambda charset, enc, payload: b"=?" + charset.encode("utf-8", "replace") + b"?" + enc + b"?" + payload + b"?=",
    st.sampled_from(CHARSETS), st.sampled_from([b"q", b"Q", b"b", b"B", b"x", b""]),
    st.binary(max_size=40).map(lambda b: b.replace(b"?=", b"")),
)
header_value = st.one_of(
    st.binary(max_size=200),
    st.text(max_size=100).map(lambda t: t.encode("utf-8", "surrogateescape")),
    encoded_word,
    st.lists(st.one_of(encoded_word, st.binary(max_size=20)), max_size=6).map(b" ".join),
    big,
)
HEADER_NAMES = [b"Subject", b"Message-ID", b"In-Reply-To", b"References", b"Reply-To", b"To", b"Cc", b"Date",
                b"Content-Type", b"Content-Transfer-Encoding", b"Content-Disposition", b"MIME-Version",
                b"X-Mailer", b"Received", b"Return-Path", b"X-Weird\xff", b"", b" leading-space"]
random_header = st.builds(lambda name, value: name + b": " + value, st.sampled_from(HEADER_NAMES), header_value)

# A From with a known addr-spec (the sender must be exactly it), or junk (the sender must be "").
local = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789.-_+", min_size=1, max_size=20).filter(
    lambda s: s[0] != "." and s[-1] != "." and ".." not in s and not s.startswith(
        ("noreply", "no-reply", "no_reply", "bounce", "postmaster", "mailer-daemon", "donotreply", "do-not-reply",
         "do_not_reply")))
domain = st.lists(st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=12),
                  min_size=1, max_size=4).map(".".join)
address = st.builds(lambda name, host: f"{name}@{host}", local, domain)
good_from = st.one_of(
    address.map(lambda a: (a.encode(), a)),
    st.builds(lambda n, a: (n + b" <" + a.encode() + b">", a),
              st.sampled_from([b"Ada", b'"Ada, Lovelace"', b"=?utf-8?q?Zo=C3=AB?=", b"=?utf-8?q?a@x=3E?=",
                               b"\xc3\xa9\xff", b"=?x-bad?b?AAAA?=", b"(comment)"]), address),
    st.builds(lambda a: (a.encode() + b" (Ada)", a), address),
)
junk_from = st.one_of(header_value, st.sampled_from([b"", b"<>", b"a@b.example, c@d.example", b"@", b"Ada"]))

ROBOT_MARKERS = [b"Auto-Submitted: auto-replied", b"Auto-Submitted: auto-generated", b"Precedence: bulk",
                 b"Precedence: junk", b"Precedence: list", b"Precedence: auto_reply", b"Return-Path: <>",
                 b"List-Id: <x.example.org>", b"List-Unsubscribe: <mailto:x@example.org>",
                 b"Mailing-List: list x@example.org", b"X-Auto-Response-Suppress: All",
                 b"X-Auto-Response-Suppress: OOF", b"X-Loop: gm@example.test", b"X-Autoreply: yes",
                 b"X-GM-Instance: gm@example.test", b"Subject: Automatic reply: orders",
                 b"Subject: Out of Office: orders", b"Subject: Undeliverable: orders",
                 b'Content-Type: multipart/report; boundary="r"']


# MIME bodies: leaves, then trees of them (broad, with bad boundaries and encodings), and deep nests.
def leaf(ctype: bytes, charset: str, encoding: bytes, payload: bytes, disposition: bytes) -> bytes:
    head = b"Content-Type: " + ctype + b"; charset=" + charset.encode("utf-8", "replace")
    if encoding:
        head += b"\r\nContent-Transfer-Encoding: " + encoding
    if disposition:
        head += b"\r\nContent-Disposition: " + disposition
    return head + b"\r\n\r\n" + payload


leaves = st.builds(
    leaf,
    st.sampled_from([b"text/plain", b"text/html", b"application/octet-stream", b"message/delivery-status",
                     b"text/plain; format=flowed; delsp=yes", b"text/plain; format*=utf-8''flowed", b"text",
                     b"message/rfc822", b"text/plain; charset*=x''\xff"]),
    st.sampled_from(CHARSETS),
    st.sampled_from([b"", b"base64", b"quoted-printable", b"x-uuencode", b"8bit", b"bogus\xff", b"7bit"]),
    st.one_of(st.binary(max_size=300), st.just(b"GAME nb1 PASSWORD x\r\nb4xd4\r\n-- \r\nsig\r\n"),
              st.just(b"<p>GAME nb1</p><p>-- <br>x</p>"), st.just(b"=ZZ=\r\n!!!\r\nbegin 644 x\r\nM\r\n"), big),
    st.sampled_from([b"", b"attachment", b"inline", b"attachment; filename=\"\xff\"", b";;;"]),
)


def multipart(children: list[bytes], boundary: bytes, closing: bool, subtype: bytes) -> bytes:
    parts = b"".join(b"--" + boundary + b"\r\n" + child + b"\r\n" for child in children)
    close = b"--" + boundary + b"--\r\n" if closing else b""
    return (b"Content-Type: multipart/" + subtype + b'; boundary="' + boundary + b'"\r\n\r\npreamble\r\n'
            + parts + close)


trees = st.recursive(
    leaves,
    lambda children: st.builds(
        multipart, st.lists(children, max_size=8),
        st.sampled_from([b"b", b"b", b"", b"\xff", b"a b", b"--", b"=_x", b"b" * 200]),
        st.booleans(), st.sampled_from([b"mixed", b"alternative", b"digest", b"report", b"related"])),
    max_leaves=30,
)


def deep(depth: int, kind: int) -> bytes:
    if kind == 0:
        return b"Content-Type: message/rfc822\r\n\r\n" * depth + b"Subject: x\r\n\r\nhi\r\n"
    opening = b"".join(b'Content-Type: multipart/mixed; boundary="d%d"\r\n\r\n--d%d\r\n' % (n, n) for n in range(depth))
    closing = b"".join(b"--d%d--\r\n" % n for n in reversed(range(depth))) if kind == 1 else b""
    return opening + b"Content-Type: text/plain\r\n\r\nGAME nb1\r\n" + closing


bodies = st.one_of(trees, st.builds(deep, st.integers(0, 2_000), st.integers(0, 2)), st.binary(max_size=500), big)


@st.composite
def messages(draw):
    """(raw, expected sender or None for junk, robot expected, max_bytes)."""
    robot = draw(st.one_of(st.none(), st.sampled_from(ROBOT_MARKERS)))
    if draw(st.booleans()):
        from_bytes, expected = draw(good_from)
    else:
        from_bytes, expected = draw(junk_from), None
    lines = [b"From: " + from_bytes]
    if robot:
        lines.append(robot)
    lines += draw(st.lists(random_header, max_size=8))
    separator = draw(st.sampled_from([b"\r\n", b"\n", b"\r"]))
    body = draw(bodies)
    top = draw(st.sampled_from([b"", b"MIME-Version: 1.0" + separator]))
    if body.startswith(b"Content-Type:"):  # a MIME entity: its header continues the message's
        raw = separator.join(lines) + separator + top + body
    else:
        raw = separator.join(lines) + separator + top + separator + body
    max_bytes = draw(st.sampled_from([mailin.DEFAULT_MAX_BYTES, 1_000, 1_000_000]))
    return raw, expected, robot, max_bytes


def _timed_parse(raw: bytes, max_bytes: int) -> mailin.Inbound:
    start = time.process_time()
    inbound = mailin.parse(raw, GM, max_bytes=max_bytes)
    elapsed = time.process_time() - start
    assert elapsed < DEADLINE_MS / 1000, f"{elapsed:.2f}s for {len(raw)} bytes"
    return inbound


@FUZZ
@given(messages())
def test_parse_never_raises_and_answers_only_the_from_address(case):
    raw, expected, robot, max_bytes = case
    inbound = _timed_parse(raw, max_bytes)
    assert isinstance(inbound, mailin.Inbound)
    assert inbound.raw == raw
    reply = inbound.reply_address
    assert reply == inbound.sender
    assert reply == "" or (valid_addr_spec(reply) and reply in raw.split(b"\r", 1)[0].split(b"\n", 1)[0]
                           .decode("utf-8", "replace").lower())
    if expected is not None and b"From:" not in raw[len(b"From:"):].split(b"\n\n")[0]:
        assert reply in ("", expected.lower())
    if robot:
        assert inbound.robot, robot
    if len(raw) > max_bytes:
        assert inbound.too_large and inbound.refuse and inbound.text == "" and inbound.full_text == ""
    else:
        assert not inbound.too_large
    for value in (inbound.subject, inbound.sender_name, inbound.text, inbound.full_text, inbound.reply_to):
        assert isinstance(value, str)
    assert all(isinstance(r, str) for r in inbound.references)
    assert len(inbound.references) <= mailin.MAX_REFERENCES


@FUZZ
@given(good_from, st.lists(random_header, max_size=6))
def test_a_good_from_is_the_sender_whatever_else_the_header_holds(from_case, headers):
    from_bytes, expected = from_case
    # (a line starting with a space would continue the From field itself)
    headers = [h for h in headers if not h.lower().startswith(b"from") and h[:1] not in (b" ", b"\t")]
    raw = b"\r\n".join([b"From: " + from_bytes, *headers]) + b"\r\n\r\nGAME nb1\r\n"
    inbound = _timed_parse(raw, mailin.DEFAULT_MAX_BYTES)
    # Only another From line smuggled in by a bare CR/LF inside a value may take the sender away.
    smuggled = b"\nfrom:" in raw.lower().replace(b"\r", b"\n")[1:]
    assert inbound.sender == expected.lower() or (smuggled and inbound.sender == "")


@FUZZ
@given(st.sampled_from(ROBOT_MARKERS), good_from, st.lists(random_header, max_size=4), bodies)
def test_robots_are_flagged_whatever_the_body(robot, from_case, headers, body):
    raw = b"\r\n".join([b"From: " + from_case[0], robot, *headers]) + b"\r\n\r\n" + body
    assert _timed_parse(raw, mailin.DEFAULT_MAX_BYTES).robot


order_words = st.sampled_from(["GAME", "game:", "PASSWORD", "pass=", "PRESS", "TO", "ALL", "ENDPRESS", "END", "HELP",
                               "BOARD", "ABSENCE", "b4xd4", "[nb1 T3]", "[", "]", " ", "\t", "\n", "\r\n", "#", ":",
                               "=", "é", "\u2028", "\x00", "nb1", "[gm nb1]"])
order_text = st.one_of(
    st.lists(order_words, max_size=60).map("".join),
    st.text(max_size=300),
    st.builds(lambda w, n: w * n, order_words, st.integers(0, 20_000)),
)


@FUZZ
@given(order_text, order_text)
def test_orders_read_never_raises_or_stalls(subject, text):
    start = time.process_time()
    mail = orders.read(subject, text)
    assert time.process_time() - start < DEADLINE_MS / 1000
    assert isinstance(mail, orders.OrderMail)
    assert mail.game_id is None or mail.game_id == mail.game_id.lower()


# --- the whole ingest path -------------------------------------------------------------------
@pytest.fixture(scope="module")
def service(tmp_path_factory):
    """One gm with a game, answering every mail it may (no rate limit hides a wrong reply)."""
    config = Config(data_dir=tmp_path_factory.mktemp("fuzz"), address=GM, max_message_bytes=1_000_000,
                    error_replies_per_hour=10**9, unauthenticated_replies_per_hour=10**9)
    store = Store(config.database)
    engine = Engine(store, config)
    engine.create_game("neighbors", "nb1", [("ada", "ada@example.org"), ("bob", "bob@example.org")], seed=7)
    yield engine
    store.close()


@FUZZ
@given(messages())
def test_ingest_never_raises_and_replies_at_most_once_only_to_from_never_to_a_robot(service, case):
    raw, _, robot, _ = case
    engine = service
    before = engine.store.one("SELECT COALESCE(MAX(id), 0) AS n FROM outbox")["n"]
    states = engine.store.one("SELECT COUNT(*) AS n FROM states")["n"]
    locks = engine.store.one("SELECT COALESCE(MAX(id), 0) AS n FROM credential_locks")["n"]
    start = time.process_time()
    outcome = engine.ingest(raw)  # must not raise
    assert time.process_time() - start < DEADLINE_MS / 1000
    assert outcome.outcome != "error", outcome.detail  # nothing in the service broke on it
    # Besides the one reply, only a lock-out (wrong passwords, from every example's
    # strangers together) mails anyone: one notice to each seat it locked (no gm_address here).
    locked = engine.store.all("SELECT player FROM credential_locks WHERE id > :since AND player != ''", since=locks)
    seat_mail = {"ada": "ada@example.org", "bob": "bob@example.org"}
    notices = engine.store.all("SELECT recipient, raw FROM outbox WHERE id > :since AND kind = 'notice'", since=before)
    assert sorted(m["recipient"] for m in notices) == sorted(seat_mail[r["player"]] for r in locked)
    new = engine.store.all("SELECT recipient, raw FROM outbox WHERE id > :since AND kind != 'notice'", since=before)
    assert len(new) <= 1  # one reply per mail at most (nobody here knows a password: no reports)
    assert engine.store.one("SELECT COUNT(*) AS n FROM states")["n"] == states  # no order applied
    inbound = mailin.parse(raw, GM, max_bytes=engine.config.max_message_bytes)
    if new:
        assert not robot and not inbound.robot
        assert new[0]["recipient"] == inbound.sender != ""
        assert len(unpack_mail(new[0]["raw"])) <= MAX_OUTGOING_BYTES
