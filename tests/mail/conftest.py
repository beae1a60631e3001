"""Fixtures for the mail tests: a real Dovecot and a real aiosmtpd on 127.0.0.1.

The servers themselves are in tests/harness.py (plain classes, shared with
benchmarks/turnaround.py); this file only turns them into fixtures.
"""

from __future__ import annotations

import pytest

from harness import Harness, SmtpSink, start_dovecot, stop_dovecot


@pytest.fixture(scope="session")
def dovecot_server():
    server = start_dovecot()
    yield server
    stop_dovecot(server)


@pytest.fixture
def dovecot(dovecot_server):
    if dovecot_server.proc is None or dovecot_server.proc.poll() is not None:
        dovecot_server.start()  # a test stopped it
    return dovecot_server.add_user()


@pytest.fixture
def smtp():
    sink = SmtpSink()
    sink.start()
    yield sink
    sink.stop()


@pytest.fixture
def harness(tmp_path, dovecot, smtp):
    h = Harness(tmp_path, dovecot, smtp)
    yield h
    h.engine.store.close()
