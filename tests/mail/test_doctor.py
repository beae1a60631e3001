"""gm doctor against the real Dovecot and aiosmtpd: a healthy set-up is all ok (exit 0); each
broken one says FAIL on its line and exits 1.  DNS is never asked: the DKIM comparison is
tested with record strings passed in."""

from __future__ import annotations

import re

import yaml

from typer.testing import CliRunner

from gm.cli import app
from harness import write_config
from gm.mail import dkim as dkim_keys
from gm.runtime import doctor

KEY = dkim_keys.generate_key(1024)


def run_gm(conf, *args):
    return CliRunner().invoke(app, ["--config", str(conf), *args])


def doctor_run(harness, *args, **overrides):
    path = write_config(harness.tmp, harness.dovecot, harness.smtp, **overrides)  # no engine: gm doctor opens it
    result = run_gm(path, "doctor", "--no-dns", *args)
    return result.exit_code, result.output


def verdicts(output: str) -> dict[str, str]:
    """check name -> verdict, from doctor's lines."""
    found = {}
    for line in output.splitlines():
        match = re.match(r"(ok|warn|FAIL)\s+(\S+(?: \S+)*?)(?:\s{2,}|$)", line)
        if match:
            found[match.group(2)] = match.group(1)
    return found


def test_a_healthy_setup_is_all_ok(harness, tmp_path):
    code, output = doctor_run(harness, archive_dir=str(tmp_path / "site"))
    print(output)
    seen = verdicts(output)
    assert code == 0, output
    assert set(seen.values()) == {"ok"}, output
    for name in ("config", "store reachable, migrated", "store writable", "IMAP login", "IMAP folder INBOX",
                 "IMAP IDLE", "SMTP connect", "SMTP AUTH", "SMTP MAIL FROM", "archive folder", "outbox",
                 "bouncing addresses", "clock"):
        assert name in seen, (name, output)
    assert harness.smtp.count() == 0  # no mail sent without --send-test


def test_wrong_imap_password_fails(harness, tmp_path):
    harness.reconfigure()
    (tmp_path / "imap-password").write_text("not-the-password\n")
    result = run_gm(harness.config_path, "doctor", "--no-dns")
    print(result.output)
    assert result.exit_code == 1
    assert verdicts(result.output)["IMAP login"] == "FAIL"
    assert "Authentication failed" in result.output and "b'" not in result.output  # the server's words, as text
    assert "\n1 failed, 0 warnings\n" in result.output


def test_relay_refusing_the_verp_sender_fails_with_advice(harness):
    harness.smtp.sender_refusal = "550 5.7.1 {sender}: sender address rejected"
    code, output = doctor_run(harness)
    print(output)
    assert code == 1
    assert verdicts(output)["SMTP MAIL FROM"] == "FAIL"
    assert "+bounce-" in output and "verp: false" in output


def test_verp_false_is_accepted_where_plus_addresses_are_refused(harness):
    harness.smtp.sender_refusal = None
    code, output = doctor_run(harness, verp=False)
    assert code == 0, output
    assert "+bounce-" not in output


