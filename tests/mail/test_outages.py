"""Outages are weather: PostgreSQL, SMTP or the daemon itself gone for a while.

Against the real servers: a PostgreSQL of the test's own stopped with ``pg_ctl stop -m
immediate`` under two daemons; `gm run` started while it is down; SIGTERM; the aiosmtpd sink
stopped across a deadline; the daemon stopped across a deadline (its clock moved on).
"""

from __future__ import annotations

import collections
import email
import signal
import threading
import time

import pytest

import pgserver
from gm.runtime.daemon import make_transport
from gm.runtime.imap import Daemon
from gm.service.engine import Engine
from gm.store import Store
from harness import wait_until
from support import PLAYERS, order_mail

ADDRESS = dict(PLAYERS)


@pytest.fixture
def own_postgres():
    """A PostgreSQL of this test's own: it is stopped and started again."""
    server = pgserver.start_postgres(durable=True)  # a commit survives -m immediate, as on a real server
    yield server
    pgserver.stop_postgres(server)


def stray_mail(n: int) -> bytes:
    """A mail that is processed (answered with an error) whatever the games' state."""
    raw = order_mail(ADDRESS["ada"], "nothing", game_id=f"nosuch{n}", password="x")
    return raw.replace(b"Message-ID: <", f"Message-ID: <outage-{n}-".encode(), 1)


def processed_ids(dovecot) -> list[str]:
    return [email.message_from_bytes(m["raw"])["Message-ID"] for m in dovecot.folder("gm-processed").values()]


def test_two_daemons_wait_out_a_postgres_restart(harness, dovecot, own_postgres):
    harness.reconfigure(store=own_postgres.url(), tick_seconds=0.3)
    daemons = [harness.start(), harness.start()]
    try:
        for n in range(10):
            dovecot.append(stray_mail(n))
        wait_until(lambda: len(processed_ids(dovecot)) == 10, 30, interval=0.1, what="the first mails")
        own_postgres.stop()  # -m immediate
        for n in range(10, 110):  # a backlog both daemons read at once when the store is back: moving
            dovecot.append(stray_mail(n))  # the same message from both sessions copied it twice
        time.sleep(2.0)  # several ticks (0.3 s) and IMAP passes with the store gone
        assert all(d.thread.is_alive() and d.error is None for d in daemons), [d.error for d in daemons]
        own_postgres.start_again()
        wait_until(lambda: not dovecot.folder("INBOX"), 60, interval=0.2, what="the inbox to empty")
        wait_until(lambda: len(processed_ids(dovecot)) >= 110, 60, interval=0.2, what="all mails moved")
        time.sleep(0.5)  # would a second copy follow?
        assert all(d.thread.is_alive() and d.error is None for d in daemons), [d.error for d in daemons]
    finally:
        for d in daemons:
            d.stop()  # raises what a daemon died of
    store = Store(own_postgres.url())
    try:
        ids = [r["message_id"] for r in store.all("SELECT message_id FROM messages")]
        beats = store.daemons.daemon_rows()
    finally:
        store.close()
    assert len(ids) == len(set(ids)) == 110  # each processed once
    assert {i.split("-")[1] for i in ids} == {str(n) for n in range(110)}
    copies = collections.Counter(processed_ids(dovecot))
    assert len(copies) == 110 and set(copies.values()) == {1}, copies  # each moved once
    assert len(beats) == 2  # one heartbeat row per daemon


def test_gm_run_waits_for_the_store_and_sigterm_exits_0(harness, dovecot, own_postgres, tmp_path):
    harness.reconfigure(store=own_postgres.url(), tick_seconds=0.3)
    harness.engine.store.close()  # the schema is made; now the server goes away
    own_postgres.stop()
    proc = harness.subprocess()
    try:
        time.sleep(2.0)
        assert proc.poll() is None, proc.communicate()[0].decode()  # waiting, not dead
        own_postgres.start_again()
        dovecot.append(stray_mail(1))
        wait_until(lambda: len(processed_ids(dovecot)) == 1, 30, interval=0.1, what="the mail processed")
        proc.send_signal(signal.SIGTERM)
        started = time.time()
        output = proc.communicate(timeout=10)[0].decode()
        assert time.time() - started < 10
        assert proc.returncode == 0, output
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # one line when the store went down, one when it came back: not one per try
    assert output.count("the store down") == 1, output
    assert output.count("the store back") == 1, output


def forfeits(store, game_id: str) -> list:
    return [r for r in store.history.history_of(game_id) if r["action"] == "forfeit"]


