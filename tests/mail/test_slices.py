"""Daemons sharing one store and mailbox: each takes the mailbox by slices (gm.runtime.slices);
a batch's reports are dealt out to the SMTP connections by load (gm.runtime.lanes.lanes_of), and
a sender claims a few rows per connection at a time (gm.runtime.delivery.Sender)."""

from __future__ import annotations

import logging
import time
from functools import partial

import pytest

from gm.core.config import ServerConfig
from gm.runtime import imap
from gm.runtime.delivery import PER_LANE, Sender
from gm.runtime.sendprocess import ProcessTransport
from gm.runtime.slices import WAIT, Slices, living, owner
from gm.runtime.lanes import lanes_of
from gm.runtime.smtp import SmtpTransport
from gm.store import Store
from harness import wait_until
from support import order_mail

SENDERS = [f"p{n}@example.org" for n in range(200)]


def test_each_sender_has_one_owner_and_a_daemon_leaving_moves_only_its_own():
    members = ["a", "b", "c", "d"]
    before = {s: owner(members, s) for s in SENDERS}
    assert set(before.values()) == set(members)  # every daemon has a slice
    assert all(owner(list(reversed(members)), s) == o for s, o in before.items())  # order does not matter
    after = {s: owner(["a", "b", "d"], s) for s in SENDERS}
    assert all(after[s] == before[s] for s in SENDERS if before[s] != "c")
    assert all(after[s] in ("a", "b", "d") for s in SENDERS)


def test_living_daemons_are_those_seen_within_a_few_ticks_and_always_this_one():
    now = 1000.0
    rows = [{"daemon_id": "fresh", "last_seen": now - 5}, {"daemon_id": "gone", "last_seen": now - 300}]
    assert living(rows, "me", now, tick_seconds=30) == ["fresh", "me"]
    assert living([], "me", now, tick_seconds=30) == ["me"]


def test_a_message_left_to_another_daemon_is_taken_once_it_stayed_the_wait():
    clock = [100.0]
    me = Slices("me", tick_seconds=30, clock=lambda: clock[0])
    me.look([{"daemon_id": "other", "last_seen": 99.0}])
    senders = {uid: s for uid, s in enumerate(SENDERS[:40])}
    mine = me.mine(list(senders), senders)
    theirs = [uid for uid in senders if uid not in mine]
    assert mine and theirs
    assert all(owner(["me", "other"], senders[uid]) == "me" for uid in mine)
    assert me.next_look() == WAIT
    clock[0] += WAIT - 0.1
    assert me.mine(theirs, senders) == []  # the owner may still be judging them
    clock[0] += 0.1
    assert me.mine(theirs, senders) == theirs  # its owner is gone or behind: taken here
    me.forget([])
    assert me.next_look() is None
    alone = Slices("me", tick_seconds=30)
    alone.look([])
    assert alone.mine(list(senders), senders) == list(senders)


def test_lanes_keep_each_recipients_mail_together_in_order_and_end_together():
    rows = [{"id": n, "recipient": f"p{n % 7}@example.org" if n < 14 else f"q{n}@example.org"} for n in range(40)]
    lanes = lanes_of(rows, 4)
    seen = [row["id"] for lane in lanes.values() for row in lane]
    assert sorted(seen) == list(range(40))
    for lane in lanes.values():
        assert [row["id"] for row in lane] == sorted(row["id"] for row in lane)  # queue order
    lane_of = {}
    for n, lane in lanes.items():
        for row in lane:
            assert lane_of.setdefault(row["recipient"], n) == n  # one lane per recipient
    sizes = sorted(len(lane) for lane in lanes.values())
    assert sizes[-1] - sizes[0] <= 2, sizes  # the biggest recipient group is 2 mails


def games_with_own_players(harness, games: int, rounds: int = 1) -> list[bytes]:
    """``games`` games, each with two players of its own; each game's first ``rounds`` orders, written
    ahead (so the second is the other player's, valid only after the first), round by round."""
    by_round: list[list[bytes]] = [[] for _ in range(rounds)]
    for n in range(games):
        players = [(f"a{n}", f"a{n}@example.org"), (f"b{n}", f"b{n}@example.org")]
        secrets = harness.new_game(f"s{n}", seed=n, players=players)
        view = harness.engine.load(f"s{n}")
        rules, state = view.rules, view.state
        for r in range(rounds):
            (mover,) = rules.to_move(state)
            order = rules.legal_orders(state, mover)[0]
            state = rules.submit(state, mover, rules.parse_order(state, mover, order), time.time()).state
            by_round[r].append(order_mail(dict(players)[mover], order, game_id=f"s{n}", password=secrets[mover]))
    return [raw for batch in by_round for raw in batch]


def ingested(caplog) -> dict[str, list[str]]:
    """The daemon threads' "mail in" lines, by thread."""
    out: dict[str, list[str]] = {}
    for record in caplog.records:
        if record.getMessage().startswith("mail in: IMAP"):
            out.setdefault(record.threadName, []).append(record.getMessage())
    return out


