"""A store made by the gm of each earlier schema step (make_fixture_stores.py, data/store_stepNN.sqlite)
opens, migrates, verifies every game (old wording is a note, never a failure), and `gm store copy`
of it to a fresh SQLite file and to PostgreSQL succeeds, the copy verified there."""

from __future__ import annotations

import shutil
import sqlite3

import pytest
from typer.testing import CliRunner

from gm.cli import app
from gm.store import Store
from gm.store.schema import STEPS
from make_fixture_stores import REVISIONS, SHARED, path_for

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


def test_an_old_store_migrates_and_gm_verify_passes_on_every_game(old_store, tmp_path):
    path, games = old_store
    result = gm("--config", tmp_path / "gm.yaml", "verify")
    assert result.exit_code == 0, result.output
    assert f"{len(games)} of {len(games)} games verified" in result.output
    for gid in games:
        assert f"game {gid}:" in result.output
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
