"""RULINGS G4: a mail arrives when gm's mail server delivered it, not when gm reads it.

Through the real paths: `gm run --once` on the embedded Maildir (the file's time is its delivery),
and `gm ingest` as Postfix runs it (the moment it is piped).  A cron run that reads an order
after its deadline judges it as of its delivery; a server time gm knows cannot be the delivery
(in the future, or before gm last read the inbox) is not used.  IMAP's INTERNALDATE and the
cron run across an SMTP outage are in tests/mail/test_arrival_imap.py.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import time

from support import EXAMPLE_LAYOUT, eml
from test_pipe_mode import REPO, game_with_known_password, recipe_argv
from gm.core import config as config_module
from gm.runtime.daemon import run
from gm.runtime.maildir import ensure_maildir
from gm.service.engine import Engine
from gm.service.table import deadlines
from gm.store import Store

H = 3600.0
PLAYERS = [("ada", "ada@example.org"), ("bob", "bob@example.org")]
OPTIONS = {"layout": EXAMPLE_LAYOUT, "deadline": "1h", "grace": "10m", "late": "forfeit", "reminder": "0"}


def deliver(inbox, name: str, raw: bytes, at: float):
    """A mail delivered into the Maildir at ``at`` (the delivering agent sets the file's time)."""
    ensure_maildir(inbox)
    path = inbox / "new" / name
    path.write_bytes(raw)
    os.utime(path, (at, at))
    return path


def actions(engine, action: str) -> list:
    return [r for r in engine.store.history_of("nb1") if r["action"] == action]


def ada_order(engine):
    return engine.store.one("SELECT turn, at, accepted FROM orders WHERE game_id = 'nb1' AND player = 'ada' "
                            "AND action = 'order'")


def started(engine, clock, config) -> tuple[dict, float]:
    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=5, options=OPTIONS)
    run(engine, config, once=True)  # cron: the welcomes go out (the outbox Maildir)
    return secrets, engine.store.deadline_row("nb1")["due"]


def test_an_order_delivered_before_the_deadline_and_read_by_a_later_cron_run_is_on_time(engine, clock, config):
    secrets, due = started(engine, clock, config)
    clock.advance(2 * H)  # cron's next run comes after the deadline and its grace
    deliver(config.inbox, "1.M1.host", eml("plain.eml", game="nb1", password=secrets["ada"]), due - 600)
    run(engine, config, once=True)
    assert engine.load("nb1").state.moves[-1].notation() == "Rb4xd4"
    order = ada_order(engine)
    assert order["accepted"] == 1 and order["turn"] == 1 and order["at"] == due - 600
    assert actions(engine, "late") == [] and actions(engine, "forfeit") == []
    # bob's time counts from when gm judged the move and made his report, not from ada's mail
    assert engine.store.deadline_row("nb1")["due"] == clock.now + H


def test_a_maildir_time_in_the_future_or_before_the_last_run_is_not_the_delivery(engine, clock, config):
    """A file dated before gm last read the inbox (a copy put back from a backup, a clock set
    wrong) or after now is judged as read: no order gets in late by its date."""
    secrets, due = started(engine, clock, config)
    clock.advance(2 * H)
    raw = eml("plain.eml", game="nb1", password=secrets["ada"])
    deliver(config.inbox, "1.M1.host", raw, due - 2 * H)  # before the first run read the inbox
    run(engine, config, once=True)
    assert [r["detail"].split(":")[0] for r in actions(engine, "forfeit")] == ["ada forfeited"]  # judged now
    assert len(engine.load("nb1").state.moves) == 0


def test_a_maildir_time_in_the_future_is_judged_as_now(engine, clock, config):
    secrets, due = started(engine, clock, config)
    clock.advance(2 * H)
    raw = eml("plain.eml", game="nb1", password=secrets["ada"])
    deliver(config.inbox, "1.M1.host", raw, clock.now + 86400)
    run(engine, config, once=True)
    assert [r["detail"].split(":")[0] for r in actions(engine, "forfeit")] == ["ada forfeited"]
    assert len(engine.load("nb1").state.moves) == 0


def test_a_piped_order_counts_from_the_moment_postfix_piped_it(tmp_path):
    """Postfix starts `gm ingest` before the deadline; Python's start and the store keep it waiting
    past it (another process writing): the order is on time, and ada gets no Late notice."""
    conf = game_with_known_password(tmp_path)
    config = config_module.load(conf)
    engine = Engine(Store(config.database), config)
    try:
        due = time.time() + 4
        with engine.store.write():
            deadlines.set_due(engine.store, engine.load("nb1"), due, "gm", time.time())
    finally:
        engine.store.close()
    writer = sqlite3.connect(str(config.database), isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # another writer holds the store across the deadline
    # as pipe(8) runs it (env -i, from /), with this tree's gm first (the venv's may be another's)
    argv = ["env", "-i", f"PYTHONPATH={REPO}", *recipe_argv(conf)]
    piped = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd="/")
    piped.stdin.write(eml("plain.eml", game="nb1", password="sesame"))
    piped.stdin.close()
    time.sleep(max(0.0, due - time.time()) + 1.5)
    writer.execute("ROLLBACK")
    writer.close()
    assert piped.wait(60) == 0, piped.stderr.read()
    assert piped.stderr.read().startswith(b"applied: ")
    engine = Engine(Store(config.database), config)
    try:
        assert actions(engine, "late") == []
        order = ada_order(engine)
        assert order["turn"] == 1 and order["at"] < due
    finally:
        engine.store.close()
