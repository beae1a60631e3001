"""The paths that could lock the whole PostgreSQL store lock only what they change:
the GM's commands on one game, bounces, mail commands, the lobby.

Each test holds a game's or an address's lock in one connection (test_pglocks.Holder) and
runs a real use case on another engine of the same store in a thread: it ends while an
unrelated lock is held, and waits (seen in pg_locks, never by timing) while its own is.
"""

from __future__ import annotations

import logging
import threading

import pytest

from bounce_fixtures import bounce, outbox_row
from gm.core.config import Config
from gm.core.model import ServiceError
from gm.runtime.delivery import flush
from gm.runtime.transport import PermanentFailure, SenderRefused
from gm.service.engine import Engine
from gm.service.people import lobby
from gm.service.play import lifecycle
from gm.store import Store
from gm.store.locks import HOURLY_CAPS, retry_conflicts
from harness import wait_until
from support import Clock, last_outbox_id, order_mail, outbox
from test_pglocks import Holder, waiting_advisory

GAME_A = [("ada", "ada@example.org"), ("bob", "bob@example.org")]
GAME_B = [("cy", "cy@example.org"), ("dee", "dee@example.org")]


class Engines:
    """Engines on one PostgreSQL store (one connection each), sharing a data dir (secrets)."""

    def __init__(self, url: str, tmp_path):
        self.url = url
        self.config = Config(data_dir=tmp_path / "gm-data", address="gm@localhost", store=url)
        self.opened: list[Store] = []

    def new(self) -> Engine:
        store = Store(self.url)
        self.opened.append(store)
        return Engine(store, self.config, clock=Clock())

    def close(self) -> None:
        for store in self.opened:
            store.close()


@pytest.fixture
def engines(pg_url, tmp_path):
    made = Engines(pg_url, tmp_path)
    main = made.new()
    main.create_game("neighbors", "ga", GAME_A, seed=5)
    main.create_game("neighbors", "gb", GAME_B, seed=6)
    yield made
    made.close()


class Run:
    """``work(engine)`` on an engine of its own, in a thread: done, or waiting for a lock."""

    def __init__(self, engines: Engines, work):
        self.engine = engines.new()
        self.done = threading.Event()
        self.result = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self.run, args=(work,))
        self.thread.start()

    def run(self, work) -> None:
        try:
            self.result = work(self.engine)
        except BaseException as exc:  # noqa: BLE001 - seen by the test
            self.error = exc
        self.done.set()

    def finish(self):
        assert self.done.wait(15), "still waiting"
        self.thread.join(10)
        return self.result


def goes_through(engines: Engines, work, **held):
    """``work`` ends while another transaction holds ``held`` (games=..., shared=...)."""
    holder = Holder(engines.url, **held)
    try:
        run = Run(engines, work)
        assert run.done.wait(15), f"waited for an unrelated lock {held}"
    finally:
        holder.release()
    assert run.error is None, run.error
    return run.result


def waits_for(engines: Engines, work, **held):
    """``work`` waits while another transaction holds ``held``, and ends after."""
    holder = Holder(engines.url, **held)
    try:
        run = Run(engines, work)
        wait_until(lambda: waiting_advisory(engines.url) == 1, 10, interval=0.05, what=f"a wait for {held}")
        assert not run.done.is_set()
    finally:
        holder.release()
    result = run.finish()
    assert run.error is None, run.error
    return result


def test_a_gm_command_on_one_game_goes_through_while_another_game_is_locked(engines):
    goes_through(engines, lambda e: lifecycle.pause(e, "ga", why="test"), games=["gb"])
    assert engines.new().load("ga").status == "paused"
    waits_for(engines, lambda e: lifecycle.resume(e, "ga", why="test"), games=["ga"])
    assert engines.new().load("ga").status == "active"
    goes_through(engines, lambda e: lifecycle.broadcast(e, "ga", "hello"), games=["gb"],
                 shared=["address:cy@example.org"])


def test_two_gm_commands_on_the_same_game_serialise_and_the_second_sees_the_first(engines):
    """Both pause the game while its lock is held elsewhere: one pauses it, the other then finds
    it paused (were they not serialised, both would read it active and both pause it)."""
    holder = Holder(engines.url, games=["ga"])
    try:
        runs = [Run(engines, lambda e: lifecycle.pause(e, "ga", why="test")) for _ in range(2)]
        wait_until(lambda: waiting_advisory(engines.url) == 2, 10, interval=0.05, what="both to wait")
    finally:
        holder.release()
    for run in runs:
        assert run.done.wait(15)
    errors = [run.error for run in runs]
    assert sum(e is None for e in errors) == 1
    assert any(isinstance(e, ServiceError) and "not active" in str(e) for e in errors)
    history = engines.new().store.all("SELECT * FROM history WHERE game_id = 'ga' AND action = 'pause'")
    assert len(history) == 1