def test_a_games_mail_from_either_player_falls_in_one_slice(harness):
    mails = games_with_own_players(harness, 2, rounds=2)  # s0 by a0, s1, then s0 by b0, s1
    keys = [harness.engine.slice_key(raw) for raw in mails]
    assert keys == ["game:s0", "game:s1", "game:s0", "game:s1"]
    assert harness.engine.slice_key(order_mail("Cy@Example.org", "HELP")) == "from:cy@example.org"


def test_a_mail_whose_slice_cannot_be_worked_out_falls_to_any_daemon(harness, monkeypatch):
    from gm.service.intake import ingest

    assert harness.engine.slice_key(b"\xff\x00 not a mail at all") in ("", "from:")

    def broken(ctx, inbound):
        raise ValueError("a header no one foresaw")

    monkeypatch.setattr(ingest, "named_game", broken)
    assert harness.engine.slice_key(order_mail("cy@example.org", "HELP")) == ""


@pytest.mark.parametrize("keep_bytes", [imap.KEEP_BYTES, 0], ids=["bodies-kept", "bodies-fetched-again"])
def test_two_daemons_each_judge_their_own_slice_and_no_mail_twice(harness, pg_url, caplog, monkeypatch,
                                                                 keep_bytes):
    """Both rounds of each game at once: the second order (the other player's) is valid only after
    the first, and is judged after it, by the same daemon.  With no body kept from the look at the
    slices (a backlog larger than KEEP_BYTES), each is fetched again to be judged."""
    monkeypatch.setattr(imap, "KEEP_BYTES", keep_bytes)
    harness.reconfigure(store=pg_url)
    mails = games_with_own_players(harness, 12, rounds=2)
    caplog.set_level(logging.INFO, logger="gm.runtime.imap")
    daemons = [harness.start(), harness.start()]
    try:
        wait_until(lambda: len(harness.engine.store.daemons.daemon_rows()) == 2, 20, what="both heartbeats")
        for raw in mails:
            harness.dovecot.append(raw)
        wait_until(lambda: all(harness.states(f"s{n}") == 3 for n in range(12)), 60, interval=0.1,
                   what="every order applied")
        wait_until(lambda: not harness.dovecot.folder("INBOX"), 20, interval=0.1, what="the inbox to empty")
    finally:
        for daemon in daemons:
            daemon.stop()
    lines = ingested(caplog)
    assert len(lines) == 2, lines  # both daemons judged mail
    assert sum(len(v) for v in lines.values()) == len(mails), lines  # each mail tried by one daemon only
    assert all(": applied" in line for v in lines.values() for line in v)


def test_mail_in_a_dead_daemons_slice_is_judged_by_a_living_one(harness, pg_url, caplog):
    """A daemon killed an instant ago still has a fresh heartbeat row, so the living one leaves
    its slice to it at first; after slices.WAIT it judges that mail too."""
    harness.reconfigure(store=pg_url)
    mails = games_with_own_players(harness, 12)
    ghost = "ghost:1:dead"
    with harness.engine.store.write():
        harness.engine.store.daemons.beat(ghost, "ghost", 1, time.time(), time.time(), None)
    caplog.set_level(logging.INFO, logger="gm.runtime.imap")
    daemon = harness.start()
    try:
        wait_until(lambda: len(harness.engine.store.daemons.daemon_rows()) == 2, 20, what="the living heartbeat")
        me = next(r["daemon_id"] for r in harness.engine.store.daemons.daemon_rows() if r["daemon_id"] != ghost)
        left = [n for n in range(12) if owner([ghost, me], f"game:s{n}") == ghost]
        assert left, "some mail falls in the dead daemon's slice"
        began = time.time()
        for raw in mails:
            harness.dovecot.append(raw)
        wait_until(lambda: all(harness.states(f"s{n}") == 2 for n in range(12)), 60, interval=0.1,
                   what="every order applied, the dead daemon's slice too")
        # its slice waited for it first (from the arrival, which INTERNALDATE gives in whole seconds)
        assert time.time() - began >= WAIT - 1.0
        wait_until(lambda: not harness.dovecot.folder("INBOX"), 20, interval=0.1, what="the inbox to empty")
    finally:
        daemon.stop()
    lines = ingested(caplog)
    assert sum(len(v) for v in lines.values()) == len(mails), lines


