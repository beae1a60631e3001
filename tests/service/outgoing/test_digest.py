"""SET MAIL DAILY [HH:MM] through mail and the tick: one digest a day at the reader's hour in their
zone, across midnight and a DST change, queued once under kill -9 and after an outage.

A four-player Neighbors game, sequential: the last of the four to move holds the two moves
before their turn, which ask nothing of them."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from gm.service.outgoing import pace
from support import body, last_outbox_id, order_mail, outbox

ON_BOTH_BACKENDS = True  # every test that uses the config: on SQLite and on PostgreSQL

REPO = Path(__file__).resolve().parents[3]
PLAYERS4 = [("ada", "ada@example.org"), ("bob", "bob@example.org"), ("cy", "cy@example.org"),
            ("dee", "dee@example.org")]
ORDER = [name for name, _ in PLAYERS4]
ADDRESS = dict(PLAYERS4)
NEW_YORK = ZoneInfo("America/New_York")


def local(zone, *when) -> float:
    return datetime(*when, tzinfo=zone).timestamp()


def mover(engine, game_id="nb1"):
    view = engine.load(game_id)
    (name,) = view.rules.to_move(view.state)
    return name


def send(engine, name, text, secrets, game_id="nb1"):
    start = last_outbox_id(engine)
    engine.ingest(order_mail(ADDRESS[name], text, game_id=game_id, password=secrets[name]))
    return outbox(engine, start)


def move(engine, secrets, game_id="nb1"):
    view = engine.load(game_id)
    name = mover(engine, game_id)
    return name, send(engine, name, view.rules.legal_orders(view.state, name)[0], secrets, game_id)


def digests_in(mails, name=None):
    return [m for m in mails if m["Subject"].startswith("Your daily digest")
            and (name is None or m["To"] == ADDRESS[name])]


def tick(engine):
    start = last_outbox_id(engine)
    engine.tick()
    return outbox(engine, start)


def daily_reader(engine, clock, *, hour="08:00", zone="America/New_York", fmt=None):
    """A game whose last mover reads DAILY at ``hour`` in ``zone``; (secrets, that reader)."""
    secrets = engine.create_game("neighbors", "nb1", PLAYERS4, seed=5)
    last = ORDER[(ORDER.index(mover(engine)) + 3) % 4]
    send(engine, last, f"SET TIMEZONE {zone}", secrets)
    if fmt:
        send(engine, last, f"SET FORMAT {fmt}", secrets)
    (reply,) = [m for m in send(engine, last, f"SET MAIL DAILY {hour}", secrets) if m["To"] == ADDRESS[last]]
    assert f"one digest a day at {hour} your time (DAILY)" in " ".join(body(reply).split())
    return secrets, last


def test_a_digest_day_runs_to_the_readers_hour_across_their_midnight(engine, clock):
    clock.now = local(NEW_YORK, 2027, 1, 15, 22, 0)
    secrets, last = daily_reader(engine, clock)
    clock.now = local(NEW_YORK, 2027, 1, 15, 23, 30)
    before, mails = move(engine, secrets)  # held: asks nothing of ``last``
    assert [m for m in mails if m["To"] == ADDRESS[last]] == []
    clock.now = local(NEW_YORK, 2027, 1, 16, 0, 30)  # after the reader's midnight: the same digest
    after, mails = move(engine, secrets)
    assert [m for m in mails if m["To"] == ADDRESS[last]] == []
    clock.now = local(NEW_YORK, 2027, 1, 16, 7, 59)
    assert digests_in(tick(engine)) == []
    clock.now = local(NEW_YORK, 2027, 1, 16, 8, 0, 30)
    (digest,) = digests_in(tick(engine), last)
    text = body(digest)
    assert text.index(f"T2: {before}: ") < text.index(f"T3: {after}: ")  # in the order played
    assert "== Game nb1 (Neighbors)" in text and "Sat 16 Jan 2027 08:00 EST (13:00 UTC)" in text
    assert digests_in(tick(engine)) == []  # once
    assert engine.store.all("SELECT * FROM held_letters") == []
    assert engine.store.all("SELECT * FROM digests") == []


def test_a_report_held_after_the_hour_waits_for_the_next_day(engine, clock):
    clock.now = local(NEW_YORK, 2027, 1, 16, 9, 0)
    secrets, last = daily_reader(engine, clock)
    move(engine, secrets)
    (row,) = engine.store.all("SELECT due FROM digests")
    assert row["due"] == local(NEW_YORK, 2027, 1, 17, 8, 0)


@pytest.mark.parametrize(("held_at", "due"), [
    ((2027, 11, 6, 12, 0), (2027, 11, 7, 13, 0)),  # EDT -> EST: 08:00 EST is 13:00 UTC, not 12:00
    ((2027, 3, 13, 12, 0), (2027, 3, 14, 12, 0)),  # EST -> EDT: 08:00 EDT is 12:00 UTC, not 13:00
])
def test_a_digest_keeps_the_readers_hour_across_a_dst_change(engine, clock, held_at, due):
    utc = ZoneInfo("UTC")
    clock.now = local(NEW_YORK, *held_at) - 3600
    secrets, last = daily_reader(engine, clock)
    clock.now = local(NEW_YORK, *held_at)
    move(engine, secrets)
    clock.now = local(utc, *due) - 60
    assert digests_in(tick(engine)) == []
    clock.now = local(utc, *due) + 1
    (digest,) = digests_in(tick(engine), last)
    assert "08:00 E" in body(digest)


def test_a_missed_hour_is_queued_once_when_gm_can_send_again(engine, clock):
    clock.now = local(NEW_YORK, 2027, 1, 15, 12, 0)
    secrets, last = daily_reader(engine, clock, hour="07:15")
    move(engine, secrets)
    move(engine, secrets)
    clock.now = local(NEW_YORK, 2027, 1, 19, 12, 0)  # three days without a tick (an outage)
    (digest,) = digests_in(tick(engine), last)
    assert body(digest).count("T2: ") == 1 and body(digest).count("T3: ") == 1
    clock.now = local(NEW_YORK, 2027, 1, 20, 7, 16)
    assert digests_in(tick(engine)) == []  # nothing held since: no digest


def test_a_digest_is_text_and_html_as_the_readers_format_says(engine, clock):
    clock.now = local(NEW_YORK, 2027, 1, 15, 12, 0)
    secrets, last = daily_reader(engine, clock, fmt="TEXT")
    move(engine, secrets)
    clock.now = local(NEW_YORK, 2027, 1, 16, 8, 1)
    (digest,) = digests_in(tick(engine), last)
    assert digest.get_content_type() == "text/plain"
    send(engine, last, "SET FORMAT HTML", secrets)
    move(engine, secrets)  # the second of the two moves before ``last``'s turn: held again
    clock.now = local(NEW_YORK, 2027, 1, 17, 8, 1)
    (digest,) = digests_in(tick(engine), last)
    assert digest.get_content_type() == "multipart/alternative"
    html = digest.get_body(("html",)).get_content()
    assert "Game nb1 (Neighbors)" in html and "<li>T" in html


def test_back_to_each_the_held_reports_come_at_the_next_tick(engine, clock):
    clock.now = local(NEW_YORK, 2027, 1, 15, 12, 0)
    secrets, last = daily_reader(engine, clock)
    move(engine, secrets)
    send(engine, last, "SET MAIL EACH", secrets)
    (digest,) = digests_in(tick(engine), last)
    assert "T2: " in body(digest)
    _, mails = move(engine, secrets)
    assert len([m for m in mails if m["To"] == ADDRESS[last]]) == 1  # every report again


def test_the_digests_due_are_read_by_their_due_time_only(engine, clock):
    """The tick reads the due digests from the index on their due time, never every game."""
    clock.now = local(NEW_YORK, 2027, 1, 15, 12, 0)
    secrets, last = daily_reader(engine, clock)
    move(engine, secrets)
    assert engine.store.pace.due_digests(clock.now, 10) == []
    (row,) = engine.store.pace.due_digests(local(NEW_YORK, 2027, 1, 16, 8, 0), 10)
    assert row.address == ADDRESS[last] and row.due == pace.next_digest(clock.now, 8 * 60, NEW_YORK)


KILLER = """
import os, signal, sys
sys.path.insert(0, {tests!r})
from gm.core.config import Config
from gm.service.engine import Engine
from gm.service.outgoing import digests
from gm.store import Store
from support import Clock