def test_a_bounce_does_not_wait_for_an_unrelated_game_or_address(engines):
    main = engines.new()
    row = outbox_row(main.store, "ada@example.org")
    raw = bounce("postfix", row, main.verp)
    outcome = goes_through(engines, lambda e: e.ingest(raw), games=["gb"],
                           shared=["address:cy@example.org", "address:zed@example.org"])
    assert outcome.outcome == "robot" and "bounce of outbox" in outcome.detail
    assert main.store.delivery.address_state("ada@example.org")["state"] == "bouncing"
    # a bounce of the other player of game A waits for it: that game's players are told of it
    other = bounce("postfix", outbox_row(main.store, "bob@example.org"), main.verp)
    other = other.replace(b".4Zt9kQ3mTzz9sWV@", b".2x@", 1)  # a notice of its own (Message-Id)
    outcome = waits_for(engines, lambda e: e.ingest(other), games=["ga"])
    assert outcome.outcome == "robot" and "bounce of outbox" in outcome.detail
    assert main.store.delivery.address_state("bob@example.org")["state"] == "bouncing"


def test_a_mail_command_does_not_wait_for_a_game_the_sender_does_not_play(engines):
    start = last_outbox_id(engines.new())
    goes_through(engines, lambda e: e.ingest(order_mail("ada@example.org", "SUMMARY")), games=["gb"],
                 shared=["address:cy@example.org"])
    goes_through(engines, lambda e: e.ingest(order_mail("ada@example.org", "PASSWORD RESET ga")),
                 games=["gb"])
    sent = outbox(engines.new(), start)
    assert any(m["To"] == "ada@example.org" and m["Subject"].startswith("CONFIRM ") for m in sent)
    # its own game and its own address are waited for
    waits_for(engines, lambda e: e.ingest(order_mail("ada@example.org", "PASSWORD RESET ga ada")),
              games=["ga"])
    waits_for(engines, lambda e: e.ingest(order_mail("ada@example.org", "SUMMARY")),
              shared=["address:ada@example.org"])


def test_the_hourly_caps_are_counted_by_one_transaction_at_a_time(engines):
    """Daemons answering strangers side by side each read the count of answers this hour, and each
    found one left: the cap was passed by one a daemon.  A count is read under HOURLY_CAPS until
    the answer (or the confirmation code) is committed; mail no cap counts does not wait for it."""
    main = engines.new()
    lobby.open_game(main, "neighbors", "op1", 3, min_seats=2, seed=4)
    start = last_outbox_id(main)
    waits_for(engines, lambda e: e.ingest(order_mail("stranger@example.net", "HELP")), shared=[HOURLY_CAPS])
    waits_for(engines, lambda e: e.ingest(order_mail("eve@example.org", "JOIN op1 eve")), shared=[HOURLY_CAPS])
    assert sorted(m["To"] for m in outbox(main, start)) == ["eve@example.org", "stranger@example.net"]
    secrets = main.create_game("neighbors", "gc", [("gil", "gil@example.org"), ("hal", "hal@example.org")], seed=3)
    loaded = main.load("gc")
    (mover,) = loaded.rules.to_move(loaded.state)
    order = order_mail(f"{mover}@example.org", loaded.rules.legal_orders(loaded.state, mover)[0], game_id="gc",
                       password=secrets[mover])
    assert goes_through(engines, lambda e: e.ingest(order), shared=[HOURLY_CAPS]).outcome == "applied"


def code_of(mail) -> str:
    word, code = mail["Subject"].split(":")[0].split()
    assert word == "CONFIRM"
    return code


def test_joining_an_open_game_does_not_wait_for_an_unrelated_game(engines):
    main = engines.new()
    lobby.open_game(main, "neighbors", "op1", 3, min_seats=2, seed=4)
    start = last_outbox_id(main)
    goes_through(engines, lambda e: e.ingest(order_mail("eve@example.org", "JOIN op1 eve")), games=["gb"])
    (asked,) = [m for m in outbox(main, start) if m["To"] == "eve@example.org"]
    goes_through(engines, lambda e: e.ingest(order_mail("eve@example.org", f"CONFIRM {code_of(asked)}")),
                 games=["ga", "gb"], shared=["address:ada@example.org"])
    assert [p["name"] for p in main.store.seats.players("op1")] == ["eve"]
    # the open game's own lock is waited for: a second join queues behind it
    start = last_outbox_id(main)
    waits_for(engines, lambda e: e.ingest(order_mail("fay@example.org", "JOIN op1 fay")), games=["op1"])
    (asked,) = [m for m in outbox(main, start) if m["To"] == "fay@example.org"]
    waits_for(engines, lambda e: e.ingest(order_mail("fay@example.org", f"CONFIRM {code_of(asked)}")),
              games=["op1"])
    assert [p["name"] for p in main.store.seats.players("op1")] == ["eve", "fay"]
    # creating a game locks the new game's id
    waits_for(engines, lambda e: lobby.open_game(e, "neighbors", "op2", 2, seed=1), games=["op2"])
    assert main.store.games.game("op2")["status"] == "open"


