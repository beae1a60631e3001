"""gm.runtime.sendprocess: the SMTP client in a child process, against the real aiosmtpd."""

from __future__ import annotations

import os
import signal
import sys
from functools import partial

import pytest

from gm.core.config import ServerConfig
from gm.runtime.delivery import PermanentFailure, TemporaryFailure, TransportDown
from gm.runtime.sendprocess import ProcessTransport, portable, rebuilt
from gm.runtime.smtp import SmtpTransport


def mail(n: int) -> bytes:
    return (f"From: gm@example.org\nTo: p{n}@example.org\nSubject: turn {n}\n"
            f"Message-ID: <{n}.test@example.org>\n\nreport {n}\n").encode()


def rows(*numbers: int, to=None) -> list[dict]:
    return [{"id": n, "recipient": to or f"p{n}@example.org", "raw": mail(n), "attempts": 0} for n in numbers]


@pytest.fixture
def transport(smtp):
    made = ProcessTransport(partial(SmtpTransport, ServerConfig(port=smtp.port, timeout=5), connections=2),
                            envelope=lambda outbox_id: f"gm+bounce-{outbox_id}@example.org")
    yield made
    made.close()


def test_a_batch_goes_out_from_the_child_with_each_rows_envelope(transport, smtp):
    results = []
    transport.send_many(rows(1, 2, 3), lambda row, exc: results.append((row["id"], exc)))
    assert sorted(results) == [(1, None), (2, None), (3, None)]
    assert sorted(smtp.envelope_senders) == [(f"gm+bounce-{n}@example.org", f"<{n}.test@example.org>")
                                             for n in (1, 2, 3)]
    assert transport.process.pid != os.getpid() and transport.process.poll() is None


def test_refusals_come_back_as_the_kinds_flush_tells_apart(transport, smtp):
    smtp.refuse.add("gone@example.org")
    smtp.defer.add("full@example.org")
    results = {}
    transport.send_many(rows(1, to="gone@example.org") + rows(2, to="full@example.org") + rows(3),
                        lambda row, exc: results.__setitem__(row["id"], exc))
    assert isinstance(results[1], PermanentFailure) and "550" in str(results[1])
    assert isinstance(results[2], TemporaryFailure) and "452" in str(results[2])
    assert results[3] is None
    assert [m["Subject"] for m in smtp.to("p3@example.org")] == ["turn 3"]


def test_a_single_send_raises_what_the_server_said(transport, smtp):
    smtp.refuse.add("gone@example.org")
    transport.send("p1@example.org", mail(1), 1)
    with pytest.raises(PermanentFailure):
        transport.send("gone@example.org", mail(2), 2)
    assert smtp.count() == 1


def test_when_the_child_dies_the_rows_keep_their_place_and_the_next_batch_has_a_new_child(transport, smtp):
    transport.send_many(rows(1), lambda row, exc: None)
    first = transport.process.pid
    os.kill(first, signal.SIGKILL)
    transport.process.wait(5)
    results = []
    transport.send_many(rows(2, 3), lambda row, exc: results.append((row["id"], exc)))
    # Either the dead child is noticed before the batch (a new one sends it) or while sending
    # (the first unanswered row is "unreachable": flush keeps it and the rest in the queue).
    if results and isinstance(results[0][1], TransportDown):
        assert results == [(2, results[0][1])]
        transport.send_many(rows(2, 3), lambda row, exc: results.append((row["id"], exc)))
    assert sorted(r for r in results if r[1] is None) == [(2, None), (3, None)]
    assert transport.process.pid != first
    assert sorted(m["Subject"] for _, m in smtp.messages) == ["turn 1", "turn 2", "turn 3"]


def test_an_unreachable_server_is_transport_down(tmp_path):
    from harness import free_port

    made = ProcessTransport(partial(SmtpTransport, ServerConfig(port=free_port(), timeout=2)),
                            envelope=lambda outbox_id: "gm@example.org")
    try:
        results = []
        made.send_many(rows(1, 2), lambda row, exc: results.append((row["id"], exc)))
        assert len(results) == 1 and isinstance(results[0][1], TransportDown)
    finally:
        made.close()


def test_outcomes_cross_the_pipe_as_their_kind_and_words():
    assert rebuilt(portable(None)) is None
    for kind in (TransportDown, PermanentFailure, TemporaryFailure):
        again = rebuilt(portable(kind("550 no")))
        assert type(again) is kind and str(again) == "550 no"
    other = rebuilt(portable(ValueError("odd")))
    assert type(other) is RuntimeError and str(other) == "ValueError: odd"


def test_start_brings_the_child_up_before_the_first_batch_and_it_is_used_for_it(transport, smtp):
    transport.start()
    child = transport.process.pid
    assert transport.process.poll() is None and smtp.count() == 0
    transport.send_many(rows(1), lambda row, exc: None)
    assert transport.process.pid == child and smtp.count() == 1


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")
def test_the_child_dies_with_the_daemon_so_nothing_goes_out_that_could_not_be_marked(smtp, tmp_path):
    """A daemon killed outright (as the crash tests kill it) must not leave its SMTP child sending
    the rest of a batch: those mails could never be marked sent, and would go out again."""
    import subprocess
    import time

    script = tmp_path / "daemon.py"
    script.write_text(
        "import os, sys\n"
        "from functools import partial\n"
        "from gm.core.config import ServerConfig\n"
        "from gm.runtime.sendprocess import ProcessTransport\n"
        "from gm.runtime.smtp import SmtpTransport\n"
        f"smtp = partial(SmtpTransport, ServerConfig(port={smtp.port}, timeout=5))\n"
        "t = ProcessTransport(smtp, lambda outbox_id: 'gm@x.org')\n"
        "t.send('ada@example.org', b'Subject: up\\n\\nthe child is up\\n', 1)\n"
        "keeper = os.fork()\n"
        "if keeper == 0:  # holds the pipes open, so the child sees no end of its input\n"
        "    quiet = os.open(os.devnull, os.O_WRONLY); os.dup2(quiet, 1); os.dup2(quiet, 2)\n"
        "    import time; time.sleep(60); os._exit(0)\n"
        "print(t.process.pid, keeper, flush=True)\n"
        "os._exit(70)\n")
    daemon = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert daemon.returncode == 70, daemon.stderr
    child, keeper = (int(pid) for pid in daemon.stdout.split())
    try:
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                with open(f"/proc/{child}/stat") as f:
                    if f.read().rsplit(")", 1)[1].split()[0] == "Z":  # it has died; init reaps it
                        return
            except FileNotFoundError:
                return
            time.sleep(0.05)
        os.kill(child, signal.SIGKILL)
        pytest.fail(f"the SMTP child {child} outlived its daemon")
    finally:
        os.kill(keeper, signal.SIGKILL)
