"""Upgrades keep RULINGS G1: a store made by an earlier schema version, its reports worded by
older templates, opens, migrates and verifies (notes, no differences); `gm store copy` of it
succeeds; a report whose position, score, result or turn differs from the replay still fails.
On each back end: the step-18 store on PostgreSQL is its rows put there at step 18
(old_stores.onto_postgresql)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gm.cli import app
from gm.core.config import Config
from gm.core.version import gm_version
from gm.service.context import Context
from gm.service.engine import Engine
from gm.service.records import audit
from gm.store import Store
from gm.store.packing import pack_text
from old_stores import onto_postgresql
from support import BACKENDS, Clock, play_game

ROOT = Path(__file__).parent.parent.parent
V18 = Path(__file__).parent / "data" / "store_v18.sqlite"  # written by store_v18.py at schema step 18
V18_GAMES = ["nb1", "fb1", "ph1", "pp1"]
runner = CliRunner()


def gm(*args) -> object:
    return runner.invoke(app, [*map(str, args)])


@pytest.fixture(params=BACKENDS)
def v18(tmp_path, request) -> Path | str:
    """The step-18 store: a copy of the file, or its rows in a PostgreSQL store at step 18."""
    path = tmp_path / "v18.sqlite"
    shutil.copyfile(V18, path)
    if request.param == "postgresql":
        url = request.getfixturevalue("pg_url")
        assert onto_postgresql(path, url) == 18
        return url
    return path


def verify_all(path: Path | str, tmp_path: Path) -> dict[str, audit.VerifyReport]:
    store = Store(str(path))
    ctx = Context(store, Config(data_dir=tmp_path / "data", address="gm@example.test"))
    try:
        return {gid: audit.verify(ctx, gid) for gid in V18_GAMES}
    finally:
        ctx.close()
        store.close()


def test_gm_version_is_the_package_version_and_the_changelog_names_it():
    result = gm("--version")
    assert result.exit_code == 0
    assert result.output == f"gm {gm_version()}\n"
    assert gm_version()[0].isdigit()
    assert f"## {gm_version()} " in (ROOT / "docs" / "CHANGELOG.md").read_text()


def test_a_step_18_store_with_old_wording_migrates_and_verifies_with_notes(v18, tmp_path):
    results = verify_all(v18, tmp_path)
    for gid, result in results.items():
        assert result.ok, result.text()
    assert sum(len(r.notes) for r in results.values()) >= 40  # the old wording is told, not failed
    assert "is worded as a gm from before report versions wrote it" in results["nb1"].text()
    assert "OK: the replay matches" in results["nb1"].text()
    store = Store(str(v18))
    assert store.one("SELECT COUNT(*) AS n FROM reports WHERE digest IS NOT NULL")["n"] == 0
    store.close()


def test_gm_store_copy_of_a_step_18_store_succeeds(v18, tmp_path):
    result = gm("store", "copy", v18, tmp_path / "copy.sqlite")
    assert result.exit_code == 0, result.output
    assert "4 of 4 games verified in the destination" in result.output
    assert "note(s):" in result.output


def test_an_old_report_of_another_turn_or_a_tampered_state_still_fails(v18, tmp_path):
    store = Store(str(v18))
    with store.write():
        rid = store.one("SELECT MIN(id) AS n FROM reports WHERE game_id = 'ph1' AND kind = 'report'")["n"]
        store.db.execute("UPDATE reports SET turn = turn + 1 WHERE id = :id", {"id": rid})
        row = store.one("SELECT state, state_packing FROM states WHERE game_id = 'nb1' AND seq = 2")
        data = store.turns.state_data(row)
        data["board"] = ("." if data["board"][0] != "." else "F") + data["board"][1:]
        state, packing = pack_text(json.dumps(data))
        store.db.execute("UPDATE states SET state = :state, state_packing = :packing "
                         "WHERE game_id = 'nb1' AND seq = 2", {"state": state, "packing": packing})
    store.close()
    results = verify_all(v18, tmp_path)
    assert results["fb1"].ok and results["pp1"].ok
    assert any(f"report #{rid}" in d and "the replay's" in d for d in results["ph1"].differences)
    assert any("shows state 2, which differs from the replay" in d for d in results["nb1"].differences)


@pytest.fixture(params=BACKENDS)
def played(tmp_path, request):
    url = request.getfixturevalue("pg_url") if request.param == "postgresql" else None
    config = Config(data_dir=tmp_path / "data", address="gm@example.test", store=url)
    engine = Engine(Store(config.database), config, clock=Clock())
    play_game(engine, "neighbors", "nb1", seed=4, max_steps=8)
    yield engine
    engine.close()


def last_report(engine) -> dict:
    return engine.store.reports.reports_of("nb1", kind="report")[-1]


def test_each_report_records_its_version_and_what_it_shows(played):
    row = last_report(played)
    assert row["gm_version"] == gm_version()
    shown = json.loads(row["digest"])
    view = played.load("nb1")
    assert shown["turn"] == row["turn"] == view.turn
    assert shown["scores"] == {k: v for k, v in view.rules.scores(view.state).items()}
    assert len(shown["position"]) == 32 and shown["result"] is None
    assert audit.verify(played, "nb1").ok


def test_wording_from_another_version_is_a_note_but_the_same_version_must_match(played):
    row = last_report(played)
    with played.store.write():
        body, packing = pack_text(row["body"].replace("Turn", "TURN") + "Board as of old\n")
        played.store.db.execute("UPDATE reports SET body = :body, body_packing = :packing, gm_version = '0.0.9' "
                                "WHERE id = :id", {"body": body, "packing": packing, "id": row["id"]})
    result = audit.verify(played, "nb1")
    assert result.ok, result.text()
    assert [n for n in result.notes if f"report #{row['id']}" in n and "gm 0.0.9" in n]
    with played.store.write():
        played.store.db.execute("UPDATE reports SET gm_version = :version WHERE id = :id",
                                {"version": gm_version(), "id": row["id"]})
    result = audit.verify(played, "nb1")
    assert [d for d in result.differences if f"report #{row['id']}" in d and "differs from the replay" in d]


@pytest.mark.parametrize("field,value", [("scores", {"ada": 999}), ("position", "0" * 32),
                                         ("turn", 99), ("result", ["ada"])])
def test_a_report_whose_digest_shows_another_position_score_result_or_turn_fails(played, field, value):
    row = last_report(played)
    shown = {**json.loads(row["digest"]), field: value}
    with played.store.write():  # worded by another version too: the wording is no excuse
        played.store.db.execute("UPDATE reports SET digest = :digest, gm_version = '0.0.9' WHERE id = :id",
                                {"digest": json.dumps(shown), "id": row["id"]})
    result = audit.verify(played, "nb1")
    assert not result.ok
    assert [d for d in result.differences if f"report #{row['id']}" in d and f"shows {field} " in d]


def test_a_store_from_before_migrations_verifies_and_copies(tmp_path):
    """The schema-0 store of store_legacy.py (its report in the words of that gm) too.
    SQLite's alone: schema 0 (before migrations) predates the PostgreSQL back end (step 4)."""
    import store_legacy

    path = tmp_path / "v0.sqlite"
    store_legacy.build(path)
    result = gm("store", "copy", path, tmp_path / "copy.sqlite")
    assert result.exit_code == 0, result.output
    assert "1 of 1 games verified in the destination" in result.output
    assert f"game {store_legacy.GAME}: replayed 2 states" in result.output
