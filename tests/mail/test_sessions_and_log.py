"""SMTP sessions end with QUIT, and `gm -v run` logs each mail in and out, against
aiosmtpd, Dovecot, and the inbox and outbox Maildirs."""

from __future__ import annotations

import subprocess
import sys

import pytest

from gm.core.config import ServerConfig
from gm.runtime.smtp import SmtpTransport
from gm.runtime.transport import PermanentFailure
from harness import REPO, SmtpSink
from support import PLAYERS, order_mail

ADDRESS = dict(PLAYERS)


class CountingSink(SmtpSink):
    """The test server, counting the sessions opened (EHLO) and ended with QUIT."""

    def __init__(self):
        super().__init__()
        self.ehlo = self.quit = 0

    async def handle_EHLO(self, server, session, envelope, hostname, responses):
        session.host_name = hostname
        with self.lock:
            self.ehlo += 1
        return responses

    async def handle_QUIT(self, server, session, envelope):
        with self.lock:
            self.quit += 1
        return "221 Bye"


@pytest.fixture
def counting():
    sink = CountingSink()
    sink.start()
    yield sink
    sink.stop()


def mail(to: str, n: int) -> bytes:
    return f"From: gm@localhost\r\nTo: {to}\r\nSubject: {n}\r\nMessage-ID: <{n}@localhost>\r\n\r\nhi\r\n".encode()


def test_every_smtp_session_ends_with_quit_even_after_a_refusal(counting):
    counting.refuse.add("gone@example.org")
    transport = SmtpTransport(ServerConfig(port=counting.port, timeout=5), envelope_from="gm@localhost",
                              connections=1)
    try:
        transport.send("ada@example.org", mail("ada@example.org", 1), 1)
        with pytest.raises(PermanentFailure):
            transport.send("gone@example.org", mail("gone@example.org", 2), 2)  # the lane is dropped
        transport.send("bob@example.org", mail("bob@example.org", 3), 3)  # on a new session
    finally:
        transport.close()
    assert len(counting.messages) == 2
    assert counting.ehlo == 2 and counting.quit == 2  # both sessions said QUIT, none was just cut


def test_gm_v_run_logs_each_mail_in_and_out_on_the_maildirs(tmp_path):
    conf = tmp_path / "gm.yaml"
    conf.write_text(f"data_dir: {tmp_path / 'data'}\naddress: gm@localhost\n")

    def gm(*args, stdin=None):
        return subprocess.run([sys.executable, "-m", "gm.cli", "--config", str(conf), *args], cwd=REPO,
                              capture_output=True, timeout=60, input=stdin)

    made = gm("new", "neighbors", "--id", "nb1", "--player", "ada=ada@example.org", "--player",
              "bob=bob@example.org", "--seed", "3")
    assert made.returncode == 0, made.stderr
    inbox = tmp_path / "data" / "inbox" / "new"
    inbox.mkdir(parents=True)
    (inbox / "1.eml").write_bytes(b"From: ada@example.org\r\nTo: gm@localhost\r\nSubject: help\r\n\r\nhelp\r\n")
    ran = gm("-v", "run", "--once")
    assert ran.returncode == 0, ran.stderr
    log = ran.stderr.decode()
    assert "mail in: Maildir 1.eml: " in log
    outs = [line for line in log.splitlines() if "mail out: outbox #" in line]
    assert len(outs) == 3  # two welcomes and the help reply
    assert all("accepted by the outbox Maildir" in line for line in outs)


def test_gm_v_run_logs_each_mail_in_and_out_over_imap_and_smtp(harness, dovecot, smtp):
    passwords = harness.new_game()
    mover, legal = harness.legal()
    dovecot.append(order_mail(ADDRESS[mover], legal[0], game_id="nb1", password=passwords[mover]))
    proc = harness.subprocess("--once")
    output = proc.communicate(timeout=60)[0].decode()
    assert proc.returncode == 0, output
    assert sum("mail in: IMAP uid " in line and " applied " in line for line in output.splitlines()) == 1
    outs = [line for line in output.splitlines() if "mail out: outbox #" in line]
    assert len(outs) == len(smtp.messages) == 2 * len(PLAYERS)  # the welcomes, then the reports
    assert all("accepted by the SMTP client's child process" in line for line in outs)
