"""How many statements one order mail costs on PostgreSQL, judging and sending together.

Counted by the server itself, so the count holds whatever client library
sends them: the store's connection is opened with ``-c log_statement=all``
(a per-session setting the test server's superuser may make) and the test
reads the lines the server logs for it (``statement:`` for the simple
protocol, ``execute <name>:`` for the extended one; a pipelined
executemany logs one line per row).  Every statement counts, BEGIN, COMMIT,
SET LOCAL and the lock functions included: each is a round trip the daemon
waits for.  Only this test's connections log, so other tests' statements do
not mix in.

The mail goes the daemon's way: a Maildir inbox judged by process_maildir,
then the Sender's pump delivering the reports (to a Maildir transport: the
store's part of sending is the same as over SMTP).  The first order of a
connection also looks up the tables' identity columns once; the count is
taken on the second order, the steady state.
"""

from __future__ import annotations

from gm.core.config import Config
from gm.runtime.delivery import Sender
from gm.runtime.maildir import MaildirTransport, process_maildir
from gm.service.engine import Engine
from gm.store import Store
from pgserver import logged_statements as statements, statement_logging_url as logging_url
from support import GM_ADDRESS, PLAYERS, one_order

# The statements an order mail's way runs, judged and sent, at most CEILING (5 + 6):
# judging: BEGIN; the claim of the mail (store, message, game and address locks in one statement);
# its INSERT (which also checks it was never seen), which also reads what judging reads of the game
# (Store.read_game, gm.store.gameload: its rows, the public press, the outbox rows' ids); the
# deferred writes, every table's in one statement, the state's among them (an order that opens a
# turn is that turn's start: gm.service.table.deadlines.state_added); COMMIT.  Sending: the claim
# (row locks, outbox locks, and the holds, in one statement); BEGIN; the store lock; the
# soft-failing addresses; the "sent" UPDATE letting go of its rows' outbox locks; COMMIT.
CEILING = 11

def test_one_order_mail_costs_few_statements(pg_server, pg_url, tmp_path):
    url = logging_url(pg_url)
    config = Config(data_dir=tmp_path / "gm-data", address=GM_ADDRESS, store=url)
    engine = Engine(Store(url), config)
    log = pg_server.root / "log"
    try:
        passwords = engine.create_game("neighbors", "nb1", PLAYERS, seed=7)
        sender = Sender(engine.store, MaildirTransport(config.outbox))
        assert sender.pump() == 2  # the welcomes
        for n in range(2):
            one_order(engine, config, passwords, f"order{n}.host")
            start, trips = log.stat().st_size, engine.store.db.round_trips
            assert [outcome for _, outcome in process_maildir(engine, config.inbox)] == ["applied"]
            judged, judging_trips = log.stat().st_size, engine.store.db.round_trips - trips
            assert sender.pump() == 2  # a report to each player
            end, sending_trips = log.stat().st_size, engine.store.db.round_trips - trips - judging_trips
        judging, sending = statements(pg_server, start, judged), statements(pg_server, judged, end)
    finally:
        engine.store.close()
    breakdown = "\n".join(["judging:", *judging, "sending:", *sending])
    assert judging and sending, breakdown  # the log is on: a count of 0 would prove nothing
    assert len(judging) + len(sending) <= CEILING, f"{len(judging)} + {len(sending)} statements\n{breakdown}"
    # 11 statements, 6 round trips (3 + 3): BEGIN goes with the claim of the mail, the deferred writes
    # with the COMMIT; the sender's BEGIN and store lock with its first read, its "sent" UPDATE with
    # its COMMIT (PgConnection.take_owed)
    trips = f"round trips: {judging_trips} judging, {sending_trips} sending\n{breakdown}"
    assert judging_trips == len(judging) - 2, trips
    assert sending_trips == len(sending) - 3, trips
