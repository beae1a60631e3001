"""A store made by the gm of each earlier schema step (make_fixture_stores.py, data/store_stepNN.sqlite)
opens, migrates, verifies every game (old wording is a note, never a failure), on SQLite and, its
rows put on PostgreSQL at the same step (old_stores.onto_postgresql), on PostgreSQL; the latest,
data/store_step22.sqlite, is the store of today's release.  `gm store copy` of each to a fresh
SQLite file and to PostgreSQL succeeds, the copy verified there."""

from __future__ import annotations

import random
import shutil
import sqlite3

import psycopg
import pytest
from typer.testing import CliRunner

from gm.cli import app
from gm.core.config import Config
from gm.service.engine import Engine
from gm.service.records import audit
from gm.store import Store
from gm.store.postgres import VERSION_TABLE
from gm.store.schema import STEPS
from make_fixture_stores import REVISIONS, SHARED, path_for
from old_stores import onto_postgresql
from support import BACKENDS, Clock

runner = CliRunner()


def gm(*args) -> object:
    return runner.invoke(app, [*map(str, args)])


@pytest.fixture(params=sorted(REVISIONS), ids=lambda step: f"step{step:02d}")
def old_store(request, tmp_path):
    step = request.param
    made = path_for(step)
    with sqlite3.connect(made) as db:  # the file is what that gm left: its step, its games
        assert db.execute("PRAGMA user_version").fetchone()[0] == step
        games = [row[0] for row in db.execute("SELECT id FROM games ORDER BY id")]
    assert len(games) >= 4
    path = tmp_path / made.name
    shutil.copyfile(made, path)
    (tmp_path / "gm.yaml").write_text(f"data_dir: {tmp_path / 'data'}\nstore: {path}\naddress: gm@example.test\n")
    return path, games


def test_every_step_that_shipped_has_its_store():
    # every step before this gm's latest, made by the gm whose latest it was (or sharing the next's)
    assert set(range(1, STEPS[-1].number)) <= set(REVISIONS) | SHARED
    assert max(REVISIONS) < STEPS[-1].number
    for step in REVISIONS:
        assert path_for(step).stat().st_size < 256 * 1024


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_old_store_migrates_and_gm_verify_passes_on_every_game(old_store, tmp_path, backend, request):
    path, games = old_store
    config = tmp_path / "gm.yaml"
    if backend == "postgresql":
        url = request.getfixturevalue("pg_url")
        step = int(path.stem.removeprefix("store_step"))
        assert onto_postgresql(path, url) == step
        with psycopg.connect(url) as db:  # at the step that gm left it, until gm verify opens it
            assert db.execute(f"SELECT version FROM {VERSION_TABLE}").fetchall() == [(step,)]
        config = tmp_path / "gm-pg.yaml"
        config.write_text(f"data_dir: {tmp_path / 'data'}\nstore: '{url}'\naddress: gm@example.test\n")
    result = gm("--config", config, "verify")
    assert result.exit_code == 0, result.output
    assert f"{len(games)} of {len(games)} games verified" in result.output
    for gid in games:
        assert f"game {gid}:" in result.output
    if backend == "postgresql":
        store = Store(url)
        assert store.one("SELECT COUNT(*) AS n FROM games")["n"] == len(games)
        assert [tuple(r) for r in store.db.raw(f"SELECT version FROM {VERSION_TABLE}")] == [(STEPS[-1].number,)]
        store.close()
        with sqlite3.connect(path) as db:  # the file itself was only read
            assert db.execute("PRAGMA user_version").fetchone()[0] < STEPS[-1].number
        return
    store = Store(str(path))
    assert store.one("SELECT COUNT(*) AS n FROM games")["n"] == len(games)
    store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == STEPS[-1].number


def test_gm_store_copy_of_an_old_store_to_sqlite_and_postgresql_succeeds(old_store, tmp_path, pg_url):
    path, games = old_store
    for destination in (tmp_path / "copy.sqlite", pg_url):
        result = gm("store", "copy", path, destination)
        assert result.exit_code == 0, result.output
        assert f"{len(games)} of {len(games)} games verified in the destination" in result.output


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_store_of_todays_release_plays_on_after_migrating(tmp_path, backend, request):
    """The latest fixture store (today's release) opened on each back end: every game takes a legal
    order from a seat to move, and still verifies after it."""
    made = path_for(max(REVISIONS))
    path = tmp_path / made.name
    shutil.copyfile(made, path)
    if backend == "postgresql":
        url = request.getfixturevalue("pg_url")
        onto_postgresql(path, url)
        config = Config(data_dir=tmp_path / "data", address="gm@example.test", store=url)
    else:
        config = Config(data_dir=tmp_path / "data", database=path, address="gm@example.test")
    engine = Engine(Store(config.database), config, clock=Clock(2_000_000_000.0))
    try:
        assert engine.store.schema_version == STEPS[-1].number
        games = [row["id"] for row in engine.store.games.every_game()]
        assert len(games) >= 4
        outcomes = []
        for gid in games:
            view = engine.load(gid)
            mover = view.rules.to_move(view.state)[0]
            text = view.rules.random_order(view.state, mover, random.Random(gid))  # some list none
            outcome = engine.gm_order(gid, mover, text)
            assert outcome.outcome in {"applied", "sealed"}, (gid, outcome)
            outcomes.append(outcome.outcome)
            if outcome.outcome == "applied":
                assert engine.load(gid).seq == view.seq + 1, gid
            result = audit.verify(engine, gid)
            assert result.ok, result.text()
        assert outcomes.count("applied") >= 3, outcomes  # the games taking turns in order
    finally:
        engine.close()
        engine.store.close()
