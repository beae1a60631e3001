"""The game record's text form (gm.present.recordtext) and its schema file: PGN-like headers,
moves numbered by turn, comments for what is not an order, 78 columns, and Proximity's trail
tables whole (RULINGS PX10: one line per row, struck rows shown and marked)."""

from __future__ import annotations

import re

import jsonschema

from gm.present import recordtext
from gm.service.table import gamerecord
from support import play_game

HASH = "0" * 64


def record(moves: list[dict], over: bool = True, **result) -> dict:
    """A small record as gamerecord.build makes them (two players of Neighbors)."""
    return {
        "format": "gm-game-record", "version": 1,
        "game": {"id": "nb7", "kind": "neighbors", "title": "Neighbors", "options": {"neighbors_rule": "true"},
                 "seed": 5, "created": 1_800_000_000.0, "status": "finished" if over else "active",
                 "gm_version": "0.2.0", "rated": False},
        "players": [{"seat": 1, "name": "bob"}, {"seat": 0, "name": "ada"}],
        "moves": moves, "start_position": HASH,
        "result": {"over": over, "winners": ["ada"] if over else [], "drawn": False, "reason": None, **result},
        "standings": [{"name": "ada", "score": 3, "rank": 1 if over else None, "left": False},
                      {"name": "bob", "score": 1, "rank": 2 if over else None, "left": False}],
        "trail": None, "view": "public",
    }


def move(seq: int, turn: int, action: str, player: str | None, text: str, origin: str = "mail", **extra) -> dict:
    return {"seq": seq, "turn": turn, "at": 1_800_000_000.0 + seq, "action": action, "player": player,
            "text": text, "origin": origin, "position": HASH, **extra}


def test_the_schema_is_package_data_and_a_valid_draft_2020_12_schema():
    schema = recordtext.schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    example = record([move(1, 1, "order", "ada", "b4xd4")])
    jsonschema.validate(example, schema, cls=jsonschema.Draft202012Validator)
    address = record([move(1, 1, "order", "ada", "b4xd4")])
    address["players"][0]["name"] = "bob@example.org"
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(address))
    assert errors  # a record names players, never an address


def test_headers_moves_by_turn_comments_result_and_standings():
    moves = [move(1, 1, "order", "ada", "b4xd4"), move(2, 1, "order", "bob", "c3xd4", origin="line"),
             move(3, 2, "takeback", "bob", "c3xd4"), move(4, 2, "order", "bob", "a1xb2", origin="gm"),
             move(5, 2, "set", None, "cy left", origin="gm", state={}, set={"kind": "edit", "from": 4}),
             move(6, 3, "draw", None, "")]
    text = recordtext.render(record(moves))
    head, body, end = text.split("\n\n")
    assert head.splitlines() == ['[Game "nb7"]', '[Kind "neighbors"]', '[Seed "5"]',
                                 '[Options "neighbors_rule=true"]', '[Players "ada, bob"]',
                                 '[Result "ada wins"]', '[Date "2027.01.15"]', '[Status "finished"]',
                                 '[View "public"]']
    assert body.splitlines() == ["1.   ada: b4xd4", "     bob: c3xd4 {line}", "2.   {bob takes back c3xd4}",
                                 "     bob: a1xb2 {gm}", "     {the GM set the position: cy left}",
                                 "3.   {drawn by agreement}"]
    assert end.splitlines()[0] == "Result: ada wins."
    assert re.match(r"  1\. +ada +3$", end.splitlines()[2])


def test_a_running_game_a_withheld_order_and_long_lines_fit_78_columns():
    long = "BID 9: " + " ".join(["red/blue", "green/black"] * 20)
    moves = [move(1, 1, "order", "ada", long), move(2, 1, "order", "bob", "", withheld=True, position=None,
                                                        public=["bob bids 3. Bidding closes in 24 hours."])]
    rec = record(moves, over=False)
    rec["players"][0]["name"] = "b" * 60
    text = recordtext.render(rec)
    assert '[Result "*"]' in text and "The game is under way." in text and "Standings so far:" in text
    assert "     bob: {sealed: bob bids 3}" in text.splitlines()
    assert all(len(line) <= 78 for line in text.splitlines())
    assert " ".join(long.split()) in " ".join(text.split())  # wrapped, nothing lost


def test_proximity_records_hold_the_full_trail_tables_one_line_per_row(engine):
    play_game(engine, "proximity", "px1", seed=8)  # 171 moves, 60 rows struck
    state = engine.load("px1").state
    rows = sum(len(side.rows) for side in state.sides)
    struck = sum(row.struck for side in state.sides for row in side.rows)
    assert struck, "the game needs promotions (struck rows)"
    rec = gamerecord.build(engine.store, "px1")
    text = recordtext.render(rec)
    row_lines = [line for line in text.splitlines() if re.match(r"^ *\d+ [a-z]\d+ ", line)]
    assert len(row_lines) == rows  # PX10: every row, none folded away
    assert sum(bool(re.search(r" struck( |$)", line)) for line in row_lines) == struck
    assert rec["trail"] and all(line.rstrip() in text for line in rec["trail"])
    assert all(len(line) <= 78 for line in text.splitlines())
