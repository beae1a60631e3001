"""gm backup during a write, gm restore into a fresh store, every game verified there; on both back ends."""

from __future__ import annotations

import os
import sqlite3

import pytest
from typer.testing import CliRunner

from games import registry
from gm.cli import app
from gm.core.config import Config
from gm.service.engine import Engine
from gm.store import Store
from gm.store.copy import copy_rows
from support import BACKENDS, Clock, play_game

runner = CliRunner()


def gm(config_file, *args):
    return runner.invoke(app, ["--config", str(config_file), *map(str, args)])


def config_file(tmp_path, name: str, store: str | None = None):
    """A gm.yaml whose store is ``store`` (a postgresql:// URL), else a SQLite file in its own data folder."""
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"data_dir: {tmp_path / name}\naddress: gm@localhost\n" + (f"store: {store}\n" if store else ""))
    return path


def rows(store: Store) -> dict[str, list[tuple]]:
    return {table: sorted((tuple(r) for r in store.all(f"SELECT * FROM {table}")), key=repr)
            for table in store.table_names()}


def fresh_target(request, backend: str) -> str | None:
    """Where a store of this back end goes: a new PostgreSQL schema, or None (the config's SQLite file)."""
    return request.getfixturevalue("pg_server").fresh_url() if backend == "postgresql" else None


@pytest.fixture(params=BACKENDS)
def live(request, tmp_path):
    """A gm.yaml and its store, on each back end, holding a game of every kind in mid-play."""
    backend = request.param
    target = fresh_target(request, backend)
    path = config_file(tmp_path, "live", target)
    played = Config(data_dir=tmp_path / "played", address="gm@localhost")
    engine = Engine(Store(played.database), played, clock=Clock())
    for n, kind in enumerate(registry.available()):
        play_game(engine, kind, f"g{n}", seed=n, max_steps=6)
    database = Config(data_dir=tmp_path / "live", store=target).database
    store = Store(database)
    copy_rows(engine.store, store)
    engine.close()
    yield path, store, backend
    store.close()


def test_a_backup_taken_during_a_write_restores_and_verifies(live, tmp_path, request):
    path, store, backend = live
    saved = tmp_path / "saved.sqlite"
    other = Store(store.path)  # the daemon's connection, in the middle of a write
    with other.write():
        other.history.log("g0", 1, "gm", "not yet committed", now=1.0)
        made = gm(path, "backup", saved)
    assert made.exit_code == 0, made.output
    games = len(registry.available())
    assert f"{games} games" in made.output
    assert os.stat(saved).st_mode & 0o077 == 0  # it holds password hashes
    other.close()

    target = fresh_target(request, backend)
    fresh = config_file(tmp_path, "fresh", target)
    back = gm(fresh, "restore", saved)
    assert back.exit_code == 0, back.output
    assert f"{games} of {games} games verified in the destination" in back.output
    restored = Store(Config(data_dir=tmp_path / "fresh", store=target).database)
    expected = rows(store)
    expected["history"] = [r for r in expected["history"] if "not yet committed" not in r]
    assert rows(restored) == expected  # the moment of the backup: without the write in progress
    assert all(gm(fresh, "verify", f"g{n}").exit_code == 0 for n in range(games))
    restored.close()


def test_restore_replaces_a_store_with_games_only_with_force(live, tmp_path):
    path, store, _ = live
    saved = tmp_path / "saved.sqlite"
    assert gm(path, "backup", saved).exit_code == 0
    before = rows(store)
    with store.write():
        store.history.log("g0", 1, "gm", "after the backup", now=2.0)
    refused = gm(path, "restore", saved)
    assert refused.exit_code == 1
    assert "only with --force" in refused.output
    assert any("after the backup" in r for r in rows(store)["history"])
    forced = gm(path, "restore", "--force", saved)
    assert forced.exit_code == 0, forced.output
    assert rows(store) == before


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_file_that_is_not_a_backup_is_refused(tmp_path, backend, request):
    path = config_file(tmp_path, "gm", fresh_target(request, backend))
    text = tmp_path / "notes.txt"
    text.write_text("not a database at all, just some words to fill a page " * 40)
    result = gm(path, "restore", text)
    assert result.exit_code == 1
    assert "is not a gm backup" in result.output
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    assert "is not a gm backup" in gm(path, "restore", other).output
    assert "no backup at" in gm(path, "restore", tmp_path / "missing.sqlite").output


def test_a_backup_never_overwrites_the_store_itself(tmp_path):
    """SQLite's alone: a backup is a file, and only a SQLite store is one (PostgreSQL's is a URL)."""
    path = config_file(tmp_path, "gm")
    database = Config(data_dir=tmp_path / "gm").database
    assert gm(path, "new", "neighbors", "--id", "g0", "--player", "ada=ada@example.org",
              "--player", "bob=bob@example.org").exit_code == 0
    result = gm(path, "backup", database)
    assert result.exit_code == 1
    assert "is the store itself" in result.output
    store = Store(database)
    assert [row["id"] for row in store.games.every_game()] == ["g0"]
    store.close()
