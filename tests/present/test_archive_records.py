"""The archive publishes a finished game's record beside its page (<id>.json, <id>.txt) and links
both; a running game has none, and a game that runs again (a rollback) loses them."""

from __future__ import annotations

import json

import jsonschema

from gm.present import archive as site
from gm.present import recordtext
from gm.runtime.livearchive import LiveArchive
from gm.service.play import positions
from gm.service.records import audit
from support import PLAYERS


def play(engine, game_id: str, moves: int | None = None) -> None:
    """Moves of ``game_id`` by gm order: ``moves`` of them, or to the end."""
    for _ in range(moves or 5000):
        view = engine.load(game_id)
        if view.rules.is_over(view.state):
            return
        (mover,) = view.rules.to_move(view.state)
        assert engine.gm_order(game_id, mover, view.rules.legal_orders(view.state, mover)[0]).outcome == "applied"
    assert moves, "the game did not end"


def games(engine) -> None:
    engine.create_game("neighbors", "nb1", PLAYERS, seed=4)
    play(engine, "nb1")
    engine.create_game("neighbors", "nb2", PLAYERS, seed=5)
    play(engine, "nb2", 3)


def build(engine, directory):
    data = [audit.archive_data(engine, gid) for gid in ("nb1", "nb2")]
    site.build(directory, data, engine.clock(), "example.org")


def check_published(directory, game_id: str) -> None:
    record = json.loads((directory / f"{game_id}.json").read_text(encoding="utf-8"))
    jsonschema.validate(record, recordtext.schema())
    assert record["view"] == "public" and record["result"]["over"]
    assert (directory / f"{game_id}.txt").read_text(encoding="utf-8") == recordtext.render(record)
    page = (directory / site.page_name(game_id)).read_text(encoding="utf-8")
    assert f'href="{game_id}.json"' in page and f'href="{game_id}.txt"' in page


def test_a_finished_game_page_links_its_record_and_a_running_game_has_none(engine, tmp_path):
    games(engine)
    build(engine, tmp_path)
    check_published(tmp_path, "nb1")
    assert not (tmp_path / "nb2.json").exists() and not (tmp_path / "nb2.txt").exists()
    page = (tmp_path / site.page_name("nb2")).read_text(encoding="utf-8")
    assert "nb2.json" not in page and "nb2.txt" not in page


def test_a_game_rolled_back_to_running_loses_its_record_files(engine, tmp_path):
    games(engine)
    build(engine, tmp_path)
    positions.rollback(engine, "nb1", 2, why="a mistake")
    build(engine, tmp_path)
    assert not (tmp_path / "nb1.json").exists() and not (tmp_path / "nb1.txt").exists()


def test_the_live_archive_writes_the_record_when_the_game_ends(engine, tmp_path):
    engine.create_game("neighbors", "nb1", PLAYERS, seed=4)
    play(engine, "nb1", 2)
    live = LiveArchive(engine, tmp_path)
    live.refresh()
    assert (tmp_path / site.page_name("nb1")).exists() and not (tmp_path / "nb1.json").exists()
    play(engine, "nb1")
    assert "nb1" in live.refresh()
    check_published(tmp_path, "nb1")
    assert all("record" not in entry for entry in live.entries.values())
