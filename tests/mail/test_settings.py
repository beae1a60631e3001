"""Server settings: passwords from the environment or a file, never the YAML; TLS modes; backoff."""

from __future__ import annotations

import pytest

from gm.core import config as config_module
from gm.core.config import ConfigError, ServerConfig


def load(tmp_path, text: str):
    path = tmp_path / "gm.yaml"
    path.write_text(text)
    return config_module.load(path)


def test_password_from_env_or_file(tmp_path, monkeypatch):
    monkeypatch.setenv("GM_TEST_IMAP_PW", "from-env")
    (tmp_path / "pw").write_text("from-file\n")
    conf = load(tmp_path, f"""
imap: {{host: mail.example.org, user: gm, password_env: GM_TEST_IMAP_PW, tls: implicit}}
smtp: {{host: mail.example.org, user: gm, password_file: {tmp_path / 'pw'}, tls: starttls,
        backoff: [0.5, 2]}}
""")
    assert conf.imap.password() == "from-env"
    assert conf.smtp.password() == "from-file"
    assert conf.imap.default_port(993, 143) == 993
    assert conf.smtp.default_port(465, 587) == 587
    assert conf.smtp.backoff == [0.5, 2]
    monkeypatch.delenv("GM_TEST_IMAP_PW")
    with pytest.raises(ConfigError, match="GM_TEST_IMAP_PW"):
        conf.imap.password()


@pytest.mark.parametrize("section, message", [
    ("imap: {host: h, user: gm, password: secret}", "password_env or password_file"),
    ("imap: {host: h, user: gm}", "needs password_env or password_file"),
    ("smtp: {host: h, tls: ssl}", "tls must be"),
    ("smtp: {host: h, backoff: []}", "backoff"),
    ("smtp: {host: h, backoff: [1, -2]}", "backoff"),
    ("imap: {host: h, passwd_env: X}", "unknown keys"),
])
def test_bad_server_settings_are_refused(tmp_path, section, message):
    with pytest.raises(ConfigError, match=message):
        load(tmp_path, section)


def test_smtp_transport_modes():
    from gm.runtime.smtp import SmtpTransport

    assert SmtpTransport(ServerConfig(tls="implicit")).port == 465
    assert SmtpTransport(ServerConfig(tls="starttls")).port == 587
    assert SmtpTransport(ServerConfig(tls="none")).port == 25
    assert SmtpTransport(ServerConfig(tls="none", port=2525)).port == 2525


@pytest.mark.parametrize("setting, kind", [("", "ProcessTransport"), ("smtp_process: true\n", "ProcessTransport"),
                                           ("smtp_process: false\n", "SmtpTransport")])
def test_the_smtp_client_runs_in_a_child_process_unless_the_config_says_otherwise(tmp_path, setting, kind):
    from gm.runtime.daemon import make_transport

    conf = load(tmp_path, f"data_dir: {tmp_path}\nsmtp: {{host: 127.0.0.1, port: 2525, tls: none}}\n"
                          f"smtp_connections: 3\n{setting}")
    transport = make_transport(conf)
    assert type(transport).__name__ == kind
    smtp = transport
    if kind == "ProcessTransport":
        assert transport.process is None  # started with the sender thread, not when made
        smtp = transport.factory(envelope=str)  # what the child will make
    assert (smtp.port, smtp.connections) == (2525, 3)
