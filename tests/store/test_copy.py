"""gm store copy: a store of games of every kind, SQLite -> PostgreSQL -> SQLite, verified at each end."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from games import registry
from gm.cli import app
from gm.core.config import Config
from gm.service.engine import Engine
from gm.store import Store
from support import Clock, order_mail, play_game

runner = CliRunner()


def gm(*args: str):
    return runner.invoke(app, [*map(str, args)])


def rows(store: Store) -> dict[str, list[tuple]]:
    """Every table's rows, in a fixed order (the back ends return them in their own)."""
    return {table: sorted((tuple(r) for r in store.all(f"SELECT * FROM {table}")), key=repr)
            for table in store.table_names()}


@pytest.fixture
def played(tmp_path):
    """A SQLite store with a game of every kind (some over, some not), mail in and mail out."""
    config = Config(data_dir=tmp_path / "src", address="gm@example.test")
    engine = Engine(Store(config.database), config, clock=Clock())
    for n, kind in enumerate(registry.available()):
        play_game(engine, kind, f"g{n}", seed=n, max_steps=25 if kind == "proximity" else 4000)
    secrets = engine.create_game("neighbors", "mail", [("ada", "ada@example.org"), ("bob", "bob@example.org")],
                                 seed=3, options={"deadline": "72h"})
    text = next(iter(engine.load("mail").rules.legal_orders(engine.load("mail").state, "ada")), "a1")
    engine.ingest(order_mail("ada@example.org", text, game_id="mail", password=secrets["ada"]))
    engine.ingest(order_mail("eve@example.org", "HELP"))
    engine.store.close()
    engine.close()
    return config.database


def test_a_store_goes_to_postgresql_and_back_unchanged_and_verified(played, pg_url, tmp_path):
    there = gm("store", "copy", played, pg_url)
    assert there.exit_code == 0, there.output
    kinds = len(registry.available()) + 1
    assert f"{kinds} of {kinds} games verified in the destination" in there.output
    back_path = tmp_path / "back.sqlite"
    back = gm("store", "copy", pg_url, back_path)
    assert back.exit_code == 0, back.output
    assert f"{kinds} of {kinds} games verified in the destination" in back.output

    source, middle, returned = Store(played), Store(pg_url), Store(back_path)
    original = rows(source)
    assert {t for t, r in original.items() if r} >= {"games", "players", "states", "orders", "outbox",
                                                     "reports", "history", "messages", "deadlines"}
    assert rows(middle) == original
    assert rows(returned) == original
    # states came through as bytes, those long enough to be compressed with their packing saying so
    kinds_of_state = {(type(r["state"]), r["state_packing"])
                      for r in middle.all("SELECT state, state_packing FROM states")}
    assert kinds_of_state == {(bytes, "utf8"), (bytes, "zlib")}
    # the copies go on numbering after the copied rows
    top = source.one("SELECT max(id) AS n FROM history")["n"]
    with middle.write():
        middle.history.log("g0", 1, "gm", "after the copy", now=1.0)
    assert middle.one("SELECT max(id) AS n FROM history")["n"] == top + 1
    for store in (source, middle, returned):
        store.close()


def test_a_store_that_holds_rows_is_not_copied_into(played, pg_url):
    assert gm("store", "copy", played, pg_url).exit_code == 0
    again = gm("store", "copy", played, pg_url)
    assert again.exit_code == 1
    assert "the destination already holds rows" in again.output
    store = Store(pg_url)
    assert store.games.game_count() == len(registry.available()) + 1  # nothing doubled
    store.close()


def test_insert_many_writes_more_rows_than_one_insert_takes_on_both_back_ends(store_target):
    """Store.insert_many (gm store copy's writes) goes in multi-row INSERTs of at most 60 rows: 130 rows
    with their own ids arrive whole and in order, Nones and all, and a row inserted after numbers past them."""
    store = Store(store_target)
    try:
        given = [(n, "smtp" if n % 2 else "imap", float(n), None if n % 3 else n + 0.5, n % 2) for n in range(1, 131)]
        with store.write():
            store.insert_many("outages", ["id", "kind", "start", "finish", "applied"], given)
            store.ids_restored("outages")
            after = store.insert("outages", kind="smtp", start=999.0, finish=None, applied=0)
        assert [tuple(r) for r in store.all("SELECT id, kind, start, finish, applied FROM outages WHERE id <= 130 "
                                            "ORDER BY id")] == given
        assert after == 131
    finally:
        store.close()
