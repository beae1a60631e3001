"""Several daemons on one PostgreSQL store and one Dovecot mailbox, killed at random while orders flow.

Each daemon is a `gm run` subprocess, SIGKILLed at seeded random instants and
started again, many times; in one run the server itself is stopped with
``pg_ctl stop -m immediate`` and started again meanwhile.  Afterwards every
order mail was applied exactly once, every queued mail was sent (a copy twice
only under its own Message-ID, when a sender died between the SMTP server's
yes and the "sent" commit), and every deadline step fired once.  And a daemon
killed while it holds mail it claimed: another sends it, and `gm status` says
which daemon took over from which.
"""

from __future__ import annotations

import collections
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

import pgserver
from harness import REPO, wait_until, write_config
from support import PLAYERS, order_mail

GAMES = 4  # games that get orders
ROUNDS = 8  # orders per game
TIMED = 2  # games where nobody moves: their deadline steps fire by the clock


def gm_run(config_path, log_path) -> subprocess.Popen:
    log = open(log_path, "ab")
    return subprocess.Popen([sys.executable, "-m", "gm.cli", "--config", str(config_path), "-v", "run"],
                            cwd=REPO, env=dict(os.environ), stdout=log, stderr=subprocess.STDOUT)


class Daemons:
    """``count`` `gm run` processes on one config, each killed and started again on demand."""

    def __init__(self, harness, logs, count: int = 2):
        self.harness = harness
        self.logs = logs
        self.procs = [self.start(i) for i in range(count)]
        self.kills = 0

    def start(self, i: int) -> subprocess.Popen:
        return gm_run(self.harness.config_path, self.logs / f"daemon{i}.log")

    def kill_and_restart(self, i: int) -> None:
        self.procs[i].send_signal(signal.SIGKILL)
        self.procs[i].wait()
        self.kills += 1
        self.procs[i] = self.start(i)

    def stop(self) -> None:
        for proc in self.procs:
            proc.send_signal(signal.SIGKILL)
            proc.wait()


@pytest.fixture
def own_postgres():
    """A PostgreSQL of this test's own: it is stopped and started again."""
    server = pgserver.start_postgres(durable=True)  # a commit survives -m immediate, as on a real server
    yield server
    pgserver.stop_postgres(server)


def test_two_daemons_killed_at_random_apply_each_order_once(harness, pg_url, tmp_path):
    orders_under_kills(harness, pg_url, tmp_path, count=2)


def test_four_daemons_killed_at_random_and_a_server_restart_apply_each_order_once(harness, own_postgres,
                                                                                   tmp_path):
    def restart():
        own_postgres.stop()  # -m immediate: every daemon's session and transaction gone at once
        time.sleep(1.0)
        own_postgres.start_again()

    orders_under_kills(harness, own_postgres.url(), tmp_path, count=4, restart=restart)


def orders_under_kills(harness, url: str, tmp_path, count: int, restart=None) -> None:
    """Orders to GAMES games and TIMED timed games through ``count`` daemons killed at random;
    ``restart``: stops and starts the server, once, after the third round."""
    harness.reconfigure(store=url, tick_seconds=0.5)
    store, dovecot, smtp = harness.engine.store, harness.dovecot, harness.smtp
    secrets = {f"g{n}": harness.new_game(f"g{n}", seed=n) for n in range(GAMES)}
    for n in range(TIMED):
        harness.new_game(f"t{n}", seed=50 + n, deadline="8", reminder="4", grace="4")
    rng = random.Random(20)
    daemons = Daemons(harness, tmp_path, count)
    done = threading.Event()

    def killer():
        while not done.wait(rng.uniform(0.2, 1.0)):
            daemons.kill_and_restart(rng.randrange(count))

    thread = threading.Thread(target=killer)
    thread.start()
    sent_ids: list[str] = []
    try:
        for round_ in range(ROUNDS):
            for game_id, passwords in secrets.items():
                view = harness.engine.load(game_id)
                (mover,) = view.rules.to_move(view.state)
                order = rng.choice(view.rules.legal_orders(view.state, mover))
                email = dict(PLAYERS)[mover]
                raw = order_mail(email, order, game_id=game_id, password=passwords[mover])
                sent_ids.append(raw.split(b"Message-ID: ", 1)[1].split(b"\n", 1)[0].strip().decode())
                dovecot.append(raw)
            if restart is not None and round_ == 3:
                restart()
            wait_until(lambda: all(harness.states(g) == round_ + 2 for g in secrets), 90,
                       interval=0.1, what=f"round {round_ + 1} applied")
        # the timed games' deadline steps (reminder, deadline, end of grace), still killing
        wait_until(lambda: all(any(r["action"] == "waiting" for r in store.history.history_of(f"t{n}"))
                               for n in range(TIMED)), 60, interval=0.2, what="the grace periods to end")
    finally:
        done.set()
        thread.join()
    try:
        # every queued mail out, with both daemons alive
        wait_until(lambda: store.one("SELECT count(*) AS n FROM outbox WHERE status != 'sent'")["n"] == 0,
                   60, interval=0.2, what="the outbox to empty: "
                   + repr([tuple(r) for r in store.all("SELECT id, status, attempts, next_attempt, last_error "
                                                       "FROM outbox WHERE status != 'sent'")]))
        wait_until(lambda: not dovecot.folder("INBOX"), 30, interval=0.2, what="the inbox to empty")
    finally:
        daemons.stop()
    assert daemons.kills >= 10
    # the work was shared: with two daemons each judged mail; with four, killed every 0.2-1 s
    # between them, one may be killed each time before its start-up ends (a second or two on a
    # loaded host), so at least two did
    judged = [i for i in range(count) if ": applied" in (tmp_path / f"daemon{i}.log").read_text(errors="replace")]
    assert len(judged) >= min(count, 2), judged

    # every order mail: one stored message, applied, one accepted order, one state each
    messages = store.all("SELECT id, message_id, outcome FROM messages")
    assert sorted(m["message_id"] for m in messages) == sorted(sent_ids)
    assert {m["outcome"] for m in messages} == {"applied"}
    orders = store.all("SELECT message_row FROM orders WHERE origin = 'mail' AND accepted = 1")
    assert sorted(o["message_row"] for o in orders) == sorted(m["id"] for m in messages)
    for game_id in secrets:
        assert harness.states(game_id) == ROUNDS + 1

    # every deadline step once
    for n in range(TIMED):
        steps = collections.Counter(r["action"] for r in store.history.history_of(f"t{n}") if r["actor"] == "deadline")
        assert steps["late"] == 1 and steps["waiting"] == 1 and steps["reminder"] <= 1, steps
        notices = store.all("SELECT subject FROM outbox WHERE game_id = :game AND kind = 'notice'", game=f"t{n}")
        assert len(notices) == 1 + steps["reminder"], notices  # the late notice and any reminder

    # every queued mail reached the server; a second copy only under the same Message-ID
    queued = {r["message_id"] for r in store.all("SELECT message_id FROM outbox")}
    received = collections.Counter(smtp.message_ids())
    assert set(received) == queued
    print(f"{daemons.kills} kills; {len(queued)} mails, {sum(received.values()) - len(received)} resent copies")


