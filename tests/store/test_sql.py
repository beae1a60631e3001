"""gm.store.sql: a Core statement compiled once per dialect, in that driver's parameter style, and
run with a dict on the store's own connection (no SQLAlchemy Engine), on both back ends."""

from __future__ import annotations

import subprocess
import sys

import sqlalchemy

from gm.store import Store
from gm.store.sql import prepared, upsert

T = 1_000_000.0


def test_a_statement_is_built_once_and_compiled_once_per_dialect_in_its_drivers_style():
    built = []

    def build(sa, t):
        built.append(1)
        return sa.select(t.outbox.c.id).where(t.outbox.c.recipient == sa.bindparam("to"),
                                              t.outbox.c.status.in_(("queued", "held")))

    statement = prepared(build)
    assert built == []  # nothing built, nothing imported, until the first use
    lite, constants = statement.sql("sqlite")
    assert "outbox.recipient = :to" in lite and "%(" not in lite
    assert constants == {"status_1_1": "queued", "status_1_2": "held"}  # the IN list, spelled out once
    pg, _ = statement.sql("postgresql")
    assert "outbox.recipient = %(to)s" in pg and "::" not in pg
    assert statement.sql("sqlite")[0] is lite and statement.sql("postgresql")[0] is pg
    assert built == [1]


def test_a_statement_runs_on_the_stores_own_connection_and_sees_its_writes(store_target, monkeypatch):
    def no_engine(*args, **kwargs):
        raise AssertionError("a SQLAlchemy Engine was made")

    monkeypatch.setattr(sqlalchemy, "create_engine", no_engine)
    store = Store(store_target)
    try:
        queued = prepared(lambda sa, t: sa.select(t.outbox.c.recipient).where(
            t.outbox.c.game_id == sa.bindparam("game"), t.outbox.c.status.in_(("queued", "held"))
        ).order_by(t.outbox.c.recipient))
        with store.write():
            for n, (to, status) in enumerate([("b@x.org", "queued"), ("a@x.org", "held"), ("c@x.org", "sent")]):
                store.insert("outbox", message_id=f"<{n}@gm>", game_id="g1", turn=1, kind="report", recipient=to,
                             subject="s", raw=b"x", status=status, next_attempt=T, created=T)
            # inside the transaction: the heartbeat's UPDATE finds no row, its INSERT makes one, read back
            store.daemons.beat("host:1:ab", "host", 1, T, T + 5, None)
            assert store.daemons.daemon_row("host:1:ab")["last_seen"] == T + 5
            assert [r["recipient"] for r in queued.run(store, game="g1").fetchall()] == ["a@x.org", "b@x.org"]
        assert [r[0] for r in queued.run(store, game="g2").fetchall()] == []
        assert store.daemons.last_heartbeat() == T + 5
        assert store.metrics.unsent_report_recipients("g1", 1) == {"a@x.org", "b@x.org"}
    finally:
        store.close()


