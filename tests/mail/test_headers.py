"""The headers a big provider expects of a bulk-ish sender, on every message gm queues and as the
SMTP server receives it: one From, To, Date (UTC, now), a Message-ID on the configured domain,
MIME-Version 1.0 and Auto-Submitted; and the envelope sender is the VERP address of the row."""

from __future__ import annotations

import email
import email.policy
import email.utils

import pytest

from gm.core import config as config_module
from gm.core.config import Config, ConfigError
from gm.runtime.delivery import flush
from gm.runtime.smtp import SmtpTransport
from gm.service.engine import Engine
from gm.store import Store
from gm.store.packing import unpack_mail
from harness import SmtpSink
from support import PLAYERS, Clock

ONE_EACH = ("From", "To", "Subject", "Date", "Message-ID", "MIME-Version", "Auto-Submitted", "Content-Type")


def engine_with(tmp_path, **extra) -> Engine:
    config = Config(data_dir=tmp_path / "gm-data", address="gm@mail.example.test", **extra)
    return Engine(Store(config.database), config, clock=Clock())


def check_headers(raw: bytes, domain: str) -> None:
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    for name in ONE_EACH:
        assert len(msg.get_all(name) or []) == 1, name
    assert msg["MIME-Version"] == "1.0"
    assert msg["Auto-Submitted"] in {"auto-generated", "auto-replied"}
    assert msg["Message-ID"].endswith(f"@{domain}>") and msg["Message-ID"].startswith("<")
    date = email.utils.parsedate_to_datetime(msg["Date"])
    assert date.utcoffset().total_seconds() == 0 and msg["Date"].endswith("+0000")
    assert abs(date.timestamp() - email.utils.localtime().timestamp()) < 120


@pytest.mark.parametrize("extra,domain", [({}, "mail.example.test"),
                                          ({"message_id_domain": "ids.example.test"}, "ids.example.test")])
def test_every_queued_message_has_the_headers(tmp_path, extra, domain):
    engine = engine_with(tmp_path, **extra)
    try:
        engine.create_game("neighbors", "nb1", PLAYERS, seed=3)
        rows = engine.store.all("SELECT raw, message_id FROM outbox")
        assert len(rows) == 2 and len({r["message_id"] for r in rows}) == 2
        for row in rows:
            check_headers(unpack_mail(row["raw"]), domain)
    finally:
        engine.store.close()


def test_the_headers_arrive_over_smtp_with_a_verp_envelope(tmp_path):
    engine = engine_with(tmp_path, message_id_domain="ids.example.test")
    sink = SmtpSink()
    sink.start()
    try:
        engine.create_game("neighbors", "nb1", PLAYERS, seed=3)
        transport = SmtpTransport(config_module.ServerConfig(port=sink.port, timeout=5),
                                  envelope=engine.verp.envelope)
        try:
            assert flush(engine.store, transport, now=engine.clock()) == 2
        finally:
            transport.close()
        for (_, msg), (mail_from, _) in zip(sink.messages, sink.envelope_senders):
            check_headers(msg.as_bytes(), "ids.example.test")
            assert mail_from.startswith("gm+bounce-") and mail_from.endswith("@mail.example.test")
    finally:
        sink.stop()
        engine.store.close()


@pytest.mark.parametrize("value", ["", "a b.org", "<x>", "x@y.org", 5])
def test_a_bad_message_id_domain_is_a_config_error(tmp_path, value):
    path = tmp_path / "gm.yaml"
    path.write_text(f"data_dir: {tmp_path}\nmessage_id_domain: {value!r}\n" if value != 5
                    else f"data_dir: {tmp_path}\nmessage_id_domain: 5\n")
    with pytest.raises(ConfigError, match="message_id_domain"):
        config_module.load(path)
