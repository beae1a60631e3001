"""gm.store.sql: a Core statement compiled once per dialect, in that driver's parameter style, and
run with a dict on the store's own connection (no SQLAlchemy Engine), on both back ends."""

from __future__ import annotations

import subprocess
import sys

import sqlalchemy

from gm.store import Store
from gm.store.sql import prepared

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
            store.beat("host:1:ab", "host", 1, T, T + 5, None)
            assert store.daemon_row("host:1:ab")["last_seen"] == T + 5
            assert [r["recipient"] for r in queued.run(store, game="g1").fetchall()] == ["a@x.org", "b@x.org"]
        assert [r[0] for r in queued.run(store, game="g2").fetchall()] == []
        assert store.last_heartbeat() == T + 5
        assert store.unsent_report_recipients("g1", 1) == {"a@x.org", "b@x.org"}
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
             "    with s.write():\n        s.beat('host:1:ab', 'host', 1, 10.0, now, None)\n"
             "print([dict(r)['last_seen'] for r in s.daemon_rows()], 'sqlalchemy' in sys.modules)")
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