class CountingSmtp(SmtpTransport):
    """The SMTP transport, noting the size of each claim it sends: the first batch, and each
    ``more`` its connections ask for as they empty."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.batches: list[int] = []
        self.asked: list[int] = []

    def send_many(self, rows, done, more=None):
        self.batches.append(len(rows))

        def counted(n: int) -> list:
            self.asked.append(n)
            got = more(n)
            self.batches.append(len(got))
            return got

        super().send_many(rows, done, counted if more is not None else None)


def test_a_sender_claims_a_few_rows_per_connection_so_other_daemons_get_theirs(harness):
    """Daemons sharing a store claim from one outbox: a flush takes PER_LANE rows a connection,
    not every due row, and a connection that empties asks for PER_LANE more; the sender keeps on
    until nothing is due, and everything goes."""
    for n in range(6):
        harness.new_game(f"w{n}", seed=n)  # two welcomes each
    queued = harness.engine.store.one("SELECT count(*) AS n FROM outbox WHERE status = 'queued'")["n"]
    assert queued == 12
    transport = CountingSmtp(ServerConfig(port=harness.smtp.port, timeout=5), connections=2)
    try:
        sent = Sender(harness.engine.store, transport).pump()
    finally:
        transport.close()
    assert sent == 12
    assert transport.batches[0] == 2 * PER_LANE
    assert sum(transport.batches) == 12
    assert all(n <= 2 * PER_LANE for n in transport.asked), transport.asked  # a few per connection
    assert transport.asked and transport.asked[0] >= PER_LANE  # the first lane to empty tops every lane up
    assert harness.engine.store.one("SELECT count(*) AS n FROM outbox WHERE status = 'queued'")["n"] == 0
    assert ProcessTransport(partial(SmtpTransport, ServerConfig(port=1), connections=3), str).connections == 3


def test_a_small_claim_passes_the_rows_other_senders_hold(pg_url):
    """With PER_LANE rows a claim, a second sender must look past the first one's rows, not find
    the oldest due rows all held and go without (gm.store.postgres.claim_outbox)."""
    first, second, third = Store(pg_url), Store(pg_url), Store(pg_url)
    try:
        with first.write():
            ids = [first.outbox.queue_outbox(f"<c{n}@gm>", f"p{n}@example.org", "s", b"raw", kind="report", now=10.0)
                   for n in range(6)]
        assert [r["id"] for r in first.outbox.claim_outbox(11.0, 2)] == ids[:2]
        assert [r["id"] for r in second.outbox.claim_outbox(11.0, 2)] == ids[2:4]
        assert [r["id"] for r in third.outbox.claim_outbox(11.0, 10)] == ids[4:]  # none the others hold
    finally:
        for store in (first, second, third):
            store.close()


def test_a_daemon_started_late_takes_at_once_what_waited_its_time_for_another():
    clock = [100.0]
    late = Slices("late", tick_seconds=30, clock=lambda: clock[0])
    late.look([{"daemon_id": "dead", "last_seen": 99.0}])
    keys = {uid: f"game:g{uid}" for uid in range(40)}
    theirs = [uid for uid in keys if owner(["dead", "late"], keys[uid]) == "dead"]
    assert theirs
    arrived = {uid: clock[0] - WAIT for uid in theirs[:3]}  # came WAIT ago, before this daemon started
    assert late.mine(theirs, keys, arrived) == theirs[:3]


def test_mail_of_an_owner_the_store_shows_alive_waits_longer_than_a_dead_ones():
    """Two daemons, one busy (alive), one dead: the busy one's mail is not taken after WAIT, while
    it may still be judging it (both would read it and check its password), only after WAIT_ALIVE."""
    clock = [100.0]
    me = Slices("me", tick_seconds=30, clock=lambda: clock[0], wait_alive=60.0)
    me.look([{"daemon_id": d, "last_seen": 99.0} for d in ("busy", "dead", "me")])
    keys = {uid: f"game:g{uid}" for uid in range(60)}
    busy = [u for u in keys if owner(["busy", "dead", "me"], keys[u]) == "busy"]
    dead = [u for u in keys if owner(["busy", "dead", "me"], keys[u]) == "dead"]
    assert busy and dead and me.others() == ["busy", "dead"]
    assert me.mine(busy + dead, keys, alive={"busy"}) == []
    assert me.next_look() == WAIT
    clock[0] += WAIT
    assert me.mine(busy + dead, keys, alive={"busy"}) == dead  # its owner's session is gone
    me.forget(busy)  # the dead one's mail, judged here, left the inbox
    assert me.next_look() == 60.0 - WAIT
    clock[0] += 60.0 - WAIT
    assert me.mine(busy, keys, alive={"busy"}) == busy  # alive, but a minute behind


def test_the_store_shows_a_daemon_alive_while_its_connection_lives(pg_url):
    """Store.hold_alive holds a session lock; another store sees the daemon alive until that
    session ends, and a daemon it never heard of as not alive."""
    first, second = Store(pg_url), Store(pg_url)
    try:
        first.locks.hold_alive("host:1:aa")
        first.locks.hold_alive("host:1:aa")  # once a session
        assert second.locks.alive_daemons(["host:1:aa", "host:2:bb"]) == {"host:1:aa"}
        assert second.locks.alive_daemons(["host:1:aa"]) == {"host:1:aa"}  # looking took nothing
        first.close()
        deadline = time.monotonic() + 10
        while second.locks.alive_daemons(["host:1:aa"]) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert second.locks.alive_daemons(["host:1:aa"]) == set()
    finally:
        second.close()


def test_sqlite_shows_no_daemon_alive(tmp_path):
    store = Store(tmp_path / "gm.sqlite")
    try:
        store.locks.hold_alive("host:1:aa")
        assert store.locks.alive_daemons(["host:1:aa"]) == set()  # it cannot tell: a dead owner's wait
    finally:
        store.close()