def test_a_deadline_moves_by_an_smtp_outage(harness, dovecot, smtp, caplog):
    harness.reconfigure(tick_seconds=0.2)
    caplog.set_level("INFO")
    smtp.stop()
    store = harness.engine.store
    harness.new_game(deadline="4", grace="1", late="forfeit")  # the first report cannot go out
    created = time.time()
    daemon = harness.start()
    try:
        wait_until(lambda: time.time() > created + 7, 10, interval=0.2)  # deadline and grace pass
        assert forfeits(store, "nb1") == []
        assert not any(r["action"] == "late" for r in store.history.history_of("nb1"))
        smtp.start()  # the same port: the outage is over
        notices = [smtp.wait_for(address, 1, timeout=20) for address in ADDRESS.values()]
        wait_until(lambda: any(r["action"] == "moved" for r in store.history.history_of("nb1")), 10, interval=0.1)
        wait_until(lambda: all(any("Deadline moved" in m["Subject"] for m in smtp.to(a)) for a in ADDRESS.values()),
                   10, interval=0.1, what="the notices")
    finally:
        daemon.stop()
    (outage,) = store.daemons.outage_rows()
    assert outage["kind"] == "sending" and outage["applied"] == 1
    length = outage["finish"] - outage["start"]
    assert length > 4
    row = store.timers.deadline_row("nb1")
    assert row["due"] >= created + 4 + length - 1  # moved by the outage's length
    assert forfeits(store, "nb1") == [] and notices
    for address in ADDRESS.values():  # one notice per player
        moved = [m for m in smtp.to(address) if "Deadline moved" in m["Subject"]]
        assert len(moved) == 1
        print(moved[0].get_body(("plain",)).get_content())
    print("\n".join(r.getMessage() for r in caplog.records if r.name.startswith("gm.")))


class ClockDaemon:
    """gm.runtime.imap's daemon in a thread, on a clock the test moves."""

    def __init__(self, config, clock):
        self.stop_event = threading.Event()
        self.error: BaseException | None = None

        def main():  # the engine on the thread: a SQLite connection stays on its thread
            engine = Engine(Store(config.database), config, clock=clock)
            try:
                Daemon(engine, config, make_transport(config), stop=self.stop_event, wake=0.2).run()
            except BaseException as exc:  # noqa: BLE001 - reported by stop()
                self.error = exc
            finally:
                engine.store.close()

        self.thread = threading.Thread(target=main, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.stop_event.set()
        self.thread.join(15)
        assert not self.thread.is_alive()
        if self.error is not None:
            raise self.error


def test_a_deadline_moves_by_the_time_no_daemon_ran(harness, dovecot, smtp):
    harness.reconfigure(tick_seconds=0.2)
    store = harness.engine.store
    offset = [0.0]

    def clock() -> float:
        return time.time() + offset[0]

    harness.new_game(deadline="1h", grace="10m", late="forfeit")
    first_due = store.timers.deadline_row("nb1")["due"]
    daemon = ClockDaemon(harness.config, clock)
    wait_until(lambda: store.one("SELECT count(*) AS n FROM outbox WHERE status != 'sent'")["n"] == 0, 10,
               interval=0.1, what="the welcomes sent")
    sent_before = {address: len(smtp.to(address)) for address in ADDRESS.values()}
    daemon.stop()
    offset[0] = 3 * 3600.0  # gm was away three hours: past the deadline and its grace
    daemon = ClockDaemon(harness.config, clock)
    try:
        wait_until(lambda: any(r["action"] == "moved" for r in store.history.history_of("nb1")), 10, interval=0.1,
                   what="the deadline moved")
        for address in ADDRESS.values():
            smtp.wait_for(address, sent_before[address] + 1)  # the notice
    finally:
        daemon.stop()
    (outage,) = store.daemons.outage_rows()
    assert outage["kind"] == "stopped" and outage["applied"] == 1
    assert outage["finish"] - outage["start"] > 3 * 3600 - 60
    assert store.timers.deadline_row("nb1")["due"] == pytest.approx(first_due + outage["finish"] - outage["start"])
    assert forfeits(store, "nb1") == []
    assert not any(r["action"] == "late" for r in store.history.history_of("nb1"))
    for address in ADDRESS.values():
        assert len([m for m in smtp.to(address) if "Deadline moved" in m["Subject"]]) == 1


def test_the_maildir_daemon_waits_out_a_postgres_restart(tmp_path, own_postgres, caplog):
    from gm.core.config import Config
    from gm.runtime import daemon as maildir_daemon

    caplog.set_level("INFO")
    config = Config(data_dir=tmp_path / "data", address="gm@localhost", store=own_postgres.url(), tick_seconds=0.3)
    Store(config.database).close()  # the schema
    new = config.inbox / "new"
    stop = threading.Event()
    errors: list[BaseException] = []

    def main():
        engine = Engine(Store(config.database), config)
        try:
            maildir_daemon.run(engine, config, stop=stop)
        except BaseException as exc:  # noqa: BLE001 - asserted below
            errors.append(exc)
        finally:
            engine.store.close()

    thread = threading.Thread(target=main, daemon=True)
    thread.start()
    try:
        wait_until(lambda: new.is_dir(), 10, what="the inbox Maildir")
        own_postgres.stop()
        for n in range(5):
            (new / f"mail{n}").write_bytes(stray_mail(n))
        time.sleep(2.0)  # ticks and passes with the store gone
        assert thread.is_alive() and not errors, errors
        own_postgres.start_again()
        wait_until(lambda: not any(new.iterdir()), 30, interval=0.1, what="the inbox read")
    finally:
        stop.set()
        thread.join(15)
    assert not thread.is_alive() and not errors, errors
    store = Store(config.database)
    try:
        assert store.one("SELECT count(*) AS n FROM messages")["n"] == 5
    finally:
        store.close()
    # one line when it went down, one when it was back, from the daemon's loop (the thread's own
    # Store, the sender's, says its own)
    said = [r.getMessage() for r in caplog.records if r.name == "gm.runtime.weather"]
    assert len([m for m in said if m.startswith("the store down")]) == 1, said
    assert len([m for m in said if m.startswith("the store back")]) == 1, said
