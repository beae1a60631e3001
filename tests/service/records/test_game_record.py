"""Game records (gm.service.table.gamerecord): every kind played at random through the service
exports a record that validates against its JSON Schema and replays, through the rules alone,
to every position it names; what a seat may not see is not in its record."""

from __future__ import annotations

import json
import random
import re

import jsonschema
import pytest

from games import registry
from gm.core.model import ServiceError
from gm.present import recordtext
from gm.service.table import gamerecord
from gm.service.table import games
from support import EXAMPLE_LAYOUT, PLAYERS, PLAYERS3, ahead, mark_all_sent, order_mail, play_game

KINDS = registry.available()


def valid(record: dict) -> dict:
    """The record, checked against the schema (and JSON-clean: it survives a dump and a load)."""
    jsonschema.validate(record, recordtext.schema(), cls=jsonschema.Draft202012Validator)
    assert json.loads(json.dumps(record)) == record
    return record


def replayed(record: dict) -> int:
    """Replay the record through the rules from its seed; every position it names must be the
    replay's.  Returns how many positions were checked (up to a GM's "set" whose state is
    withheld, from which nothing can be replayed)."""
    game = record["game"]
    rules = registry.get(game["kind"])
    names = [p["name"] for p in sorted(record["players"], key=lambda p: p["seat"])]
    state = rules.start(rules.setup(names, game["options"], game["seed"]), game["created"])
    assert gamerecord.position_hash(rules, state) == record["start_position"]
    states, checked = {0: state}, 0
    for move in record["moves"]:
        if move["action"] == "set" and move["state"] is None:
            return checked  # a GM's position withheld from a seat while the game runs: no further
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
    record = valid(gamerecord.build(engine.store, "g1"))
    assert record["view"] == "public" and record["result"]["over"]
    assert [p["name"] for p in record["players"]] == names
    assert replayed(record) == len([m for m in record["moves"] if m["position"]])
    full = valid(gamerecord.build(engine.store, "g1", gm=True))
    assert replayed(full) == len(full["moves"])
    assert "@example.org" not in json.dumps(full)  # names only, never an address
    text = recordtext.render(record)
    assert text.startswith('[Game "g1"]\n')
    assert all(len(line) <= 78 for line in text.splitlines() if line not in (record["trail"] or []))
    if kind == "pivot-pawns":
        only_tried_solutions(engine, record, full)


def only_tried_solutions(engine, public: dict, full: dict) -> None:
    """A finished Pivot Pawns game's public record shows the solutions tried when their rounds
    closed and no other (a lower bid won first, a bid replaced)."""
    from games.pivot_pawns.orders import solution_text

    history = engine.load("g1").state.history
    tried = {(r.round, a.player, f"BID {a.pivots}: {solution_text(a.solution)}") for r in history for a in r.attempts}
    shown = {m["text"] for m in public["moves"] if not m.get("withheld")}
    withheld = 0
    for mine, whole in zip(public["moves"], full["moves"]):
        assert mine["seq"] == whole["seq"]
        if ":" not in whole["text"]:
            continue  # PASS, BID 0: nothing sealed
        if mine.get("withheld"):
            withheld += 1
            assert mine["position"] is None
            assert whole["text"] not in shown or (whole["turn"], whole["player"], whole["text"]) not in tried
        else:
            assert (whole["turn"], whole["player"], whole["text"]) in tried
    assert withheld  # the random game has some


# --- draws, concessions, takebacks, conditional orders, clocks ------------------------------------
def send(engine, name: str, text: str, secrets: dict, game_id: str = "nb1"):
    return engine.ingest(order_mail(f"{name}@example.org", text, game_id=game_id, password=secrets[name]))


def move(engine, game_id: str = "nb1", index: int = 0) -> str:
    """A legal order of the player to move (the ``index``-th the rules list)."""
    view = engine.load(game_id)
    legal = view.rules.legal_orders(view.state, view.rules.to_move(view.state)[0])
    return legal[index % len(legal)]


def checked(engine, game_id: str = "nb1", viewer: str | None = None, gm: bool = False) -> dict:
    """The record, valid, replaying to every position it names, and its text within 78 columns."""
    record = valid(gamerecord.build(engine.store, game_id, viewer, gm=gm))
    replayed(record)
    assert all(len(line) <= 78 for line in recordtext.render(record).splitlines())
    return record


def actions(record: dict) -> list[str]:
    return [m["action"] for m in record["moves"]]


def test_a_draw_by_agreement_is_a_draw_move_and_a_drawn_result(engine):
    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=5, options={"layout": EXAMPLE_LAYOUT})
    send(engine, "ada", f"{move(engine)}\nDRAW", secrets)
    send(engine, "bob", "DRAW", secrets)
    record = checked(engine)
    assert actions(record)[-1] == "draw" and record["result"]["drawn"] and record["result"]["over"]
    assert "{drawn by agreement}" in recordtext.render(record)
    assert '[Result "drawn"]' in recordtext.render(record)