def test_a_deadlock_between_a_gm_command_and_another_order_is_retried_and_both_apply(engines, caplog):
    """`gm seat address` locks game A, then (late) the seat's old address.  Another transaction
    holds that address and then wants game A: one of the two is aborted (40P01) and run again;
    both end applied.  The other is hand-made (no path of gm locks an address before a game)."""
    caplog.set_level(logging.INFO, logger="gm.store.pglocks")
    holds_address = threading.Event()
    runs = {"other": 0}
    errors: list[BaseException] = []

    def other(store: Store) -> None:
        runs["other"] += 1
        with store.write(scoped=True):
            store.locks.lock_shared("address:ada@example.org")
            if runs["other"] == 1:
                holds_address.set()
                wait_until(lambda: waiting_advisory(engines.url) == 1, 10, interval=0.05,
                           what="the GM command to wait for the address")
            store.locks.lock_games("ga")
            store.daemons.add_outage("other", float(runs["other"]), None)

    def run_other() -> None:
        store = Store(engines.url)
        try:
            retry_conflicts(other, store)
        except BaseException as exc:  # noqa: BLE001 - seen by the test
            errors.append(exc)
        finally:
            store.close()

    thread = threading.Thread(target=run_other)
    thread.start()
    assert holds_address.wait(10)
    command = Run(engines, lambda e: lifecycle.readdress_seat(e, "ga", "ada", "ada@new.example", why="moved"))
    command.finish()
    thread.join(30)
    assert command.error is None, command.error
    assert errors == []
    main = engines.new()
    assert main.load("ga").player("ada")["email"] == "ada@new.example"
    assert [r["kind"] for r in main.store.daemons.outage_rows()] == ["other"]
    assert any("met another daemon's transaction" in r.getMessage() for r in caplog.records)  # one ran twice


class Refusing:
    """A transport that refuses, for good, every mail to one address, and takes the rest."""

    def __init__(self, refused: str, exc=None):
        self.refused = refused
        self.exc = exc or PermanentFailure("550 5.1.1 no such user")

    def send(self, recipient, raw, outbox_id):
        if recipient == self.refused:
            raise self.exc


def test_the_senders_refusals_lock_their_address_and_holds_not_the_store(engines):
    """A refusal recorded against an address (record_refused) and gm's sender refused
    (refusals.sender_refused) lock what they change: the address, the holds; not the store."""
    main = engines.new()
    now = main.clock() + 1
    goes_through(engines, lambda e: flush(e.store, Refusing("ada@example.org"), now=now),
                 games=["ga", "gb"], shared=["address:cy@example.org", "hold:domain:example.net"])
    assert outbox_row(main.store, "ada@example.org")["status"] == "bounced"
    assert outbox_row(main.store, "cy@example.org")["status"] == "sent"
    with main.store.write():
        main.outbox.queue("bob@example.org", "note", "text\n", kind="notice")
    waits_for(engines, lambda e: flush(e.store, Refusing("bob@example.org"), now=now),
              shared=["address:bob@example.org"])
    assert outbox_row(main.store, "bob@example.org")["status"] == "bounced"
    with main.store.write():
        main.outbox.queue("dee@example.org", "note", "text\n", kind="notice")
    refused = Refusing("dee@example.org", SenderRefused("550 5.7.1 sender not allowed"))
    waits_for(engines, lambda e: flush(e.store, refused, now=now), shared=["hold:sender"])
    assert outbox_row(main.store, "dee@example.org")["status"] == "queued"  # held, not marked
    assert main.store.outbox.hold("sender") is not None


def test_a_plain_heartbeat_and_a_quiet_tick_do_not_lock_the_store(engines):
    """Each daemon beats once a tick: a beat that looks for no gap locks the heartbeat rows alone,
    and the tick's settling of outages, bounces and holds writes (store-wide) only when there is
    something to write (an outage to open, close or apply, a bounce to settle, a hold to announce);
    so none of them waits for a game another daemon is judging.  A beat that looks for a
    gap may find an outage that moves every game's deadlines: that one locks the store, and waits."""
    from gm.service.outgoing import delivery_state, outages

    me = outages.DaemonIdentity.new(1_700_000_000.0)
    goes_through(engines, lambda e: outages.heartbeat(e, me, None, look_for_gap=False), games=["ga"])
    goes_through(engines, lambda e: outages.settle(e), games=["ga"])
    goes_through(engines, lambda e: delivery_state.settle_now(e), games=["ga"])  # no bounce, no hold new
    waits_for(engines, lambda e: outages.heartbeat(e, me, None, look_for_gap=True), games=["ga"])
    seen = engines.new().store.all("SELECT daemon_id FROM daemons")
    assert [r["daemon_id"] for r in seen] == [me.daemon_id]  # the beats wrote its row, once
    # the daemons' rows: a second beat waits for a first still open, not for a game
    waits_for(engines, lambda e: outages.heartbeat(e, me, None, look_for_gap=False), shared=[outages.DAEMON_ROWS])
