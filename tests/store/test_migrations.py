"""Schema migrations: fresh databases, databases made before migrations, refusals, rollback; on
each back end (store_target), but for what is SQLite's alone: a database made before migrations
(schema 0, with its meta table: PostgreSQL came in at step 4) and a file that is not a database."""

from __future__ import annotations

import importlib
import json
import sqlite3
from contextlib import closing
from pathlib import Path

import psycopg
import pytest

import store_legacy
from gm.core.config import Config
from gm.service.engine import Engine
from gm.store import SchemaTooNew, Store, StoreError, migrations, schema, steps
from gm.store.base import is_url
from gm.store.errors import MigrationError
from gm.store.packing import unpack_text
from gm.store.postgres import VERSION_TABLE, PgConnection
from old_stores import store_at

LATEST = migrations.latest()
TABLES = {"games", "players", "states", "messages", "orders", "outbox", "reports", "history",
          "game_settings", "deadlines", "absences", "state_overrides", "results", "timers",
          "open_games", "observers", "address_codes",  # step 5
          "delivery_events", "addresses",  # step 6
          "credential_failures", "credential_locks",  # step 9
          "pending_requests",  # step 10
          "bounce_holds",  # step 12
          "holds",  # step 13
          "daemons", "outages",  # step 14
          "draw_proposals",  # step 16
          "address_settings",  # step 17
          "conditional_lines",  # step 26
          "takebacks",  # step 27
          "mail_threads",  # step 28
          "seat_paces", "address_paces", "held_letters", "digests",  # step 29
          "calendar_events",  # step 30
          "away_notices",  # step 31
          "store_secrets",  # step 32
          "public_players", "rated_games", "rated_results", "ratings", "tournaments",  # step 33
          "tournament_entries", "tournament_games", "rematch_offers"}


FIRST_PG_STEP = 4  # the step gm was at when the PostgreSQL back end came in


def pg_rows(url: str, sql: str, params: tuple = ()) -> list[tuple]:
    """PostgreSQL's own SQL on a connection of its own, as sqlite3.connect is below."""
    with closing(psycopg.connect(url, autocommit=True)) as conn:
        return conn.execute(sql, params).fetchall()


def pg_layout(url: str) -> dict[str, str]:
    """name -> every table's columns (type, null, default, identity), every index and constraint."""
    found: dict[str, str] = {}
    for table, column, kind, nullable, default, identity in pg_rows(
            url, "SELECT table_name, column_name, data_type, is_nullable, column_default, is_identity "
                 "FROM information_schema.columns WHERE table_schema = current_schema() "
                 "ORDER BY table_name, ordinal_position"):
        found[table] = found.get(table, "") + f"{column} {kind} {nullable} {default} {identity}; "
    for name, definition in pg_rows(url, "SELECT indexname, indexdef FROM pg_indexes "
                                         "WHERE schemaname = current_schema()"):
        found[name] = definition
    for name, definition in pg_rows(url, "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
                                         "WHERE connamespace = current_schema()::regnamespace"):
        found[f"constraint {name}"] = definition
    return found


def layout(path) -> dict[str, str]:
    """name -> normalised CREATE statement of every table and index (not SQLite's own)."""
    if is_url(path):
        return pg_layout(path)
    db = sqlite3.connect(str(path))
    try:
        return {name: " ".join(sql.split()) for name, sql in db.execute(
            "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'")}
    finally:
        db.close()


def user_version(path) -> int:
    if is_url(path):  # PostgreSQL's is the row of gm_schema_version (gm.store.postgres)
        if pg_rows(path, "SELECT to_regclass(%s)", (VERSION_TABLE,))[0][0] is None:
            return 0
        return pg_rows(path, f"SELECT version FROM {VERSION_TABLE}")[0][0]
    db = sqlite3.connect(str(path))
    try:
        return db.execute("PRAGMA user_version").fetchone()[0]
    finally:
        db.close()


def set_user_version(path, version: int) -> None:
    """As a newer gm would leave it."""
    if is_url(path):
        pg_rows(path, f"UPDATE {VERSION_TABLE} SET version = %s RETURNING version", (version,))
        return
    db = sqlite3.connect(str(path))
    db.execute(f"PRAGMA user_version = {version}")
    db.close()