def test_compiled_sql_holds_what_every_statement_compiles_to_now():
    """gm/store/compiled_sql.py is what each statement held at module level compiles to on both
    dialects: a statement changed (or added) without `python -m gm.store.sql` fails here.  Looked
    at in a process of its own: caches of statements built at run time (by shape) are not held ones."""
    probe = ("from gm.store import compiled_sql, sql\n"
             "fresh = sql.compiled_ahead()\n"
             "print(len(fresh), sorted(n for n in fresh.keys() | compiled_sql.STATEMENTS.keys()\n"
             "                         if fresh.get(n) != compiled_sql.STATEMENTS.get(n)))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    count, stale = done.stdout.split(" ", 1)
    assert int(count) > 0, "no statement found at module level"
    assert stale.strip() == "[]", f"gm/store/compiled_sql.py is stale for {stale}: run `python -m gm.store.sql`"


def test_a_statement_held_at_module_level_runs_from_compiled_sql_without_sqlalchemy(tmp_path):
    """The daemon's heartbeat (gm.store.daemons) runs on a fresh store in a process that never
    imports SQLAlchemy: its SQL is read from gm/store/compiled_sql.py by its name."""
    probe = ("import sys\nfrom gm.store import Store\ns = Store(sys.argv[1])\nfor now in (11.0, 12.0):\n"
             "    with s.write():\n        s.daemons.beat('host:1:ab', 'host', 1, 10.0, now, None)\n"
             "print([dict(r)['last_seen'] for r in s.daemons.daemon_rows()], 'sqlalchemy' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe, str(tmp_path / "gm.sqlite")], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[12.0]", "False"]


def test_a_statement_not_held_at_module_level_is_compiled_at_its_first_run():
    from gm.store import sql

    inner = prepared(lambda sa, t: sa.select(t.games.c.id))
    assert sql.name_of(inner) is None
    assert inner.sql("sqlite")[0].startswith("SELECT games.id")
    from gm.store import daemons

    assert sql.name_of(daemons.BEAT) == "gm.store.daemons:BEAT"


def test_a_list_given_for_in_is_spelled_out_once_per_length(store_target):
    store = Store(store_target)
    try:
        by_ids = prepared(lambda sa, t: sa.select(t.outbox.c.recipient).where(
            t.outbox.c.id.in_(sa.bindparam("ids", expanding=True)), t.outbox.c.status.in_(("queued", "held"))
        ).order_by(t.outbox.c.id), lists=("ids",))
        with store.write():
            ids = [store.insert("outbox", message_id=f"<{n}@gm>", game_id="g1", turn=1, kind="report",
                                recipient=f"{n}@x.org", subject="s", raw=b"x", status=status, next_attempt=T,
                                created=T) for n, status in enumerate(["queued", "held", "sent", "queued"])]
        found = {n: [r["recipient"] for r in by_ids.run(store, ids=ids[:n]).fetchall()] for n in (0, 1, 3, 4)}
        assert found == {0: [], 1: ["0@x.org"], 3: ["0@x.org", "1@x.org"], 4: ["0@x.org", "1@x.org", "3@x.org"]}
        # the same length again, other items: the same SQL, the items its own
        assert [r["recipient"] for r in by_ids.run(store, ids=[ids[3]]).fetchall()] == ["3@x.org"]
        assert sorted(by_ids.spelled) == [(store.kind, n) for n in (0, 1, 3, 4)]  # each length spelled once
        # as SQLAlchemy itself spells a list of three out
        from gm.store.sql import dialect_named

        own = by_ids.built(store.kind).compile(dialect=dialect_named(store.kind)).construct_expanded_state(
            {"ids": ids[:3]}).statement
        assert by_ids.spelled[store.kind, 3] == own
    finally:
        store.close()


def test_a_list_not_named_at_prepared_is_refused():
    unnamed = prepared(lambda sa, t: sa.select(t.outbox.c.id).where(
        t.outbox.c.id.in_(sa.bindparam("ids", expanding=True))))
    try:
        unnamed.sql("sqlite")
    except ValueError as exc:
        assert "ids" in str(exc)
    else:
        raise AssertionError("a list not named at prepared() compiled")


def test_a_dialect_may_have_a_builder_of_its_own(store_target):
    def upsert(dialect):
        def build(sa, t):
            insert = __import__(f"sqlalchemy.dialects.{dialect}", fromlist=["insert"]).insert
            new = insert(t.holds).values(scope=sa.bindparam("scope"), since=T, reason="r", words="w",
                                         refusal="sender", next_probe=sa.bindparam("probe"))
            return new.on_conflict_do_update(index_elements=[t.holds.c.scope],
                                             set_={"next_probe": new.excluded.next_probe})
        return build

    statement = prepared(upsert("sqlite"), postgresql=upsert("postgresql"))
    assert "ON CONFLICT (scope) DO UPDATE SET next_probe = excluded.next_probe" in statement.sql("sqlite")[0]
    assert "%(probe)s" in statement.sql("postgresql")[0]
    store = Store(store_target)
    try:
        with store.write():
            statement.run(store, scope="sender", probe=T + 1)
            statement.run(store, scope="sender", probe=T + 2)
        assert [(h["scope"], h["next_probe"]) for h in store.outbox.holds()] == [("sender", T + 2)]
    finally:
        store.close()



def test_a_partial_index_condition_is_written_as_constants_not_bound():
    from gm.store.delivery import UNSETTLED
    from gm.store.mail import SENT_UNTRIMMED

    for dialect in ("sqlite", "postgresql"):
        assert "outbox.trimmed = 0 AND outbox.status = 'sent'" in SENT_UNTRIMMED.sql(dialect)[0]
        assert "delivery_events.settled = 0" in UNSETTLED.sql(dialect)[0]


def test_an_upsert_replaces_the_row_with_the_same_key_on_both_back_ends(store_target):
    store = Store(store_target)
    try:
        with store.write():
            store.timers.set_timer("g1", 5.0)
            store.timers.set_timer("g1", 7.0)
            store.timers.set_timer("g2", 9.0)
            store.results.propose_draw("g1", "ada", 3, 10.0)
            store.results.propose_draw("g1", "ada", 4, 11.0)
            store.results.set_result("g1", "ended", ["ada"], 12.0)
            store.results.set_result("g1", "forfeit", None, 13.0)
            store.games.save_setting("g1", "deadline", "2d")
            store.games.save_setting("g1", "deadline", "3d")
            upsert("address_settings", "address").run(store, address="a@x", format="text", timezone=None, updated=1.0,
                                                      calendar=None, language=None)
            upsert("address_settings", "address").run(store, address="a@x", format=None, timezone="UTC", updated=2.0,
                                                      calendar=None, language=None)
        assert [(r["game_id"], r["due"]) for r in store.all("SELECT game_id, due FROM timers ORDER BY game_id")] == [
            ("g1", 7.0), ("g2", 9.0)]
        assert store.results.draw_proposals("g1") == {"ada": 4}
        result = store.results.result_of("g1")
        assert (result["reason"], result["winners"], result["at"]) == ("forfeit", None, 13.0)
        assert store.games.settings_of("g1") == {"deadline": "3d"}
        row = store.seats.address_settings("a@x")
        assert (row["format"], row["timezone"], row["updated"]) == (None, "UTC", 2.0)
    finally:
        store.close()


def test_an_upsert_made_by_the_helper_is_compiled_ahead_under_the_name_of_the_module_holding_it():
    """upsert() builds its statement in gm.store.sql; it is found (and compiled ahead) where a store
    module holds it, so `gm ingest` runs it without SQLAlchemy."""
    from gm.store import compiled_sql, service, sql

    held = [name for name, value in vars(service).items() if isinstance(value, sql.Prepared)
            and value.build.__module__ == "gm.store.sql"]
    assert held, "no upsert held in gm.store.service"
    for name in held:
        statement = getattr(service, name)
        assert sql.name_of(statement) == f"gm.store.service:{name}"
        assert f"gm.store.service:{name}" in compiled_sql.STATEMENTS


def test_portable_text_runs_as_written_on_sqlite_and_through_sqlalchemy_text_on_postgresql(store_target):
    """Hand-written SQL outside the store's statements (tests, tools, the steps' Python) is portable
    text with ``:name`` parameters: SQLite runs it as written, PostgreSQL as SQLAlchemy's ``text()``
    compiles it for psycopg (a literal % kept, a colon inside a string literal left alone)."""
    from gm.store import Store

    store = Store(store_target)
    try:
        with store.write():
            store.db.execute("INSERT INTO games (id, kind, seed, options, status, created, updated) "
                             "VALUES (:id, 'neighbors', 1, '{}', :status, 0, 0)", {"id": "g:1", "status": "active"})
        row = store.one("SELECT id, '100%' AS pct, 'imap:1:2' AS key FROM games WHERE id = :id AND status = :s",
                        id="g:1", s="active")
        assert (row["id"], row["pct"], row["key"]) == ("g:1", "100%", "imap:1:2")
        assert store.all("SELECT id FROM games WHERE id = :id", id="g:2") == []
    finally:
        store.close()
