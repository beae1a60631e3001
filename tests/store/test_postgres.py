"""The PostgreSQL back end: its migrations, the SQL translation, rows, the writer lock."""

from __future__ import annotations

import sqlite3
import threading
import time

import psycopg
import pytest

from gm.store import MigrationError, PostgresStore, SchemaTooNew, SqliteStore, Store, StoreError, schema
from gm.store import migrations
from gm.store.dialect import Row, Translator, row_factory
from gm.store.postgres import VERSION_TABLE

LATEST = migrations.latest()


def columns(store: Store, table: str) -> list[str]:
    if isinstance(store, SqliteStore):
        return [r["name"] for r in store.all(f"PRAGMA table_info({table})")]
    return [r[0] for r in store.db.raw(
        "SELECT attname FROM pg_attribute WHERE attrelid = to_regclass(%s) AND attnum > 0 "
        "AND NOT attisdropped ORDER BY attnum", (table,))]


def test_a_url_opens_postgresql_and_a_path_sqlite(pg_url, tmp_path):
    pg, lite = Store(pg_url), Store(tmp_path / "gm.sqlite")
    assert isinstance(pg, PostgresStore) and isinstance(lite, SqliteStore)
    assert isinstance(pg, Store) and pg.path == pg_url
    pg.close()
    lite.close()


def test_fresh_database_has_the_tables_and_columns_of_sqlite(pg_url, tmp_path):
    pg, lite = Store(pg_url), Store(tmp_path / "gm.sqlite")
    assert pg.schema_version == lite.schema_version == LATEST
    assert pg.table_names() == lite.table_names()
    for table in lite.table_names():
        assert columns(pg, table) == columns(lite, table), table
    pg.close()
    lite.close()


def test_opening_twice_runs_no_step(pg_url):
    Store(pg_url).close()
    store = Store(pg_url)
    assert store.migrate() == []
    assert store.db.raw(f"SELECT count(*) FROM {VERSION_TABLE}").fetchone()[0] == 1
    store.close()


def test_a_database_from_a_newer_gm_is_refused(pg_url):
    store = Store(pg_url)
    store.db.raw(f"UPDATE {VERSION_TABLE} SET version = %s", (LATEST + 3,))
    store.close()
    with pytest.raises(SchemaTooNew):
        Store(pg_url)


def test_a_failing_step_rolls_everything_back(pg_url, monkeypatch):
    Store(pg_url).close()
    bad = schema.Step(LATEST + 1, "broken", "CREATE TABLE extra (x INTEGER);\n"
                                            "ALTER TABLE no_such_table ADD COLUMN y TEXT;\n",
                      postgresql=(schema.Portable("CREATE TABLE extra (x BIGINT)"),
                                  schema.Portable("ALTER TABLE no_such_table ADD COLUMN y TEXT")))
    monkeypatch.setattr(schema, "STEPS", [*schema.STEPS, bad])
    with pytest.raises(MigrationError, match=f"schema step {LATEST + 1} .broken. failed"):
        Store(pg_url)
    monkeypatch.undo()
    store = Store(pg_url)
    assert store.schema_version == LATEST and "extra" not in store.table_names()
    store.close()


def test_a_python_step_gets_the_translating_connection(pg_url, monkeypatch):
    Store(pg_url).close()

    def fill(db):  # as a step written for SQLite would
        db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body BLOB, at REAL)")
        db.execute("INSERT INTO notes (body, at) VALUES (?, ?)", (b"\x00\xff", 1.5))

    step = schema.Step(LATEST + 1, "notes", "ALTER TABLE outbox ADD COLUMN failed REAL;", apply=fill,
                       postgresql=(schema.Portable("ALTER TABLE outbox ADD COLUMN failed DOUBLE PRECISION"),))
    monkeypatch.setattr(schema, "STEPS", [*schema.STEPS, step])
    store = Store(pg_url)
    assert store.schema_version == LATEST + 1
    assert "failed" in columns(store, "outbox")
    row = store.one("SELECT * FROM notes")
    assert (row["id"], row["body"], row["at"]) == (1, b"\x00\xff", 1.5)
    store.close()


# --- the translation ---------------------------------------------------------------------
KEYS = {"game_settings": ["game_id", "key"], "absences": ["id"]}
translate = Translator(lambda table: KEYS.get(table, [])).sql


def test_placeholders_and_percent_signs():
    assert translate("SELECT * FROM t WHERE a = ? AND b LIKE '%x?' AND c = ?") == \
        "SELECT * FROM t WHERE a = %s AND b ILIKE '%%x?' AND c = %s"


def test_like_ignores_case_as_in_sqlite(pg_url):
    assert translate("SELECT 1 FROM t WHERE s LIKE ?") == "SELECT 1 FROM t WHERE s ILIKE %s"
    store = Store(pg_url)
    with store.write():
        store.queue_outbox("<o1@gm>", "ada@example.org", "Turn 3: Late", b"raw", kind="notice", now=1.0)
    assert store.one("SELECT count(*) AS n FROM outbox WHERE subject LIKE '%late%'")["n"] == 1
    store.close()


