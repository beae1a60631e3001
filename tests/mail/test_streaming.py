"""A sender streams: each SMTP connection that has sent its last queued mail asks for more while
that mail is in flight (gm.runtime.smtp, gm.runtime.lanes, gm.runtime.delivery.flush), in the
daemon's process and through the SMTP child process (gm.runtime.sendprocess); on both back ends."""

from __future__ import annotations

import asyncio
from functools import partial

import pytest

from gm.core.config import ServerConfig
from gm.runtime.delivery import SendBatch, flush
from gm.runtime.lanes import Lanes
from gm.runtime.sendprocess import ProcessTransport
from gm.runtime.smtp import SmtpTransport
from gm.store import Store
from harness import SmtpSink


class SlowSink(SmtpSink):
    """The SMTP sink, waiting a little before it accepts each message, as a relay does."""

    delay = 0.02

    async def handle_DATA(self, server, session, envelope):
        await asyncio.sleep(self.delay)
        return await super().handle_DATA(server, session, envelope)


@pytest.fixture
def slow_smtp():
    sink = SlowSink()
    sink.start()
    yield sink
    sink.stop()


@pytest.fixture
def store(store_target):
    made = Store(store_target)
    yield made
    made.close()


def raw(n: int, to: str) -> bytes:
    return f"From: gm@example.org\nTo: {to}\nSubject: turn {n}\nMessage-ID: <{n}.s@gm>\n\nreport {n}\n".encode()


def queue(store, recipients: list[str], now: float = 10.0) -> list[int]:
    with store.write():
        return [store.queue_outbox(f"<q{n}-{to}@gm>", to, "s", raw(n, to), kind="report", now=now)
                for n, to in enumerate(recipients)]


def statuses(store) -> dict[int, str]:
    return {r["id"]: r["status"] for r in store.all("SELECT id, status FROM outbox")}


def arrivals(sink) -> list[tuple[str, int]]:
    """(recipient, turn) in the order the server accepted them."""
    return [(rcpt[0], int(m["Subject"].split()[1])) for rcpt, m in sink.messages]


def test_lanes_keep_a_recipient_with_mail_in_flight_on_its_lane_when_more_is_dealt():
    lanes = Lanes(2)
    lanes.deal([{"id": 1, "recipient": "a@x"}, {"id": 2, "recipient": "b@x"}])
    first = lanes.take(0)
    assert first["recipient"] == "a@x" and lanes.room(2) == 3  # lane 0 has its row in flight, nothing queued
    lanes.deal([{"id": 3, "recipient": "A@x"}, {"id": 4, "recipient": "c@x"}])
    assert [r["id"] for r in lanes.queues[0]] == [3]  # a@x's next waits behind its first, on lane 0
    assert [r["id"] for r in lanes.queues[1]] == [2, 4]  # c@x: the lane with the least (a row in flight counts)
    lanes.finished(0, first)
    assert "a@x" in lanes.owner  # row 3 is still queued on lane 0
    lanes.finished(0, lanes.take(0))
    assert "a@x" not in lanes.owner and not lanes.idle()
    lanes.finished(1, lanes.take(1))
    lanes.finished(1, lanes.take(1))
    assert lanes.idle() and lanes.owner == {}


def test_a_flush_streams_every_due_row_once_a_few_at_a_time_each_recipients_in_order(store, slow_smtp):
    recipients = [f"p{n % 3}@example.org" for n in range(9)] + [f"solo{n}@example.org" for n in range(6)]
    ids = queue(store, recipients)
    transport = SmtpTransport(ServerConfig(port=slow_smtp.port, timeout=5), connections=2)
    asked: list[int] = []
    original = transport.send_many

    def counting(rows, done, more=None):
        def counted(n):
            asked.append(n)
            return more(n)
        original(rows, done, counted)

    transport.send_many = counting
    try:
        flushed = SendBatch(store, transport, now=11.0, limit=4).run()
    finally:
        transport.close()
    sent, outcome = flushed.sent, vars(flushed)
    assert sent == len(ids) and outcome["claimed"] == len(ids)
    assert set(statuses(store).values()) == {"sent"}
    got = arrivals(slow_smtp)
    assert sorted(got) == sorted((to, n) for n, to in enumerate(recipients))  # each once
    for person in {to for to in recipients}:
        turns = [n for to, n in got if to == person]
        assert turns == sorted(turns), (person, turns)  # a player's mail in queue order
    assert asked and max(asked) <= 2 * 4  # a few per connection at a time, never the whole queue
    assert store.claimed == set()  # every claim given back


