"""The typed config: every key typed with its range, refused at load, all errors at once,
naming the file, the key and what it takes; paths read against the config file's folder; gm config check."""

from __future__ import annotations

import os

import pytest
from typer.testing import CliRunner

from gm.cli import app
from gm.core import config as config_module
from gm.core.config import Config, ConfigError

runner = CliRunner()


def load(tmp_path, text: str) -> Config:
    path = tmp_path / "gm.yaml"
    path.write_text(text)
    return config_module.load(path)


@pytest.mark.parametrize("line, expected", [
    ("max_message_bytes: ten", "max_message_bytes must be a whole number of bytes above 0, not 'ten'"),
    ("poll_seconds: soon", "poll_seconds must be a number of seconds above 0"),
    ("poll_seconds: -5", "poll_seconds must be a number of seconds above 0"),
    ("tick_seconds: 0", "tick_seconds must be a number of seconds above 0"),
    ("inbox: /nonexistent/inbox", "inbox: /nonexistent/inbox does not exist"),
    ("smtp_connections: 0", "smtp_connections must be a whole number above 0"),
    ("imap: {host: h, timeout: 0}", "imap.timeout must be a number of seconds above 0"),
    ("smtp: {host: h, port: 70000}", "smtp.port must be a port number"),
    ("address: nobody", "address must be a mail address"),
    ("imap_idle: perhaps", "imap_idle must be true or false"),
])
def test_a_bad_value_is_refused_at_load_naming_the_file_and_key(tmp_path, line, expected):
    with pytest.raises(ConfigError) as refused:
        load(tmp_path, f"data_dir: {tmp_path}\n{line}\n")
    assert expected in str(refused.value)
    assert str(refused.value).startswith(f"{tmp_path / 'gm.yaml'}: ")


def test_every_error_is_told_at_once_and_nothing_is_made(tmp_path):
    with pytest.raises(ConfigError) as refused:
        load(tmp_path, "data_dir: data\nmax_message_bytes: ten\npoll_seconds: soon\ntick_seconds: 0\n"
                       "inbox: /nonexistent/inbox\nsmtp: {host: h, tls: ssl}\nwhat_is_this: 1\n")
    lines = str(refused.value).splitlines()
    assert len(lines) == 6 and len(refused.value.problems) == 6
    for key in ("max_message_bytes", "poll_seconds", "tick_seconds", "inbox", "smtp.tls", "what_is_this"):
        assert sum(key in line for line in lines) == 1, key
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gm.yaml"]
    assert not os.path.exists("/nonexistent/inbox")


def test_paths_are_read_against_the_config_files_folder(tmp_path, monkeypatch):
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc" / "mail").mkdir()
    (tmp_path / "etc" / "pw").write_text("secret\n")
    monkeypatch.chdir("/")
    conf = load(tmp_path / "etc", "data_dir: data\ninbox: mail\nsmtp: {host: h, user: gm, password_file: pw}\n")
    assert conf.data_dir == tmp_path / "etc" / "data"
    assert conf.database == tmp_path / "etc" / "data" / "gm.sqlite"
    assert conf.inbox == tmp_path / "etc" / "mail" and conf.outbox == tmp_path / "etc" / "data" / "outbox"
    assert conf.smtp.password() == "secret"


def test_a_folder_gm_makes_needs_a_parent_that_exists(tmp_path):
    with pytest.raises(ConfigError, match="data_dir: the folder .*missing.* does not exist"):
        load(tmp_path, f"data_dir: {tmp_path / 'missing' / 'data'}\n")
    assert load(tmp_path, f"data_dir: {tmp_path / 'data'}\n").data_dir == tmp_path / "data"  # made later


def test_config_is_still_built_directly_in_code(tmp_path):
    config = Config(data_dir=tmp_path / "d", address="gm@example.org", poll_seconds=0.3)
    assert config.database == tmp_path / "d" / "gm.sqlite" and config.poll_seconds == 0.3
    config.dkim_domain = "example.org"  # settable, as tests do
    with pytest.raises(ValueError, match="tick_seconds"):
        Config(tick_seconds=0)


def test_config_check_prints_the_effective_config_with_secrets_masked(tmp_path, monkeypatch):
    (tmp_path / "pw").write_text("file-secret-123\n")
    monkeypatch.setenv("GM_TEST_PW", "env-secret-456")
    path = tmp_path / "gm.yaml"
    path.write_text(f"data_dir: {tmp_path}\nstore: postgresql://gm:url-secret-789@127.0.0.1/gm\n"
                    "imap: {host: 127.0.0.1, user: gm, password_env: GM_TEST_PW}\n"
                    "smtp: {host: 127.0.0.1, user: gm, password_file: pw}\n")
    shown = runner.invoke(app, ["--config", str(path), "config", "check"])
    assert shown.exit_code == 0, shown.output
    for secret in ("file-secret-123", "env-secret-456", "url-secret-789"):
        assert secret not in shown.output
    assert "postgresql://gm:***@127.0.0.1/gm" in shown.output
    assert "tick_seconds: 30.0" in shown.output and "max_message_bytes: 1000000" in shown.output  # defaults
    assert "$GM_TEST_PW (set" in shown.output and f"{tmp_path / 'pw'} (not shown)" in shown.output


def test_config_check_fails_on_errors(tmp_path):
    path = tmp_path / "gm.yaml"
    path.write_text("max_message_bytes: ten\ntick_seconds: 0\n")
    refused = runner.invoke(app, ["--config", str(path), "config", "check"])
    assert refused.exit_code == 1
    assert "max_message_bytes must be" in refused.output and "tick_seconds must be" in refused.output


def test_the_embedded_default_still_makes_its_own_data_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GM_CONFIG", raising=False)
    made = runner.invoke(app, ["init"])
    assert made.exit_code == 0, made.output
    assert (tmp_path / "gm-data" / "gm.sqlite").is_file()
