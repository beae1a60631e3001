"""``gm status``: the health check on a real store with a Maildir daemon pass (tests/mailroom.py)."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request

import pytest
from typer.testing import CliRunner

from gm.cli import app
from gm.runtime import daemon
from gm.service.engine import Engine
from gm.store import Store
from mailroom import Mailroom
from support import EXAMPLE_LAYOUT, PLAYERS, order_mail

ADA, BOB = dict(PLAYERS)["ada"], dict(PLAYERS)["bob"]


def gm_status(room: Mailroom, *args: str):
    result = CliRunner().invoke(app, ["--config", room.conf, "status", *args], env={"GM_USER": "tester"})
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def test_status_is_healthy_after_a_daemon_pass_and_unhealthy_when_the_beat_is_stale(tmp_path):
    room = Mailroom(tmp_path)
    room.engine.create_game("neighbors", "nb1", PLAYERS, seed=5,
                            options={"layout": EXAMPLE_LAYOUT, "deadline": "72h"})
    room.deliver(b"From: someone@example.test\r\nTo: gm@example.test\r\nSubject: hi\r\n\r\nhello\r\n")
    assert len(room.run()) >= 2  # gm run --once: the welcomes sent, the mail answered, a heartbeat written
    assert len(room.outcomes()) == 1

    healthy = gm_status(room)
    print(healthy.output)
    assert healthy.exit_code == 0, healthy.output
    assert "health:     ok" in healthy.output and "1 alive of 1" in healthy.output
    assert "0 queued, 0 held, 0 failed, " in healthy.output and "errors:     0 in the last hour" in healthy.output
    assert "next:       nb1 at" in healthy.output
    shown = json.loads(gm_status(room, "--json").output)
    assert shown["healthy"] is True and shown["outbox"]["sent"] >= 2 and shown["inbox_unread"] == 0
    assert [d["game_id"] for d in shown["next_deadlines"]] == ["nb1"]

    with room.engine.store.write():  # the daemon stopped two hours ago; mail is waiting and one failed
        room.engine.store.db.execute("UPDATE daemons SET last_seen = last_seen - 7200")
        room.engine.store.db.execute("UPDATE outbox SET status = 'queued', created = created - 7200 "
                                     "WHERE id = (SELECT min(id) FROM outbox)")
        room.engine.store.db.execute("UPDATE outbox SET status = 'failed' WHERE id = (SELECT max(id) FROM outbox)")
        room.engine.store.db.execute("UPDATE messages SET outcome = 'error'")
    room.deliver(b"From: someone@example.test\r\nSubject: hi\r\n\r\nhello\r\n")

    broken = gm_status(room)
    print(broken.output)
    assert broken.exit_code == 1, broken.output
    assert "health:     UNHEALTHY" in broken.output and "0 alive of 1" in broken.output
    assert "no daemon beat for 72" in broken.output and "the oldest queued mail waits 72" in broken.output
    assert "1 outgoing mail failed for good" in broken.output and "1 unread in the Maildir" in broken.output
    assert "1 incoming mail ended in an error in the last hour" in broken.output
    shown = json.loads(gm_status(room, "--json").output)
    assert shown["healthy"] is False and len(shown["problems"]) == 4


def test_status_of_a_store_no_daemon_ever_ran_on_is_unhealthy(tmp_path):
    room = Mailroom(tmp_path)
    result = gm_status(room)
    assert result.exit_code == 1 and "no daemon has ever run" in result.output


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def scrape(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        return response.read().decode()


def test_the_daemon_serves_metrics_on_loopback_and_its_counters_move(tmp_path):
    pytest.importorskip("prometheus_client")
    port = free_port()
    room = Mailroom(tmp_path, f"metrics_port: {port}\n")
    passwords = room.engine.create_game("neighbors", "nb1", PLAYERS, seed=5, options={"layout": EXAMPLE_LAYOUT})
    view = room.engine.load("nb1")
    ada_move = view.rules.legal_orders(view.state, "ada")[0]
    room.deliver(order_mail(ADA, ada_move, game_id="nb1", password=passwords["ada"]))
    room.deliver(order_mail(BOB, "nonsense order", game_id="nb1", password=passwords["bob"]))
    stop = threading.Event()
    runner = threading.Thread(target=lambda: daemon.run(Engine(Store(room.config.database), room.config),
                                                        room.config, stop=stop))
    runner.start()
    try:
        shown = ""
        for _ in range(100):  # the first pass handles both mails and sends the mail they make
            time.sleep(0.05)
            try:
                shown = scrape(port)
            except OSError:  # not listening yet
                continue
            if 'gm_orders_total{result="refused"} 1.0' in shown and "gm_mails_out_total 0.0" not in shown:
                break
    finally:
        stop.set()
        runner.join(10)
    assert 'gm_orders_total{result="applied"} 1.0' in shown and 'gm_orders_total{result="refused"} 1.0' in shown
    assert 'gm_mails_in_total{outcome="applied"} 1.0' in shown, shown
    assert "gm_mails_out_total 0.0" not in shown and "gm_mails_out_total" in shown
    assert "gm_judging_seconds_count 1.0" in shown and "gm_outbox_depth 0.0" in shown
    with pytest.raises(OSError):  # served on loopback only, and no longer once the daemon stopped
        scrape(port)
