"""VERP: each message's envelope sender names its outbox row under an HMAC tag (gm.mail.verp)."""

from __future__ import annotations

import stat

import pytest

from gm.core import secrets
from gm.mail.verp import TAG_CHARS, Verp, from_config
from gm.runtime.delivery import flush
from gm.runtime.smtp import SmtpTransport
from gm.core.config import Config, ServerConfig
from harness import SmtpSink

KEY = b"k" * 64


def test_the_envelope_names_the_row_and_reads_back():
    verp = Verp("gm@example.org", KEY)
    address = verp.envelope(42)
    local, _, domain = address.partition("@")
    assert domain == "example.org"
    assert local.startswith("gm+bounce-42-") and len(local) == len("gm+bounce-42-") + TAG_CHARS
    assert verp.match(address).outbox_id == 42 and verp.match(address).valid
    assert verp.match(f"<{address.upper()}>").valid  # a server that folds case or keeps the brackets


@pytest.mark.parametrize("address", [
    "gm@example.org", "ada@example.org", "gm+bounce-42@example.org", "gm+bounce-x-abc@example.org",
    "gm+bounce-42-00@other.example", "xgm+bounce-42-00@example.org", "", "@", "gm+bounce--@example.org",
])
def test_addresses_not_of_the_form_are_not_matched(address):
    assert Verp("gm@example.org", KEY).match(address) is None


def test_a_forged_tag_does_not_check():
    verp = Verp("gm@example.org", KEY)
    good = verp.envelope(7)
    assert not verp.match(good.replace("-7-", "-8-")).valid  # another row's id with this tag
    assert not verp.match(Verp("gm@example.org", b"other" * 10).envelope(7)).valid  # another secret
    tag = verp.tag(7)
    assert not verp.match(good.replace(tag, tag[:-1] + ("0" if tag[-1] != "0" else "1"))).valid


def test_off_the_envelope_is_the_plain_address_but_old_bounces_still_match():
    verp = Verp("gm@example.org", KEY, enabled=False)
    assert verp.envelope(5) == "gm@example.org"
    assert verp.match(Verp("gm@example.org", KEY).envelope(5)).valid


def test_the_secret_file_is_made_0600_once_and_kept(tmp_path):
    path = tmp_path / "d" / "verp-secret"
    first = secrets.load_or_create(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(first) >= secrets.MIN_SECRET_CHARS
    assert secrets.load_or_create(path) == first
    assert secrets.load_or_create(tmp_path / "other") != first
    path.write_text("short\n")
    with pytest.raises(secrets.SecretError):
        secrets.load_or_create(path)


def test_the_config_names_the_secret_outside_the_database(tmp_path):
    config = Config(data_dir=tmp_path / "data", address="gm@example.org")
    assert config.verp_secret_file == tmp_path / "data" / "verp-secret"
    verp = from_config(config)
    assert verp.secret == config.verp_secret_file.read_text().strip().encode()
    assert from_config(Config(data_dir=tmp_path / "data", address="gm@example.org", verp=False)).enabled is False


def test_each_message_leaves_over_smtp_with_its_own_verp_envelope(engine, nb_game, clock):
    sink = SmtpSink()
    sink.start()
    try:
        verp = from_config(engine.config)
        transport = SmtpTransport(ServerConfig(port=sink.port, timeout=5), envelope_from="gm@localhost",
                                  envelope=verp.envelope)
        try:
            assert flush(engine.store, transport, now=clock()) == 2  # the two welcomes
        finally:
            transport.close()
        rows = {r["message_id"]: r["id"] for r in engine.store.all("SELECT id, message_id FROM outbox")}
        assert len(sink.envelope_senders) == 2
        for mail_from, message_id in sink.envelope_senders:
            match = verp.match(mail_from)
            assert match is not None and match.valid and match.outbox_id == rows[message_id]
    finally:
        sink.stop()