def test_a_resignation_is_a_set_move_and_the_standings_mark_who_left(engine):
    secrets = engine.create_game("neighbors", "nb1", PLAYERS3, seed=4)
    send(engine, "ada", move(engine), secrets)
    send(engine, "bob", "RESIGN", secrets)
    running = checked(engine, viewer="ada")
    (gone,) = [m for m in running["moves"] if m["action"] == "set"]
    assert gone["text"] == "bob left" and gone["state"] is None  # no state of a set move while it runs
    assert checked(engine, gm=True)["moves"][-1]["state"] is not None
    send(engine, "cy", "RESIGN", secrets)
    record = checked(engine)
    assert record["result"]["over"] and record["result"]["winners"] == ["ada"]
    assert all(m["state"] is not None for m in record["moves"] if m["action"] == "set")
    assert [(s["name"], s["rank"], s["left"]) for s in record["standings"]] == \
        [("ada", 1, False), ("bob", None, True), ("cy", None, True)]
    assert "(left)" in recordtext.render(record)
    seat = checked(engine, viewer="BOB")  # a finished game: a seat's record is the public one
    assert seat["view"] == "seat:bob" and {**seat, "view": "public"} == record


def test_a_takeback_is_recorded_and_replays(engine):
    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=5, options={"layout": EXAMPLE_LAYOUT})
    first = move(engine)
    send(engine, "ada", first, secrets)
    send(engine, "ada", "TAKEBACK", secrets)
    send(engine, "bob", "TAKEBACK ACCEPT", secrets)
    send(engine, "ada", move(engine, index=1), secrets)
    record = checked(engine, viewer="bob")
    assert actions(record) == ["order", "takeback", "order"]
    assert record["moves"][1]["player"] == "ada"
    assert "{ada takes back" in recordtext.render(record)


def test_a_rollback_is_a_set_move_from_its_source_and_the_game_replays_on(engine):
    from gm.service.play import positions

    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=5, options={"layout": EXAMPLE_LAYOUT})
    send(engine, "ada", move(engine), secrets)
    send(engine, "bob", move(engine), secrets)
    positions.rollback(engine, "nb1", 2, why="a mail lost")
    send(engine, "bob", move(engine, index=1), secrets)
    record = checked(engine, gm=True)
    assert actions(record) == ["order", "order", "set", "order"]
    back = record["moves"][2]
    assert back["set"] == {"kind": "rollback", "from": 1} and back["position"] == record["moves"][0]["position"]
    assert "{the GM rolled back to turn 2}" in recordtext.render(record)


def test_a_played_conditional_line_is_recorded_and_one_never_played_is_not(engine):
    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=5)
    first = ahead(engine, "nb1", [])[1]
    a1, alt = first[0], first[-1]
    b1 = ahead(engine, "nb1", [a1])[1][0]
    other = ahead(engine, "nb1", [a1, b1])[1][0]
    never = next(t for t in ahead(engine, "nb1", [alt])[1] if t not in (a1, b1, other))
    send(engine, "bob", f"IF {a1} THEN {b1}\nIF {alt} THEN {never}", secrets)
    assert len(engine.store.lines.of_game("nb1")) == 2
    send(engine, "ada", a1, secrets)
    send(engine, "ada", other, secrets)
    record = checked(engine, viewer="ada")
    assert [(m["player"], m["origin"], m["text"]) for m in record["moves"]] == \
        [("ada", "mail", a1), ("bob", "line", b1), ("ada", "mail", other)]
    assert never not in json.dumps(record) and "IF " not in json.dumps(record)
    assert "{line}" in recordtext.render(record)


def test_a_clock_game_records_each_bank_time_given_and_the_loss_on_time(engine, clock):
    from gm.service.play import clocks

    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=5, options={"clock": "1d"})
    mark_all_sent(engine)
    clock.advance(3600)
    send(engine, "ada", move(engine), secrets)
    clocks.give_time(engine, "nb1", "bob", "+2h", why="a train without mail")
    clock.advance(86400 + 2 * 3600 + 1)
    engine.tick()
    record = checked(engine)
    first, gift = record["moves"][:2]
    assert first["clock"] == {"ada": 86400 - 3600, "bob": 86400}
    assert gift["action"] == "set" and gift["set"]["kind"] == "clock" and gift["text"] == "bob +2 hours"
    assert gift["clock"]["bob"] == 86400 + 2 * 3600
    assert record["result"]["over"] and record["result"]["winners"] == ["ada"]
    assert all("clock" in m for m in record["moves"])
    assert "{clock: bob +2 hours}" in recordtext.render(record)


