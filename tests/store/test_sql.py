"""gm.store.sql: a Core statement compiled once per dialect, in that driver's parameter style, and
run with a dict on the store's own connection (no SQLAlchemy Engine), on both back ends."""

from __future__ import annotations

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