def test_mail_queued_while_a_flush_sends_goes_in_the_same_flush(store, slow_smtp):
    queue(store, [f"p{n}@example.org" for n in range(4)])
    transport = SmtpTransport(ServerConfig(port=slow_smtp.port, timeout=5), connections=2)
    original = transport.send_many
    judged: list[int] = []

    def judging_meanwhile(rows, done, more=None):
        def more_and_judge(n):
            if not judged:  # the judge commits more reports while the first are in flight
                judged.extend(queue(store, [f"late{k}@example.org" for k in range(5)], now=11.0))
            return more(n)
        original(rows, done, more_and_judge)

    transport.send_many = judging_meanwhile
    try:
        sent = flush(store, transport, now=11.0, limit=2)
    finally:
        transport.close()
    assert len(judged) == 5
    assert sent == 9 and set(statuses(store).values()) == {"sent"}


def test_a_flush_stops_at_most_rows_and_gives_the_rest_back(store, slow_smtp):
    queue(store, [f"p{n}@example.org" for n in range(12)])
    transport = SmtpTransport(ServerConfig(port=slow_smtp.port, timeout=5), connections=2)
    try:
        flushed = SendBatch(store, transport, now=11.0, limit=4, most=6).run()
    finally:
        transport.close()
    sent, outcome = flushed.sent, vars(flushed)
    assert sent == 6 and outcome["claimed"] == 6
    assert sorted(statuses(store).values()) == ["queued"] * 6 + ["sent"] * 6
    assert store.claimed == set()


def test_a_sender_refused_midstream_stops_every_lane_and_keeps_the_rest_queued(store, slow_smtp):
    ids = queue(store, [f"p{n}@example.org" for n in range(10)])
    transport = SmtpTransport(ServerConfig(port=slow_smtp.port, timeout=5), connections=2)
    original = transport.send_many

    def refusing_later(rows, done, more=None):
        def more_then_refuse(n):
            slow_smtp.sender_refusal = "550 5.7.1 {sender} not allowed"
            return more(n)
        original(rows, done, more_then_refuse)

    transport.send_many = refusing_later
    try:
        flush(store, transport, now=11.0, limit=2, gm_address="gm@example.org")
    finally:
        transport.close()
    state = statuses(store)
    assert list(state.values()).count("sent") < len(ids)  # the lanes stopped
    assert store.claimed == set()  # what was claimed and not sent is given back
    assert "queued" in state.values() or "held" in state.values()


def test_the_smtp_child_process_asks_its_parent_for_more(slow_smtp):
    rows = [{"id": n, "recipient": f"p{n}@example.org", "raw": raw(n, f"p{n}@example.org"), "attempts": 0}
            for n in range(1, 8)]
    transport = ProcessTransport(partial(SmtpTransport, ServerConfig(port=slow_smtp.port, timeout=5),
                                         connections=2), envelope=lambda outbox_id: "gm@example.org")
    left = rows[2:]
    asked: list[int] = []

    def more(n):
        asked.append(n)
        given, left[:] = left[:n], left[n:]
        return given

    answered: list = []
    try:
        transport.send_many(rows[:2], lambda row, exc: answered.append((row["id"], exc)), more)
        again: list = []
        transport.send_many(rows[:1], lambda row, exc: again.append((row["id"], exc)))  # the pipe is in step
    finally:
        transport.close()
    assert sorted(answered) == [(n, None) for n in range(1, 8)]
    assert asked and left == [] and all(n <= 8 for n in asked)
    assert again == [(1, None)]
    assert sorted(n for _, n in arrivals(slow_smtp)) == [1, 1, 2, 3, 4, 5, 6, 7]
