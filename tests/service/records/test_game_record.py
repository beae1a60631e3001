"""Game records (gm.service.records.gamerecord): every kind played at random through the service
exports a record that validates against its JSON Schema and replays, through the rules alone,
to every position it names; what a seat may not see is not in its record."""

from __future__ import annotations

import json

import jsonschema
import pytest

from games import registry
from gm.present import recordtext
from gm.service.records import gamerecord
from gm.service.table import games
from support import play_game

KINDS = registry.available()


def valid(record: dict) -> dict:
    """The record, checked against the schema (and JSON-clean: it survives a dump and a load)."""
    jsonschema.validate(record, recordtext.schema(), cls=jsonschema.Draft202012Validator)
    assert json.loads(json.dumps(record)) == record
    return record


def replayed(record: dict) -> int:
    """Replay the record through the rules from its seed; every position it names must be the
    replay's.  Returns how many positions were checked."""
    game = record["game"]
    rules = registry.get(game["kind"])
    names = [p["name"] for p in sorted(record["players"], key=lambda p: p["seat"])]
    state = rules.start(rules.setup(names, game["options"], game["seed"]), game["created"])
    assert gamerecord.position_hash(rules, state) == record["start_position"]
    states, checked = {0: state}, 0
    for move in record["moves"]:
        state = next_state(rules, states, state, move)
        states[move["seq"]] = state
        if move["position"] is not None:
            assert gamerecord.position_hash(rules, state) == move["position"], move
            checked += 1
    return checked


def next_state(rules, states: dict, state, move: dict):
    """The state a recorded move makes from ``state`` (the rules' own calls, as gm verify's)."""
    action, at = move["action"], move["at"]
    if action == "order":
        return rules.submit(state, move["player"], rules.parse_order(state, move["player"], move["text"]), at).state
    if action == "close":
        return rules.close_turn(state, at).state
    if action == "draw":
        return rules.end_drawn(state, at).state
    if action == "takeback":
        return games.restored_state(rules, states[move["seq"] - 2], state, move["player"], at)
    assert action == "set"
    return rules.load(move["state"])


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_exports_validates_and_replays(kind, engine):
    names = play_game(engine, kind, "g1", seed=11)
    record = valid(gamerecord.build(engine, "g1"))
    assert record["view"] == "public" and record["result"]["over"]
    assert [p["name"] for p in record["players"]] == names
    assert replayed(record) == len([m for m in record["moves"] if m["position"]])
    full = valid(gamerecord.build(engine, "g1", gm=True))
    assert replayed(full) == len(full["moves"])
    assert "@example.org" not in json.dumps(full)  # names only, never an address
    text = recordtext.render(record)
    assert text.startswith('[Game "g1"]\n')
