"""The IMAP daemon serves Prometheus metrics on loopback (``metrics_port``), its counters
moving as mail is judged and sent; against the real Dovecot and SMTP fixtures."""

from __future__ import annotations

import urllib.request

import pytest

from harness import free_port, wait_until
from support import PLAYERS, order_mail

ADA, BOB = dict(PLAYERS)["ada"], dict(PLAYERS)["bob"]


def scrape(port: int) -> str:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
            return response.read().decode()
    except OSError:
        return ""


def test_the_imap_daemon_counts_mail_in_orders_and_mail_out(harness, dovecot):
    pytest.importorskip("prometheus_client")
    port = free_port()
    harness.reconfigure(metrics_port=port)
    passwords = harness.new_game()
    mover, legal = harness.legal()
    daemon = harness.start()
    try:
        dovecot.append(order_mail(dict(PLAYERS)[mover], legal[0], game_id="nb1", password=passwords[mover]))
        wait_until(lambda: 'gm_orders_total{result="applied"} 1.0' in scrape(port), what="an applied order counted")
        wait_until(lambda: "gm_mails_out_total 0.0" not in scrape(port), what="sent mail counted")
        shown = scrape(port)
    finally:
        daemon.stop()
    assert 'gm_mails_in_total{outcome="applied"} 1.0' in shown and "gm_judging_seconds_count" in shown
    assert "gm_judging_seconds_count 0.0" not in shown
    assert scrape(port) == ""  # the server stopped with the daemon
