"""gm.store.sql_texts: every statement gm.store declares, compiled ahead for both dialects, so that a
process running a few statements (`gm ingest`, once per mail) never loads SQLAlchemy; a statement
changed since its text was written is compiled by SQLAlchemy, never run stale.  And the upserts
(INSERT OR REPLACE as each dialect's ON CONFLICT) replace a row on both back ends."""

from __future__ import annotations

import subprocess
import sys

from gm.store import Store
from gm.store.sql import fingerprint, prepared, upsert
from gm.store.sql_texts import TEXTS


def test_the_texts_written_are_what_sqlalchemy_compiles_now_for_every_statement_declared():
    # in a process of its own: only what gm.store declares at import (tests make statements of their own)
    check = ("import gm.store\nfrom gm.store.sql import compiled_texts\nfrom gm.store.sql_texts import TEXTS\n"
             "now = compiled_texts()\n"
             "stale = sorted(set(now) ^ set(TEXTS)) + [k for k in now if now[k] != TEXTS.get(k, now[k])]\n"
             "print(len(now), stale)")
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    count, stale = done.stdout.split(" ", 1)
    assert int(count) > 20
    assert stale.strip() == "[]", ("gm/store/sql_texts.py is stale: write it again with "
                                   "python -c 'from gm.store.sql import write_texts; write_texts()'")


def test_a_statement_not_written_ahead_is_compiled_by_sqlalchemy():
    a = prepared(lambda sa, t: sa.select(t.timers.c.due).where(t.timers.c.game_id == sa.bindparam("g")))
    b = prepared(lambda sa, t: sa.select(t.timers.c.due).where(t.timers.c.game_id != sa.bindparam("g")))
    assert fingerprint(a) not in TEXTS and fingerprint(a) != fingerprint(b)  # one line, two statements
    assert a.sql("sqlite")[0].endswith("timers.game_id = :g") and b.sql("sqlite")[0].endswith("timers.game_id != :g")
    closed_over = object()
    odd = prepared(lambda sa, t, v=closed_over: sa.select(t.timers.c.due))
    assert fingerprint(odd) is None  # a value with no stable form: never looked up ahead
    assert odd.sql("postgresql")[0].startswith("SELECT timers.due")


def test_an_upsert_replaces_the_row_with_the_same_key_on_both_back_ends(store_target):
    store = Store(store_target)
    try:
        with store.write():
            store.set_timer("g1", 5.0)
            store.set_timer("g1", 7.0)
            store.set_timer("g2", 9.0)
            store.propose_draw("g1", "ada", 3, 10.0)
            store.propose_draw("g1", "ada", 4, 11.0)
            store.set_result("g1", "ended", ["ada"], 12.0)
            store.set_result("g1", "forfeit", None, 13.0)
            store.save_setting("g1", "deadline", "2d")
            store.save_setting("g1", "deadline", "3d")
            upsert("address_settings", "address").run(store, address="a@x", format="text", timezone=None, updated=1.0)
            upsert("address_settings", "address").run(store, address="a@x", format=None, timezone="UTC", updated=2.0)
        assert [(r["game_id"], r["due"]) for r in store.all("SELECT game_id, due FROM timers ORDER BY game_id")] == [
            ("g1", 7.0), ("g2", 9.0)]
        assert store.draw_proposals("g1") == {"ada": 4}
        result = store.result_of("g1")
        assert (result["reason"], result["winners"], result["at"]) == ("forfeit", None, 13.0)
        assert store.settings_of("g1") == {"deadline": "3d"}
        row = store.address_settings("a@x")
        assert (row["format"], row["timezone"], row["updated"]) == (None, "UTC", 2.0)
    finally:
        store.close()