def test_insert_or_ignore_and_or_replace():
    assert translate("INSERT OR IGNORE INTO t (a, b) VALUES (?, ?)") == \
        "INSERT INTO t (a, b) VALUES (%s, %s) ON CONFLICT DO NOTHING"
    assert translate("INSERT OR REPLACE INTO game_settings(game_id, key, value) VALUES (?, ?, ?)") == \
        ("INSERT INTO game_settings(game_id, key, value) VALUES (%s, %s, %s) "
         "ON CONFLICT (game_id, key) DO UPDATE SET value = EXCLUDED.value")
    with pytest.raises(ValueError, match="no primary key"):
        translate("INSERT OR REPLACE INTO nokey(a) VALUES (?)")


def test_ddl_types_and_the_reserved_column():
    assert translate("CREATE TABLE absences (id INTEGER PRIMARY KEY, n INTEGER NOT NULL, t REAL, "
                     "raw BLOB, end REAL)") == \
        ('CREATE TABLE absences (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, n BIGINT NOT NULL, '
         't DOUBLE PRECISION, raw BYTEA, "end" REAL)'.replace('"end" REAL', '"end" DOUBLE PRECISION'))
    assert translate("SELECT player, start, end FROM absences") == 'SELECT player, start, "end" FROM absences'
    assert translate("SELECT 'INTEGER', x FROM t") == "SELECT 'INTEGER', x FROM t"  # not DDL, not in a string
    assert "state BYTEA" in translate("CREATE TABLE states (game_id TEXT, state TEXT NOT NULL)")
    assert "state TEXT" in translate("CREATE TABLE other (state TEXT)")


def test_rows_read_like_sqlite_rows(pg_url):
    lite = sqlite3.connect(":memory:")
    lite.row_factory = sqlite3.Row
    want = lite.execute("SELECT 1 AS a, 'x' AS B").fetchone()
    with psycopg.connect(pg_url, row_factory=row_factory) as conn:
        got = conn.execute("SELECT 1 AS a, 'x' AS B").fetchone()
    assert isinstance(got, Row)
    for key in ("a", "A", "b", 0, 1):
        assert got[key] == want[key]
    assert tuple(got) == tuple(want) and len(got) == len(want) and got.keys() == ["a", "b"]
    with pytest.raises(IndexError):
        got["nope"]


# --- one writer at a time -----------------------------------------------------------------
def test_one_write_transaction_at_a_time_across_connections(pg_url):
    first, second = Store(pg_url), Store(pg_url)
    order: list[str] = []
    inside = threading.Event()

    def other():
        inside.wait()
        with second.write():
            order.append("second")

    thread = threading.Thread(target=other)
    thread.start()
    with first.write():
        first.add_game("g1", "neighbors", 1, "{}", 1.0)
        inside.set()
        time.sleep(0.5)  # the second writer waits for the lock meanwhile
        order.append("first")
    thread.join(10)
    assert order == ["first", "second"]
    assert second.game("g1")["seed"] == 1
    first.close()
    second.close()


def test_a_writer_whose_session_dies_leaves_nothing(pg_url):
    store, other = Store(pg_url), Store(pg_url)
    with pytest.raises(StoreError, match="database unavailable"):
        with store.write():
            store.add_game("g1", "neighbors", 1, "{}", 1.0)
            # as if the daemon's host died mid-turn: the server ends its session
            other.db.raw("SELECT pg_terminate_backend(%s)", (store.db.conn.info.backend_pid,))
            store.add_game("g2", "neighbors", 1, "{}", 1.0)
    with other.write():  # the writer lock went with the dead session
        assert other.games() == []
    with store.write():  # and the store goes on, on a new session
        store.add_game("g3", "neighbors", 1, "{}", 1.0)
    assert [g["id"] for g in other.games()] == ["g3"]
    store.close()
    other.close()


def test_an_unreachable_server_is_a_store_error():
    with pytest.raises(StoreError, match="cannot connect"):
        Store("postgresql://gm:secret@127.0.0.1:1/gm", timeout=1)


def test_the_config_key_store_puts_the_games_on_postgresql(pg_url, tmp_path):
    from typer.testing import CliRunner

    from gm.cli import app
    from gm.core.config import load

    conf = tmp_path / "gm.yaml"
    conf.write_text(f"data_dir: {tmp_path / 'data'}\naddress: gm@localhost\nstore: '{pg_url}'\n")
    assert load(conf).database == pg_url
    result = CliRunner().invoke(app, ["--config", str(conf), "new", "neighbors", "--id", "nb1", "--player",
                                      "ada=ada@example.org", "--player", "bob=bob@example.org", "--seed", "3"])
    assert result.exit_code == 0, result.output
    store = Store(pg_url)
    assert [g["id"] for g in store.games()] == ["nb1"]
    store.close()
    assert not (tmp_path / "data" / "gm.sqlite").exists()
    path = tmp_path / "other.sqlite"
    conf.write_text(f"data_dir: {tmp_path / 'data'}\nstore: {path}\n")  # a path: a SQLite file
    assert load(conf).database == path