real = digests.queue_digest

def queue_then_die(ctx, address):
    real(ctx, address)  # the digest queued and the held rows deleted, not committed
    os.kill(os.getpid(), signal.SIGKILL)

digests.queue_digest = queue_then_die
config = Config(data_dir={data!r}, address="gm@localhost", store={store!r})
engine = Engine(Store(config.database), config, clock=Clock({now!r}))
engine.tick()
"""


def test_a_digest_killed_in_its_transaction_is_queued_once_after(engine, clock, config):
    clock.now = local(NEW_YORK, 2027, 1, 15, 12, 0)
    secrets, last = daily_reader(engine, clock)
    move(engine, secrets)
    move(engine, secrets)
    clock.now = local(NEW_YORK, 2027, 1, 16, 8, 5)
    start = last_outbox_id(engine)
    script = KILLER.format(tests=str(REPO / "tests"), data=str(config.data_dir), store=config.store,
                           now=clock.now)
    proc = subprocess.run([sys.executable, "-c", script], cwd=REPO, env=dict(os.environ),
                          capture_output=True, timeout=120)
    assert proc.returncode == -9, proc.stderr.decode()
    assert digests_in(outbox(engine, start)) == []  # nothing of it stayed
    assert len(engine.store.all("SELECT * FROM held_letters")) == 2
    assert len(engine.store.all("SELECT * FROM digests")) == 1
    (digest,) = digests_in(tick(engine), last)  # the daemon again: the digest, once
    assert "T2: " in body(digest) and "T3: " in body(digest)
    assert digests_in(tick(engine)) == []


def test_a_digest_shows_the_board_of_a_game_where_the_reader_is_to_move(engine, clock):
    clock.now = local(NEW_YORK, 2027, 1, 15, 12, 0)
    secrets = engine.create_game("neighbors", "nb1", PLAYERS4, seed=5)
    first = mover(engine)
    send(engine, first, "SET MAIL DAILY", secrets)
    with engine.store.write():  # held from before the reader was to move (as after a takeback)
        engine.store.pace.hold(ADDRESS[first], "nb1", first, 1, '["bob: a move"]', clock.now)
        engine.store.pace.add_digest(ADDRESS[first], clock.now)
    (digest,) = digests_in(tick(engine), first)
    text = body(digest)
    assert "turn 1: you are to move ==" in text and "T1: bob: a move" in text
    view = engine.load("nb1")
    assert view.rules.render_board(view.state, first).strip("\n").splitlines()[0] in text


def test_through_the_maildir_daemon_a_daily_reader_gets_one_digest_at_their_hour(tmp_path):
    from mailroom import Mailroom
    from support import Clock

    utc = ZoneInfo("UTC")
    clock = Clock(local(utc, 2027, 1, 15, 12, 0))
    room = Mailroom(tmp_path, clock=clock)
    secrets = room.engine.create_game("neighbors", "nb1", PLAYERS4, seed=5)
    room.run()
    last = ORDER[(ORDER.index(mover(room.engine)) + 3) % 4]
    room.deliver(order_mail(ADDRESS[last], "SET MAIL DAILY 06:45", game_id="nb1", password=secrets[last]))
    room.run()
    view = room.engine.load("nb1")
    name = mover(room.engine)
    room.deliver(order_mail(ADDRESS[name], view.rules.legal_orders(view.state, name)[0], game_id="nb1",
                            password=secrets[name]))
    assert [to for to, _ in room.run() if to == ADDRESS[last]] == []  # held
    clock.now = local(utc, 2027, 1, 16, 6, 44)
    assert [m for _, m in room.run() if m["Subject"].startswith("Your daily digest")] == []
    clock.now = local(utc, 2027, 1, 16, 6, 46)
    (digest,) = [(to, m) for to, m in room.run() if m["Subject"].startswith("Your daily digest")]
    assert digest[0] == ADDRESS[last] and f"T2: {name}: " in body(digest[1])
    assert [m for _, m in room.run() if m["Subject"].startswith("Your daily digest")] == []