def table_names(path) -> set[str]:
    if is_url(path):
        return {r[0] for r in pg_rows(path, "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}
    db = sqlite3.connect(str(path))
    try:
        return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        db.close()


# --- fresh databases --------------------------------------------------------------
def test_fresh_database_gets_every_table_and_the_latest_version(store_target):
    store = Store(store_target)
    assert store.schema_version == LATEST == len(schema.STEPS)
    store.close()
    if is_url(store_target):  # its step in a table of its own
        assert table_names(store_target) == TABLES | {VERSION_TABLE}
    else:
        assert table_names(store_target) == TABLES  # no meta table any more
    assert user_version(store_target) == LATEST


def test_steps_are_numbered_one_by_one():
    assert [s.number for s in schema.STEPS] == list(range(1, len(schema.STEPS) + 1))


def test_every_step_module_is_listed_in_its_place():
    """gm/store/steps holds one module a step, sNN_what_it_does.py, and its list names each, in order."""
    names = sorted(path.stem for path in Path(steps.__file__).parent.glob("s[0-9][0-9]_*.py"))
    assert [int(name[1:3]) for name in names] == [s.number for s in steps.STEPS]
    assert [importlib.import_module(f"gm.store.steps.{name}").STEP for name in names] == steps.STEPS
    assert schema.STEPS == steps.STEPS


def test_opening_twice_is_a_no_op(store_target):
    path = store_target
    Store(path).close()
    before = layout(path)
    store = Store(path)
    if is_url(path):
        assert migrations.steps_after(store.schema_version) == []
        assert store.migrate() == []
        assert pg_rows(path, f"SELECT count(*) FROM {VERSION_TABLE}") == [(1,)]
    else:
        assert migrations.pending(store.db) == []
        assert migrations.migrate(store.db) == []
    assert store.schema_version == LATEST
    store.close()
    assert layout(path) == before


def test_the_deadlines_module_schema_still_applies_on_top(tmp_path):
    """SQLite's alone: the old deadlines module's schema (gm.deadlines.ensure_schema, CREATE TABLE
    IF NOT EXISTS, in SQLite's dialect) ran only on SQLite stores, before the PostgreSQL back end."""
    store_target = tmp_path / "gm.sqlite"
    store = Store(store_target)
    before = layout(store_target)
    with store.write():
        for statement in store_legacy.DEADLINES_SQL.read_text().split(";"):
            if statement.strip():
                store.db.execute(statement)
    store.close()
    assert layout(store_target) == before


# --- databases made before migrations ------------------------------------------------
def _rows(store: Store, table: str, like: dict) -> list[dict]:
    """The rows as written: a packed text (steps 21, 22: bytes now) read by its recorded packing."""
    packed = {("states", "state"), ("reports", "body")} & {(table, c) for c in like}
    cols = ", ".join([*like, *(f"{c}_packing" for _, c in packed)])
    rows = [dict(r) for r in store.all(f"SELECT {cols} FROM {table} ORDER BY rowid")]
    for _, column in packed:
        for row in rows:
            row[column] = unpack_text(row[column], row.pop(f"{column}_packing"))
    return rows


@pytest.mark.parametrize("service_tables", ["all", "some", "none"])
def test_an_old_database_is_upgraded_with_every_row_intact(tmp_path, service_tables):
    """SQLite's alone: schema 0 (before migrations) predates the PostgreSQL back end (step 4)."""
    path = tmp_path / "old.sqlite"
    written = store_legacy.build(path, service_tables)
    assert user_version(path) == 0
    store = Store(path)
    try:
        assert store.schema_version == LATEST
        for table, rows in written.items():
            assert _rows(store, table, rows[0]) == rows, table
        # the old meta table is left as it was
        assert [tuple(r) for r in store.all("SELECT key, value FROM meta")] == [("schema", "1")]
        # and the named queries read the old data
        game = store_legacy.GAME
        assert store.games.game(game)["kind"] == "neighbors"
        assert [p["name"] for p in store.seats.players(game)] == ["ada", "bob"]
        assert store.turns.latest_state(game)["seq"] == 1
        assert store.turns.accepted_players_since(game, 0) == {written["orders"][0]["player"]}
        assert store.inbox.message_seen("nope", "<m1@example.org>")["outcome"] == "applied"
        assert store.outbox.sent_count(game) == 1
        assert [r["body"] for r in store.reports.player_reports(game, "bob")] == ["Your move."]
        if service_tables != "none":
            assert store.games.settings_of(game) == {"deadline": "72h"}
            assert store.timers.deadline_row(game)["start_seq"] == 1
        # step 3: every active game is due at once, so the first tick schedules it properly
        assert store.timers.due_games(0.0) == [game] and store.timers.timer_of(game) == 0.0
    finally:
        store.close()
    assert table_names(path) == TABLES | {"meta"}


def test_an_upgraded_old_database_has_the_same_schema_as_a_fresh_one(tmp_path):
    """SQLite's alone: schema 0 (before migrations) predates the PostgreSQL back end (step 4)."""
    # Migrations and schema agree whichever way a database got here.
    store_legacy.build(tmp_path / "old.sqlite", "some")
    Store(tmp_path / "old.sqlite").close()
    Store(tmp_path / "new.sqlite").close()
    old = layout(tmp_path / "old.sqlite")
    old.pop("meta")
    assert old == layout(tmp_path / "new.sqlite")


def test_the_passwords_of_an_old_database_still_verify(tmp_path):
    """SQLite's alone: schema 0 (before migrations) predates the PostgreSQL back end (step 4)."""
    try:
        from gm.passwords import verify
    except ImportError:
        from gm.core.passwords import verify
    store_legacy.build(tmp_path / "old.sqlite")
    store = Store(tmp_path / "old.sqlite")
    try:
        pw_hash = store.seats.pw_hash_by_email(store_legacy.GAME, "ada@example.org")
        assert verify(store_legacy.SECRETS["ada"], pw_hash)
        assert not verify(store_legacy.SECRETS["bob"], pw_hash)
    finally:
        store.close()


def test_an_old_game_still_loads_and_accepts_a_legal_order(tmp_path):
    """SQLite's alone: schema 0 (before migrations) predates the PostgreSQL back end (step 4)."""
    path = tmp_path / "gm-data" / "old.sqlite"
    path.parent.mkdir()
    store_legacy.build(path)
    store = Store(path)
    engine = Engine(store, Config(data_dir=tmp_path / "gm-data", database=path, address="gm@localhost"),
                    clock=lambda: store_legacy.T0 + 3600)
    try:
        loaded = engine.load(store_legacy.GAME)
        assert loaded.seq == 1
        name = loaded.rules.to_move(loaded.state)[0]
        text = loaded.rules.legal_orders(loaded.state, name)[0]
        outcome = engine.gm_order(store_legacy.GAME, name, text)
        assert outcome.outcome == "applied", outcome
        assert engine.load(store_legacy.GAME).seq == 2
    finally:
        engine.close()
        store.close()


# --- refusals and failures --------------------------------------------------------------
def test_a_database_from_a_newer_gm_is_refused(store_target):
    path = store_target
    Store(path).close()
    set_user_version(path, LATEST + 3)
    with pytest.raises(SchemaTooNew) as caught:
        Store(path)
    assert isinstance(caught.value, StoreError)
    assert str(caught.value) == (f"this database was made by a newer gm (schema {LATEST + 3}; "
                                 f"this gm knows up to {LATEST}): upgrade gm")
    assert user_version(path) == LATEST + 3


def test_a_failing_step_rolls_everything_back(store_target, monkeypatch):
    """On SQLite from a database made before migrations, on PostgreSQL from the step it came in at."""
    path = store_target
    if is_url(path):
        store_at(path, FIRST_PG_STEP)
    else:
        store_legacy.build(path, "none")
    before = layout(path)
    bad = schema.Step(LATEST + 1, "broken", "CREATE TABLE extra (x INTEGER);\n"
                                            "ALTER TABLE no_such_table ADD COLUMN y TEXT;\n",
                      postgresql=(schema.Portable("CREATE TABLE extra (x BIGINT)"),
                                  schema.Portable("ALTER TABLE no_such_table ADD COLUMN y TEXT")))
    monkeypatch.setattr(schema, "STEPS", [*schema.STEPS, bad])
    with pytest.raises(MigrationError, match=f"schema step {LATEST + 1} .broken. failed"):
        Store(path)
    # Every step from 2 (PostgreSQL: 5) on and the version all undone: the database is as it was.
    assert user_version(path) == (FIRST_PG_STEP if is_url(path) else 0)
    assert layout(path) == before


def test_a_failing_python_step_rolls_back_too(store_target, monkeypatch):
    path = store_target
    Store(path).close()
    before = layout(path)

    def boom(db):
        db.execute("CREATE TABLE half_done (x INTEGER)", {})
        raise RuntimeError("copying failed")

    monkeypatch.setattr(schema, "STEPS", [*schema.STEPS, schema.Step(LATEST + 1, "copy", apply=boom)])
    with pytest.raises(RuntimeError, match="copying failed"):
        Store(path)
    assert user_version(path) == LATEST
    assert layout(path) == before


def test_a_later_step_runs_on_a_database_at_the_previous_one(store_target, monkeypatch):
    path = store_target
    Store(path).close()
    step = schema.Step(LATEST + 1, "failed flag", "ALTER TABLE outbox ADD COLUMN failed REAL;",
                       postgresql=(schema.Portable("ALTER TABLE outbox ADD COLUMN failed DOUBLE PRECISION"),))
    monkeypatch.setattr(schema, "STEPS", [*schema.STEPS, step])
    store = Store(path)
    assert store.schema_version == LATEST + 1
    if is_url(path):
        assert ("failed", "double precision") in pg_rows(
            path, "SELECT column_name, data_type FROM information_schema.columns "
                  "WHERE table_schema = current_schema() AND table_name = 'outbox'")
    else:
        assert "failed" in {r["name"] for r in store.all("PRAGMA table_info(outbox)")}
    store.close()


def test_statements_split_on_complete_statements_only():
    sql = "CREATE TABLE a (x TEXT DEFAULT ';'); -- a comment; with a semicolon\nCREATE TABLE b (y);\n"
    assert schema.statements(sql) == ["CREATE TABLE a (x TEXT DEFAULT ';'); -- a comment; with a semicolon",
                                      "CREATE TABLE b (y);"]
    with pytest.raises(ValueError):
        schema.statements("CREATE TABLE c (z")


def test_not_a_database_is_a_store_error(tmp_path):
    """SQLite's alone: a file that is not a database (a PostgreSQL server that cannot be reached is
    test_postgres.py's test_an_unreachable_server_is_a_store_error)."""
    path = tmp_path / "junk.sqlite"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError):
        Store(path)


def at_step(path, step: int):
    """A connection to a new database at schema ``step``, taking portable SQL (``:name`` parameters;
    on PostgreSQL gm.store.postgres.PgConnection, each statement committed as it runs)."""
    if is_url(path):
        store_at(path, step)
        return PgConnection(path, 10)
    db = sqlite3.connect(str(path))
    for s in schema.STEPS[:step]:
        for statement in schema.statements(s.sql):
            db.execute(statement)
    return db


def done_at_step(db, step: int) -> None:
    if isinstance(db, sqlite3.Connection):
        db.execute(f"PRAGMA user_version = {step}")
        db.commit()
    db.close()


def test_a_step_3_database_gets_the_self_service_tables_and_generation_0(store_target):
    """The self-service step: seats of games made before it keep their passwords, at generation 0."""
    path = store_target
    db = at_step(path, 3)
    db.execute("INSERT INTO games VALUES ('nb1', 'neighbors', 1, '{}', 'active', 0, 0)")
    db.execute("INSERT INTO players VALUES ('nb1', 0, 'ada', 'ada@example.org', 'scrypt$x', 1)")
    done_at_step(db, 3)
    store = Store(path)
    assert store.schema_version == LATEST
    assert store.seats.player("nb1", "ada")["generation"] == 0 and store.seats.player(
        "nb1", "ada")["pw_hash"] == "scrypt$x"
    assert store.selfservice.open_game("nb1") is None and store.selfservice.observers_of("nb1") == []
    store.close()


def test_a_step_14_database_keeps_its_begun_fuzzy_borders_games_at_empty_turns_none(store_target):
    """Schema step 15: a Fuzzy Borders game with a state keeps the rules it began with
    (no FB8); a game not begun yet, and other kinds, are left as they were."""
    path = store_target
    db = at_step(path, 14)
    games = [("fb1", "fuzzy-borders", '{"side": "5"}', "active"),
             ("fb2", "fuzzy-borders", "{}", "finished"),
             ("fb3", "fuzzy-borders", '{"empty_turns": "2"}', "active"),  # given by hand: kept
             ("fb4", "fuzzy-borders", "{}", "open"),  # no state yet
             ("nb1", "neighbors", "{}", "active")]
    for game_id, kind, options, status in games:
        db.execute("INSERT INTO games (id, kind, seed, options, status, created, updated) "
                   "VALUES (:id, :kind, 1, :options, :status, 0, 0)",
                   {"id": game_id, "kind": kind, "options": options, "status": status})
        if status != "open":
            db.execute("INSERT INTO states (game_id, seq, turn, state, created) VALUES (:id, 0, 1, '{}', 0)",
                       {"id": game_id})
    done_at_step(db, 14)
    store = Store(path)
    try:
        assert store.schema_version == LATEST
        options = {r["id"]: json.loads(r["options"]) for r in store.all("SELECT id, options FROM games")}
        assert options == {"fb1": {"side": "5", "empty_turns": "none"}, "fb2": {"empty_turns": "none"},
                           "fb3": {"empty_turns": "2"}, "fb4": {}, "nb1": {}}
    finally:
        store.close()