# --- what a seat's record of a running game leaves out ------------------------------------------
def sealed_orders(engine, kind: str, game_id: str) -> dict[str, str]:
    """ada and bob send a random order each, cy none, so the turn stays open: {name: text}."""
    rng = random.Random(0)  # two different orders
    engine.create_game(kind, game_id, PLAYERS3, seed=7)
    sent = {}
    for name in ("ada", "bob"):
        view = engine.load(game_id)
        sent[name] = view.rules.random_order(view.state, name, rng)
        assert engine.gm_order(game_id, name, sent[name]).outcome == "sealed"
    assert engine.load(game_id).turn == 1
    return sent


def test_a_seat_record_of_running_fuzzy_borders_holds_no_other_seat_sealed_claim(engine):
    sent = sealed_orders(engine, "fuzzy-borders", "fb1")
    assert sent["ada"] != sent["bob"]
    with pytest.raises(gamerecord.RunningGameRecord):
        gamerecord.build(engine.store, "fb1")
    for me, other in (("ada", "bob"), ("bob", "ada")):
        record = valid(gamerecord.build(engine.store, "fb1", me))
        assert record["view"] == f"seat:{me}"
        whole = json.dumps(record)
        assert not re.search(rf"\b{re.escape(sent[other])}\b", whole, re.IGNORECASE)
        mine = [m for m in record["moves"] if m["player"] == me]
        assert [m["text"] for m in mine] == [sent[me]]
        theirs = [m for m in record["moves"] if m["player"] == other]
        assert [(m["withheld"], m["text"], m["position"]) for m in theirs] == [(True, "", None)]
        # a hash of a state that holds the other's claim would give it away by trying every cell
        assert [m["position"] for m in record["moves"]] == [record["moves"][0]["position"], None] \
            if me == "ada" else [None, None]
        assert "sealed:" in recordtext.render(record)
    full = valid(gamerecord.build(engine.store, "fb1", gm=True))
    assert [m["text"] for m in full["moves"]] == [sent["ada"], sent["bob"]]
    with pytest.raises(ServiceError, match="no seat called 'zed'"):
        gamerecord.build(engine.store, "fb1", "zed")


def test_a_seat_record_of_running_pivot_pawns_holds_no_other_seat_sealed_solution(engine):
    sent = sealed_orders(engine, "pivot-pawns", "pp1")
    for me, other in (("ada", "bob"), ("bob", "ada")):
        record = valid(gamerecord.build(engine.store, "pp1", me))
        solution = sent[other].partition(":")[2].strip()
        assert solution and solution != sent[me].partition(":")[2].strip()
        assert solution.lower() not in json.dumps(record).lower()
        (theirs,) = [m for m in record["moves"] if m["player"] == other]
        assert theirs["withheld"] and theirs["position"] is None
        assert any("bids" in line for line in theirs["public"])  # the number is announced to all
        (mine,) = [m for m in record["moves"] if m["player"] == me]
        assert mine["text"] == sent[me]


def test_a_finished_pivot_pawns_record_holds_no_untried_solution_and_still_replays(engine):
    secrets = engine.create_game("pivot-pawns", "pp1", PLAYERS3, seed=7)
    first, second = "BID 5: blue/yellow yellow/blue black/green", "BID 4: green/black black/red"
    assert engine.gm_order("pp1", "ada", first).outcome == "sealed"
    assert engine.gm_order("pp1", "ada", second).outcome == "sealed"  # lower: the first is never tried
    send(engine, "bob", "RESIGN", secrets, "pp1")  # a GM-made state holding ada's sealed bid
    send(engine, "cy", "RESIGN", secrets, "pp1")  # ada is left alone: over before the round closes
    record = checked(engine, "pp1")
    assert record["result"]["over"] and record["result"]["winners"] == ["ada"]
    whole = json.dumps(record)
    assert "blue/yellow" not in whole and "green/black" not in whole
    assert actions(record) == ["order", "order", "set", "set"]
    assert all(m["position"] is None for m in record["moves"])
    assert [m["text"] for m in record["moves"][:2]] == ["BID 5: red/blue", "BID 4: red/blue"]
    assert record["moves"][2]["state"]["bids"]["ada"]["solution"] == "red/blue"
    full = checked(engine, "pp1", gm=True)
    assert [m["text"] for m in full["moves"][:2]] == [first, second]


def test_the_position_hash_is_sha256_of_the_canonical_json_of_the_dumped_state():
    import hashlib

    rules = registry.get("neighbors")
    state = rules.setup(["zoë", "bob"], {}, 5)
    canonical = json.dumps(rules.dump(state), sort_keys=True, separators=(",", ":"))
    assert "\\u00eb" in canonical  # non-ASCII written as JSON escapes, as json.dumps does by default
    assert gamerecord.position_hash(rules, state) == hashlib.sha256(canonical.encode()).hexdigest()
