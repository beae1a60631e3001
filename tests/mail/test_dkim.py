"""DKIM: gm signs what it queues, and the signature verifies as the receiving server sees it."""

from __future__ import annotations

import os
import re

import dkim
import pytest
import yaml
from typer.testing import CliRunner

from gm.cli import app
from gm.core import config as config_module
from gm.core.config import Config, ConfigError
from gm.mail import dkim as gm_dkim
from gm.service.engine import Engine
from gm.store import Store
from gm.store.packing import unpack_mail
from harness import Harness, SmtpSink
from support import EXAMPLE_LAYOUT, GM_ADDRESS, PLAYERS, Clock

SELECTOR = "gm2025"
DOMAIN = GM_ADDRESS.rsplit("@", 1)[1]


@pytest.fixture(scope="module")
def key() -> bytes:
    return gm_dkim.generate_key(2048)


@pytest.fixture
def key_file(tmp_path, key):
    path = tmp_path / "dkim.key"
    path.write_bytes(key)
    path.chmod(0o600)
    return path


def dns_for(key: bytes, selector: str = SELECTOR, domain: str = DOMAIN):
    """A dnsfunc for dkim.verify that knows one record: the TXT gm dkim keygen prints."""
    record = f"v=DKIM1; k=rsa; p={gm_dkim.public_key_b64(key)}".encode()

    def dnsfunc(name, timeout=5):
        return record if name == f"{selector}._domainkey.{domain}.".encode() else None
    return dnsfunc


def signed_engine(tmp_path, key_file, **extra) -> Engine:
    config = Config(data_dir=tmp_path / "gm-data", address=GM_ADDRESS, dkim_selector=SELECTOR,
                    dkim_key_file=key_file, **extra)
    return Engine(Store(config.database), config, clock=Clock())


def queued(engine: Engine) -> list[bytes]:
    return [unpack_mail(r["raw"]) for r in engine.store.all("SELECT raw FROM outbox ORDER BY id")]


def signature_tags(raw: bytes) -> dict[str, str]:
    header = raw.split(b"\n\n", 1)[0].decode().replace("\r\n", "\n")
    field = re.search(r"^DKIM-Signature:(.*?)(?=^\S)", header + "\nX: end", re.M | re.S).group(1)
    tags = (t.strip().split("=", 1) for t in " ".join(field.split()).split(";") if t.strip())
    return {k.strip(): v.strip() for k, v in tags}


def play_a_turn(engine: Engine) -> None:
    engine.create_game("neighbors", "nb1", PLAYERS, seed=5, options={"layout": EXAMPLE_LAYOUT})
    view = engine.load("nb1")
    (mover,) = view.rules.to_move(view.state)
    engine.gm_order("nb1", mover, view.rules.legal_orders(view.state, mover)[0])


def test_reports_are_signed_and_verify(tmp_path, key_file, key):
    engine = signed_engine(tmp_path, key_file)
    try:
        play_a_turn(engine)
        subjects = [r["subject"] for r in engine.store.all("SELECT subject FROM outbox")]
        raws = queued(engine)
    finally:
        engine.store.close()
    assert any("report" in s for s in subjects) and any("Welcome" in s for s in subjects)
    dnsfunc = dns_for(key)
    for raw in raws:
        assert raw.startswith(b"DKIM-Signature: ")
        assert dkim.verify(raw, dnsfunc=dnsfunc)
        assert dkim.verify(raw.replace(b"\n", b"\r\n"), dnsfunc=dnsfunc)  # CRLF, as on the wire
        tags = signature_tags(raw)
        assert (tags["a"], tags["c"], tags["d"], tags["s"]) == ("rsa-sha256", "relaxed/relaxed", DOMAIN, SELECTOR)
        signed = {h.strip() for h in tags["h"].split(":")}
        assert {"from", "to", "subject", "date", "message-id", "mime-version", "content-type",
                "content-transfer-encoding", "auto-submitted"} <= signed


def test_a_reply_signs_its_thread_headers(tmp_path, key_file, key):
    engine = signed_engine(tmp_path, key_file)
    try:
        with engine.store.write():
            engine.outbox.queue("ada@example.org", "Re: orders", "ok\n", kind="reply",
                                in_reply_to="<a1@example.org>", references=["<a0@example.org>"],
                                auto="auto-replied")
        (raw,) = queued(engine)
    finally:
        engine.store.close()
    assert {"in-reply-to", "references"} <= {h.strip() for h in signature_tags(raw)["h"].split(":")}
    dnsfunc = dns_for(key)
    assert dkim.verify(raw, dnsfunc=dnsfunc)
    assert not dkim.verify(raw.replace(b"<a0@example.org>", b"<a9@example.org>"), dnsfunc=dnsfunc)


