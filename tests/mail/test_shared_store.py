"""Two daemons on one PostgreSQL store and one Dovecot mailbox, killed at random while orders flow.

Each daemon is a `gm run` subprocess, SIGKILLed at seeded random instants and
started again, many times.  Afterwards every order mail was applied exactly
once, every queued mail was sent (a copy twice only under its own Message-ID,
when a sender died between the SMTP server's yes and the "sent" commit), and
every deadline step fired once.
"""

from __future__ import annotations

import collections
import os
import random
import signal
import subprocess
import sys
import threading

from harness import REPO, wait_until
from support import PLAYERS, order_mail

GAMES = 4  # games that get orders
ROUNDS = 8  # orders per game
TIMED = 2  # games where nobody moves: their deadline steps fire by the clock


class Daemons:
    """Two `gm run` processes on one config, each killed and started again on demand."""

    def __init__(self, harness, logs):
        self.harness = harness
        self.logs = logs
        self.procs = [self.start(i) for i in range(2)]
        self.kills = 0

    def start(self, i: int) -> subprocess.Popen:
        log = open(self.logs / f"daemon{i}.log", "ab")
        return subprocess.Popen([sys.executable, "-m", "gm.cli", "--config", str(self.harness.config_path),
                                 "-v", "run"], cwd=REPO, env=dict(os.environ), stdout=log,
                                stderr=subprocess.STDOUT)

    def kill_and_restart(self, i: int) -> None:
        self.procs[i].send_signal(signal.SIGKILL)
        self.procs[i].wait()
        self.kills += 1
        self.procs[i] = self.start(i)

    def stop(self) -> None:
        for proc in self.procs:
            proc.send_signal(signal.SIGKILL)
            proc.wait()


def test_two_daemons_killed_at_random_apply_each_order_once(harness, pg_url, tmp_path):
    harness.reconfigure(store=pg_url, tick_seconds=0.5)
    store, dovecot, smtp = harness.engine.store, harness.dovecot, harness.smtp
    secrets = {f"g{n}": harness.new_game(f"g{n}", seed=n) for n in range(GAMES)}
    for n in range(TIMED):
        harness.new_game(f"t{n}", seed=50 + n, deadline="8", reminder="4", grace="4")
    rng = random.Random(20)
    daemons = Daemons(harness, tmp_path)
    done = threading.Event()

    def killer():
        while not done.wait(rng.uniform(0.2, 1.0)):
            daemons.kill_and_restart(rng.randrange(2))

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
            wait_until(lambda: all(harness.states(g) == round_ + 2 for g in secrets), 90,
                       interval=0.1, what=f"round {round_ + 1} applied")
        # the timed games' deadline steps (reminder, deadline, end of grace), still killing
        wait_until(lambda: all(any(r["action"] == "waiting" for r in store.history_of(f"t{n}"))
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
    for i in range(2):  # both daemons judged mail: the work was shared
        assert ": applied" in (tmp_path / f"daemon{i}.log").read_text(errors="replace")

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
        steps = collections.Counter(r["action"] for r in store.history_of(f"t{n}") if r["actor"] == "deadline")
        assert steps["late"] == 1 and steps["waiting"] == 1 and steps["reminder"] <= 1, steps
        notices = store.all("SELECT subject FROM outbox WHERE game_id = ? AND kind = 'notice'", f"t{n}")
        assert len(notices) == 1 + steps["reminder"], notices  # the late notice and any reminder

    # every queued mail reached the server; a second copy only under the same Message-ID
    queued = {r["message_id"] for r in store.all("SELECT message_id FROM outbox")}
    received = collections.Counter(smtp.message_ids())
    assert set(received) == queued
    print(f"{daemons.kills} kills; {len(queued)} mails, {sum(received.values()) - len(received)} resent copies")