class SilentSmtp:
    """A server that takes connections and never says a word: a sender on it hangs in its claim."""

    def __init__(self):
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.held: list[socket.socket] = []
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.held.append(conn)

    def close(self) -> None:
        self.sock.close()
        for conn in self.held:
            conn.close()


def test_a_killed_daemons_claimed_mail_is_sent_by_another_and_gm_status_says_so(harness, pg_url, tmp_path):
    harness.reconfigure(store=pg_url, tick_seconds=0.5)
    store = harness.engine.store
    harness.new_game("g0", seed=3)  # two welcomes queued
    silent = SilentSmtp()
    (tmp_path / "stuck").mkdir()
    stuck_config = write_config(tmp_path / "stuck", harness.dovecot, silent, store=pg_url, tick_seconds=0.5,
                                data_dir=str(tmp_path / "data"))
    stuck = gm_run(stuck_config, tmp_path / "stuck.log")
    alive = None
    try:
        claimed = lambda: store.one("SELECT min(claimed_by) AS who FROM outbox WHERE status = 'queued'")["who"]  # noqa: E731
        wait_until(lambda: claimed() is not None, 30, interval=0.02, what="the stuck daemon to claim the welcomes")
        dead = claimed()
        stuck.send_signal(signal.SIGKILL)  # within the SMTP timeout (5 s): it dies holding its claim
        stuck.wait()
        assert {r["claimed_by"] for r in store.all("SELECT claimed_by FROM outbox")} == {dead}
        alive = gm_run(harness.config_path, tmp_path / "alive.log")
        wait_until(lambda: store.one("SELECT count(*) AS n FROM outbox WHERE status != 'sent'")["n"] == 0,
                   30, interval=0.1, what="the other daemon to send the welcomes")
        wait_until(lambda: len(store.daemons.daemon_rows()) == 2, 10, interval=0.1, what="both heartbeats")
        rows = {r["daemon_id"]: r for r in store.daemons.daemon_rows()}
        (taker,) = [d for d in rows if d != dead]
        assert rows[taker]["took_over_from"] == dead and rows[taker]["took_over_at"] is not None
        assert rows[dead]["took_over_from"] is None
        assert sorted(harness.smtp.message_ids()) == sorted(r["message_id"] for r in store.all(
            "SELECT message_id FROM outbox"))
        # gm status, once the dead daemon's heartbeat is older than status_beat_seconds
        harness.reconfigure(store=pg_url, tick_seconds=0.5, status_beat_seconds=2)
        wait_until(lambda: time.time() - rows[dead]["last_seen"] > 2.5, 10, interval=0.1, what="the beat to age")
        shown = subprocess.run([sys.executable, "-m", "gm.cli", "--config", str(harness.config_path), "status"],
                               cwd=REPO, capture_output=True, text=True, timeout=60)
        assert "daemons:    1 alive of 2" in shown.stdout, shown.stdout + shown.stderr
        assert f"  {dead}: not alive" in shown.stdout
        assert f"  {taker}: alive" in shown.stdout
        assert f"took over from {dead} at " in shown.stdout
    finally:
        for proc in (stuck, alive):
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                proc.wait()
        silent.close()