def test_a_message_altered_after_signing_fails(tmp_path, key_file, key):
    engine = signed_engine(tmp_path, key_file)
    try:
        play_a_turn(engine)
        raw = queued(engine)[-1]
    finally:
        engine.store.close()
    dnsfunc = dns_for(key)
    assert dkim.verify(raw, dnsfunc=dnsfunc)
    head, body = raw.split(b"\n\n", 1)
    flipped = bytearray(body)
    at = next(i for i, b in enumerate(flipped) if chr(b).isalpha())
    flipped[at] ^= 0x20  # one letter's case
    assert not dkim.verify(head + b"\n\n" + bytes(flipped), dnsfunc=dnsfunc)
    assert not dkim.verify(raw.replace(b"\nSubject: [", b"\nSubject: [x", 1), dnsfunc=dnsfunc)
    assert not dkim.verify(raw, dnsfunc=dns_for(gm_dkim.generate_key(1024)))  # another key


def test_no_signature_without_a_selector(engine, nb_game):
    raws = queued(engine)
    assert raws and not any(b"DKIM-Signature" in raw for raw in raws)
    assert engine.outbox.signer is None


# --- through a real SMTP server ------------------------------------------------------------
class RawSink(SmtpSink):
    """The SMTP sink, also keeping each message's bytes exactly as the server received them."""

    def __init__(self):
        super().__init__()
        self.raw: list[bytes] = []

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.raw.append(bytes(envelope.original_content))
        return await super().handle_DATA(server, session, envelope)


@pytest.fixture
def raw_smtp():
    sink = RawSink()
    sink.start()
    yield sink
    sink.stop()


def test_mail_received_over_smtp_verifies(tmp_path, dovecot, raw_smtp, key_file, key):
    harness = Harness(tmp_path, dovecot, raw_smtp)
    harness.engine.store.close()
    harness.reconfigure(dkim_selector=SELECTOR, dkim_key_file=str(key_file))
    try:
        harness.new_game()
        harness.once()  # the welcomes go out over SMTP
    finally:
        harness.engine.store.close()
    assert len(raw_smtp.raw) == len(PLAYERS)
    # Signed and sent with a VERP envelope: the Return-Path is not signed, so each row's own is fine.
    assert all(mail_from.startswith("gm+bounce-") for mail_from, _ in raw_smtp.envelope_senders)
    dnsfunc = dns_for(key)
    for raw in raw_smtp.raw:
        assert b"\r\n" in raw and raw.startswith(b"DKIM-Signature: ")  # CRLF on the wire
        assert dkim.verify(raw, dnsfunc=dnsfunc)
        assert not dkim.verify(raw.replace(b"Welcome", b"Welcone", 1), dnsfunc=dnsfunc)  # the Subject
        head, _, body = raw.partition(b"\r\n\r\n")
        assert b"PASSWORD" in body
        assert not dkim.verify(head + b"\r\n\r\n" + body.replace(b"PASSWORD", b"PASSW0RD", 1), dnsfunc=dnsfunc)
        assert not dkim.verify(raw.replace(b"\r\nTo: ", b"\r\nTo: eve@example.net, ", 1), dnsfunc=dnsfunc)


# --- configuration -------------------------------------------------------------------------
def test_dkim_domain_defaults_to_the_address(tmp_path, key_file):
    path = tmp_path / "gm.yaml"
    path.write_text(yaml.safe_dump({"data_dir": str(tmp_path / "d"), "address": "gm@games.example.org",
                                    "dkim_selector": 2025, "dkim_key_file": str(key_file)}))
    conf = config_module.load(path)
    assert conf.dkim_selector == "2025" and conf.dkim_domain is None
    signer = gm_dkim.Signer.from_config(conf)
    assert (signer.selector, signer.domain) == ("2025", "games.example.org")
    conf.dkim_domain = "example.org"
    assert gm_dkim.Signer.from_config(conf).domain == "example.org"


@pytest.mark.parametrize("content", [None, b"", b"not a key\n",
                                     b"-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n"])
def test_a_bad_key_file_is_a_config_error_at_start(tmp_path, content):
    path = tmp_path / "dkim.key"
    if content is not None:
        path.write_bytes(content)
    config = Config(data_dir=tmp_path / "gm-data", address=GM_ADDRESS, dkim_selector=SELECTOR,
                    dkim_key_file=path)
    store = Store(config.database)
    try:
        with pytest.raises(ConfigError, match=r"dkim_key_file .*dkim\.key"):
            Engine(store, config)
    finally:
        store.close()


def test_an_unreadable_key_file_is_a_config_error(tmp_path, key_file):
    if os.geteuid() == 0:
        key_file.unlink()
        key_file.mkdir()  # root reads any file; a directory cannot be read as one
    else:
        key_file.chmod(0)
    config = Config(data_dir=tmp_path, address=GM_ADDRESS, dkim_selector=SELECTOR, dkim_key_file=key_file)
    with pytest.raises(ConfigError, match="cannot read"):
        gm_dkim.Signer.from_config(config)


