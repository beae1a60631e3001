"""The store's run-time shapes reach PostgreSQL as its own SQL.

Store.insert/update/insert_unless, the deferred writes (a multi-row INSERT, the "sent" UPDATE,
every table's joined into one statement) and an order mail judged and sent hand PostgreSQL SQL
compiled by SQLAlchemy (gm.store.sql) or written in its own dialect, through the connection's
``raw``: none of it is hand-written portable text (``execute``, compiled by text() at run time),
and nothing is translated from SQLite's dialect (there is no translator: positional ``?`` is
refused).  And every statement an order mail runs was compiled ahead (gm/store/compiled_sql.py):
none is made at run time, which would load SQLAlchemy into `gm ingest`."""

from __future__ import annotations

import pytest

from gm.core.config import Config
from gm.runtime.delivery import Sender
from gm.runtime.maildir import MaildirTransport, process_maildir
from gm.service.engine import Engine
from gm.store import Store, sql
from gm.store.mail import NEW_MESSAGE
from support import GM_ADDRESS, PLAYERS, one_order

T = 1_700_000_000.0


def test_an_order_mail_and_a_deferred_flush_run_postgresqls_own_sql(pg_url, tmp_path, monkeypatch):
    config = Config(data_dir=tmp_path / "gm-data", address=GM_ADDRESS, store=pg_url)
    engine = Engine(Store(pg_url), config)
    store = engine.store
    before = made_at_run_time()  # by earlier tests in this process (generic Store.insert...)
    try:
        portable = handed_portable_text(monkeypatch)  # from here: the store's schema steps are done
        passwords = engine.create_game("neighbors", "nb1", PLAYERS, seed=7)
        sender = Sender(store, MaildirTransport(config.outbox))
        assert sender.pump() == 2  # the welcomes
        for n in range(2):
            one_order(engine, config, passwords, f"order{n}.host")
            assert [outcome for _, outcome in process_maildir(engine, config.inbox)] == ["applied"]
            assert sender.pump() == 2  # a report to each player, marked sent by the deferred UPDATE
        assert made_at_run_time() - before == set()  # every shape the mail used was declared: compiled ahead
        assert len(store.reports.reports_of("nb1")) >= 4  # the deferred multi-row INSERTs wrote
        assert portable == []
    finally:
        store.close()


def handed_portable_text(monkeypatch) -> list[str]:
    """The texts handed to PostgreSQL's portable ``execute`` from now on (each, as it is run)."""
    from gm.store.postgres import PgConnection

    handed: list[str] = []
    execute = PgConnection.execute
    monkeypatch.setattr(PgConnection, "execute", lambda self, sql, params=(): handed.append(sql) or
                        execute(self, sql, params))
    return handed


def made_at_run_time() -> set:
    """The shapes of gm.store.sql.SHAPED run so far that no module declares (not compiled ahead)."""
    return {key for key, (statement,) in sql.SHAPED.items() if statement.compiled and statement.name is None}


def test_the_generic_writes_and_a_joined_flush_run_postgresqls_own_sql(pg_url, monkeypatch):
    store = Store(pg_url)
    try:
        portable = handed_portable_text(monkeypatch)
        with store.write():
            store.games.add_game("g1", "neighbors", 7, "{}", T)
            store.seats.add_player("g1", 0, "Ada", "ada@example.org", "hash-a")
            absence = store.insert("absences", game_id="g1", player="Ada", start=T, end=T + 60, created=T)
            assert absence > 0  # RETURNING its identity column
            assert store.update("absences", {"id": absence}, end=T + 120) == 1
            first = store.insert_unless(NEW_MESSAGE, dict(
                source_key="k1", message_id="<m1@x>", sender="ada@example.org", subject="s", raw=b"r",
                received=T, game_id=None, outcome="pending", detail="", auth=None, key="k1", mid="<m1@x>"))
            again = store.insert_unless(NEW_MESSAGE, dict(
                source_key="k2", message_id="<m1@x>", sender="ada@example.org", subject="s", raw=b"r",
                received=T, game_id=None, outcome="pending", detail="", auth=None, key="k2", mid="<m1@x>"),
                ("g1", "ada@example.org"))
            assert first is not None and again is None  # the same Message-ID: seen
            # rows of three tables deferred, joined into one statement at the commit, more rows than
            # one INSERT takes among them
            for i in range(70):
                store.reports.archive_report("g1", 1, 0, "Ada", "report", f"r{i}", None, T)
            store.games.set_game_status("g1", "paused", T + 1)
            store.inbox.set_message_outcome(first, "applied", "", "g1")
        assert portable == []  # before the test's own checks below, which are portable text
        assert store.one("SELECT count(*) AS n FROM reports WHERE game_id = :g", g="g1")["n"] == 70
        assert store.one("SELECT status FROM games WHERE id = :g", g="g1")["status"] == "paused"
        assert store.one("SELECT outcome FROM messages WHERE id = :i", i=first)["outcome"] == "applied"
        assert store.one('SELECT "end" FROM absences WHERE id = :i', i=absence)["end"] == T + 120
    finally:
        store.close()


@pytest.mark.parametrize("dialect", ["sqlite", "postgresql"])
def test_each_row_of_a_multi_row_insert_has_parameters_of_its_own(dialect):
    statement = sql.inserting("orders", ("game_id", "text"), returning=False)
    text, params = sql.rows_inserted(statement, dialect, [("g1", "a"), ("g2", "b")])
    assert text.startswith("INSERT INTO orders")  # gm.store.reads.WRITTEN_TABLE tells its table
    assert params == {"game_id__0": "g1", "text__0": "a", "game_id__1": "g2", "text__1": "b"}
    for name in params:
        assert sql.mark(dialect, name) in text


def test_a_rename_leaves_literals_and_doubled_percent_signs_alone():
    text, names = sql.renamed("SELECT '%(x)s', 50%% FROM t WHERE a = %(a)s OR b = %(a)s", "postgresql", "__w1")
    assert text == "SELECT '%(x)s', 50%% FROM t WHERE a = %(a__w1)s OR b = %(a__w1)s"
    assert names == {"a": "a__w1"}


def test_the_shaped_writes_give_the_same_answers_on_both_back_ends(store_target):
    store = Store(store_target)
    try:
        with store.write():
            store.games.add_game("g1", "neighbors", 7, "{}", T)
            store.seats.add_player("g1", 0, "Ada", "ada@example.org", "hash-a")
            first = store.timers.add_absence("g1", "Ada", T, T + 60, T)
            second = store.insert("absences", game_id="g1", player="Ada", start=T, end=T + 90, created=T)
            assert second == first + 1  # the new row's id: lastrowid on SQLite, RETURNING on PostgreSQL
            assert store.update("absences", {"game_id": "g1", "player": "Ada"}, created=T + 1) == 2
            assert store.update("absences", {"game_id": "g1", "player": "Bob"}, created=T + 1) == 0
            message = dict(source_key="k1", message_id="<m1@x>", sender="ada@example.org", subject="s", raw=b"r",
                           received=T, game_id=None, outcome="pending", detail="", auth=None)
            row = store.insert_unless(NEW_MESSAGE, {**message, "key": "k1", "mid": "<m1@x>"})
            assert row == store.inbox.message_seen("k1", "<m1@x>")["id"]
            assert store.insert_unless(NEW_MESSAGE, {**message, "key": "k1", "mid": "<m1@x>"}) is None
        assert [(r["start"], r["end"]) for r in store.timers.absences_of("g1")] == [(T, T + 60), (T, T + 90)]
    finally:
        store.close()