def test_unwritable_archive_folder_fails(harness, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    # a file where the folder should be: running as root, no mode keeps gm out
    code, output = doctor_run(harness, archive_dir=str(blocker))
    print(output)
    assert code == 1
    assert verdicts(output)["archive folder"] == "FAIL"


def test_unreachable_smtp_fails(harness):
    harness.smtp.stop()
    code, output = doctor_run(harness)
    assert code == 1
    assert verdicts(output)["SMTP connect"] == "FAIL"


def test_invalid_config_fails(tmp_path):
    path = tmp_path / "gm.yaml"
    path.write_text(yaml.safe_dump({"data_dir": str(tmp_path / "d"), "poll_seconds": "often"}))
    result = run_gm(path, "doctor", "--no-dns")
    assert result.exit_code == 1
    assert verdicts(result.output)["config"] == "FAIL"


def test_send_test_sends_one_mail(harness):
    code, output = doctor_run(harness, "--send-test", "me@example.org")
    assert code == 0, output
    assert len(harness.smtp.wait_for("me@example.org", 1)) == 1


def test_dkim_key_without_dns_prints_the_record(harness, tmp_path):
    (tmp_path / "dkim.key").write_bytes(KEY)
    code, output = doctor_run(harness, dkim_key_file=str(tmp_path / "dkim.key"), dkim_selector="s1")
    assert code == 0, output
    assert verdicts(output)["DKIM DNS"] == "warn"
    assert "s1._domainkey." in output and dkim_keys.public_key_b64(KEY)[:40] in output


def test_unreadable_dkim_key_fails(harness, tmp_path):
    (tmp_path / "dkim.key").write_text("not a key")
    code, output = doctor_run(harness, dkim_key_file=str(tmp_path / "dkim.key"), dkim_selector="s1")
    assert code == 1
    assert verdicts(output)["DKIM key"] == "FAIL"


def test_dkim_comparison_with_records_passed_in():
    record = dkim_keys.dns_record("gm", "example.org", KEY)
    published = "".join(re.findall(r'"([^"]*)"', record))
    assert doctor.dkim_check(KEY, "gm", "example.org", lambda name: [published]).verdict == doctor.OK
    other = dkim_keys.generate_key(1024)
    stale = doctor.dkim_check(other, "gm", "example.org", lambda name: [published])
    assert stale.verdict == doctor.FAIL and "publish:" in stale.advice
    assert doctor.dkim_check(KEY, "gm", "example.org", lambda name: []).verdict == doctor.WARN
    assert doctor.dkim_check(KEY, "gm", "example.org", None).verdict == doctor.WARN



def test_outbox_backlog_and_bouncing_addresses_are_shown(harness):
    harness.new_game()  # its welcome mails wait in the outbox
    with harness.engine.store.write():
        harness.engine.store.delivery.set_address_state("gone@example.org", "bouncing", 0.0, "550 no such user")
    code, output = doctor_run(harness)
    print(output)
    assert code == 0, output
    assert re.search(r"outbox\s+\d+ queued, oldest", output)
    assert verdicts(output)["bouncing addresses"] == "warn" and "gone@example.org" in output


def test_a_postgresql_store_is_checked(harness, pg_url):
    from gm.store import Store

    Store(pg_url).close()  # made and migrated, as gm init would
    code, output = doctor_run(harness, store=pg_url)
    print(output)
    assert code == 0, output
    assert verdicts(output)["store writable"] == "ok" and "postgresql://" in output


def test_an_unreachable_postgresql_store_fails(harness):
    from harness import free_port

    code, output = doctor_run(harness, store=f"postgresql://gm@127.0.0.1:{free_port()}/nothing")
    print(output)
    assert code == 1
    assert verdicts(output)["store"] == "FAIL"


def test_the_clock_is_read_against_the_imap_server_and_the_store_and_the_probe_is_gone(harness):
    harness.new_game()  # times in the store: the game, its welcomes
    code, output = doctor_run(harness)
    print(output)
    assert code == 0, output
    seen = verdicts(output)
    assert seen["clock vs IMAP"] == "ok" and seen["clock vs store"] == "ok"
    assert re.search(r"clock vs IMAP\s+the server's INTERNALDATE \S+: this clock is (ahead|behind) by [0-2] s", output)
    assert "newest time in the store" in output
    assert harness.dovecot.folder("INBOX") == {}  # the probe expunged, nothing left for gm to read
    harness.once()  # the processed folder made: the probe goes there, and is gone from it too
    code, output = doctor_run(harness)
    assert verdicts(output)["clock vs IMAP"] == "ok", output
    assert harness.dovecot.folder("gm-processed") == {}


def test_a_store_written_by_a_clock_ahead_of_this_one_fails(harness):
    harness.new_game()
    with harness.engine.store.write():  # the clock went back an hour since gm last wrote
        harness.engine.store.db.execute("UPDATE games SET updated = updated + 3600")
    code, output = doctor_run(harness)
    print(output)
    assert code == 1
    assert verdicts(output)["clock vs store"] == "FAIL"
    assert "games.updated holds" in output and "ahead of this clock: the clock went back" in output
    assert "set the system clock (NTP)" in output


def test_an_smtp_greeting_with_a_date_is_read_as_the_servers_clock(harness):
    import email.utils
    import time

    for offset, verdict in ((0, "ok"), (-600, "warn"), (-7200, "FAIL")):
        harness.smtp.stop()
        harness.smtp.ident = f"ESMTP Sendmail 8.17; {email.utils.formatdate(time.time() + offset)}"
        harness.smtp.start()
        code, output = doctor_run(harness)
        print(output)
        assert verdicts(output)["clock vs SMTP"] == verdict, output
        assert code == (1 if verdict == "FAIL" else 0)
    assert "this clock is ahead by 7" in output


def test_clock_verdicts_and_dates_in_greetings():
    assert doctor.clock_check("c", 1000.0, 1100.0, "x").verdict == doctor.OK
    assert doctor.clock_check("c", 1000.0, 1000.0 - 600, "x").verdict == doctor.WARN
    assert doctor.clock_check("c", 1000.0, 1000.0 + 901, "x").verdict == doctor.FAIL
    assert doctor.date_in("mx.example.org ESMTP Sendmail 8.15.2; Wed, 25 Nov 2026 23:40:00 +0000") == 1795650000.0
    assert doctor.date_in("127.0.0.1 ESMTP Postfix") is None