@pytest.mark.parametrize("settings, message", [
    ({"dkim_key_file": "k.key"}, "dkim_selector is not"),
    ({"dkim_selector": "gm"}, "dkim_key_file is not"),
    ({"dkim_selector": "bad selector", "dkim_key_file": "k.key"}, "dkim_selector must be"),
])
def test_half_a_dkim_config_is_refused(tmp_path, settings, message):
    path = tmp_path / "gm.yaml"
    path.write_text(yaml.safe_dump(settings))
    with pytest.raises(ConfigError, match=message):
        config_module.load(path)


# --- gm dkim keygen ------------------------------------------------------------------------
def test_keygen_writes_a_private_key_and_prints_its_record(tmp_path):
    conf = tmp_path / "gm.yaml"
    conf.write_text(yaml.safe_dump({"data_dir": str(tmp_path / "d"), "address": GM_ADDRESS,
                                    "dkim_selector": SELECTOR, "dkim_key_file": str(tmp_path / "k.key")}))
    runner = CliRunner()
    result = runner.invoke(app, ["--config", str(conf), "dkim", "keygen", "--bits", "1024"])
    assert result.exit_code == 0, result.output
    key_path = tmp_path / "k.key"
    assert (key_path.stat().st_mode & 0o777) == 0o600
    key = key_path.read_bytes()
    assert key.startswith(b"-----BEGIN RSA PRIVATE KEY-----") and gm_dkim.key_bits(key) == 1024
    line = next(ln for ln in result.output.splitlines() if "IN TXT" in ln)
    assert line.startswith(f'{SELECTOR}._domainkey.{DOMAIN} IN TXT "v=DKIM1; k=rsa; p=')
    record = "".join(re.findall(r'"([^"]*)"', line)).encode()

    # The printed record verifies mail signed with the written key, as gm signs it at start.
    engine = Engine(Store(tmp_path / "d" / "gm.sqlite"), config_module.load(conf))
    try:
        with engine.store.write():
            engine.outbox.queue("ada@example.org", "hello", "body\n", kind="notice")
        (raw,) = queued(engine)
    finally:
        engine.store.close()
    assert dkim.verify(raw, dnsfunc=lambda name, timeout=5: record)

    again = runner.invoke(app, ["--config", str(conf), "dkim", "keygen"])  # never overwrites a key
    assert again.exit_code == 1 and "exists" in again.output
    assert key_path.read_bytes() == key


def test_keygen_out_and_a_long_record(tmp_path):
    out = tmp_path / "new.key"
    conf = tmp_path / "gm.yaml"
    conf.write_text(yaml.safe_dump({"data_dir": str(tmp_path / "d"), "address": "gm@example.org"}))
    result = CliRunner().invoke(app, ["--config", str(conf), "dkim", "keygen", "--out", str(out)])
    assert result.exit_code == 0, result.output
    line = next(ln for ln in result.output.splitlines() if "IN TXT" in ln)
    assert line.startswith('gm._domainkey.example.org IN TXT "v=DKIM1; k=rsa; p=')
    strings = re.findall(r'"([^"]*)"', line)
    assert len(strings) == 2 and all(len(s) <= 255 for s in strings)  # a 2048-bit key: two strings
    assert gm_dkim.key_bits(out.read_bytes()) == 2048


def test_a_signed_message_of_the_largest_size_still_fits_the_cap(tmp_path, key_file, key):
    from gm.mail.outbound import MAX_OUTGOING_BYTES

    engine = signed_engine(tmp_path, key_file)
    try:
        with engine.store.write():
            engine.outbox.queue("ada@example.org", "a long one", "line of a report\n" * 60000,
                                kind="notice")
        (raw,) = queued(engine)
        assert b"DKIM-Signature:" in raw and b"this message was cut short" in raw
        assert MAX_OUTGOING_BYTES * 0.9 < len(raw) <= MAX_OUTGOING_BYTES  # cut near the cap, signature and all
        assert dkim.verify(raw, dnsfunc=dns_for(key))
    finally:
        engine.store.close()


@pytest.mark.parametrize("bits", [4096])
def test_the_reserve_holds_a_long_keys_signature(tmp_path, bits):
    big = gm_dkim.generate_key(bits)
    signer = gm_dkim.Signer(SELECTOR, DOMAIN, big)
    from gm.mail.outbound import compose

    _, raw = compose(sender=GM_ADDRESS, sender_name="gm", to="a" * 200 + "@example.org", subject="s" * 300,
                     body="y" * 10, in_reply_to="<" + "r" * 240 + "@x>", references=["<" + "q" * 240 + "@x>"])
    signed = signer.sign(raw)
    assert len(signed) - len(raw) < gm_dkim.SIGNATURE_RESERVE
