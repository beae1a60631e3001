"""gm import: a game's record replayed into a new game is the same game (RULINGS G1), and a
record that does not follow is refused whole, naming its move."""

from __future__ import annotations

import copy
import random

import pytest

from games import registry
from gm.core.model import ServiceError
from gm.service.play import lifecycle, positions, takebacks
from gm.service.records import audit, recordimport
from gm.service.table import gamerecord
from gm.service.table.gamerecord import position_hash
from support import BACKENDS, ahead, order_mail, players_for

# Options that keep a whole random game short (the defaults play for minutes), with clocks (G10).
OPTIONS = {
    "neighbors": {"clock": "1d"},
    "fuzzy-borders": {"side": "5", "radius": "2"},
    "phalanx": {"side": "4", "clock": "2d"},
    "proximity": {"coins": "2"},
    "pivot-pawns": {},
}


def build_record(engine, game_id: str) -> dict:
    """The GM's full record of a game (gm export)."""
    return gamerecord.build(engine.store, game_id, gm=True)


def play(engine, clock, kind: str, game_id: str, seed: int, steps: int = 400) -> list[str]:
    """A game of ``kind`` played with random legal orders through the service, minutes apart."""
    rules, rng = registry.get(kind), random.Random(seed)
    names = players_for(rules, rng)
    engine.create_game(kind, game_id, [(n, f"{n}@example.org") for n in names], seed=seed,
                       options=dict(OPTIONS[kind]))
    for _ in range(steps):
        view = engine.load(game_id)
        if rules.is_over(view.state) or view.status != "active":
            break
        for player in rules.to_move(view.state):
            text = rules.random_order(engine.load(game_id).state, player, rng)
            if text is None:
                continue
            clock.advance(rng.randint(60, 3600))
            assert engine.gm_order(game_id, player, text).outcome in {"applied", "sealed"}
            if not rules.simultaneous:
                break
        view = engine.load(game_id)
        if rules.simultaneous and not rules.is_over(view.state) and view.status == "active":
            engine.process(game_id)
    return names


def addresses(names: list[str], domain: str = "elsewhere.test") -> dict[str, tuple[str, str]]:
    return {name: (f"{name}@{domain}", "") for name in names}


def import_as(engine, record: dict, game_id: str = "imp", **kwargs) -> recordimport.Imported:
    names = [p["name"] for p in record["players"]]
    return recordimport.import_record(engine, record, game_id, addresses(names), **kwargs)


def dumped_states(engine, game_id: str) -> list[dict]:
    return [engine.store.turns.state_data(r) for r in engine.store.turns.states_of(game_id)]


def standings(engine, game_id: str) -> dict:
    entry = audit.index_entry(engine, game_id)
    return {key: entry[key] for key in ("over", "winners", "drawn", "reason", "turn")} | {
        "players": [(p["name"], p["score"], p["active"], p["winner"]) for p in entry["players"]]}


def assert_same_game(engine, original: str, imported: str) -> None:
    report = audit.verify(engine, imported)
    assert report.ok, report.text()
    states = dumped_states(engine, original)
    assert dumped_states(engine, imported)[:len(states)] == states
    if len(dumped_states(engine, imported)) > len(states):  # a running clock, restarted at the import
        assert engine.store.turns.overrides_of(imported)[-1].action == "clock"
        assert engine.load(imported).rules.clock_of(engine.load(imported).state).started == engine.clock()
    assert standings(engine, imported) == standings(engine, original)
    assert engine.load(imported).status == engine.load(original).status


def nothing_stored(engine, game_id: str = "imp") -> bool:
    return engine.store.games.game(game_id) is None and not dumped_states(engine, game_id)


@pytest.mark.parametrize("kind", ["neighbors", "fuzzy-borders", "phalanx", "proximity", "pivot-pawns"])
def test_a_game_played_to_its_end_imports_as_the_same_game(engine, clock, kind):
    play(engine, clock, kind, "g1", seed=11)
    assert engine.load("g1").status == "finished"
    record = build_record(engine, "g1")
    imported = import_as(engine, record)
    assert imported.finished and not imported.welcomed
    assert_same_game(engine, "g1", "imp")
    # The reports the seats were sent show the same positions (their digests) as the original's.
    shown = {(r.seq, r.player): r.digest for r in engine.store.reports.reports_of("imp", kind="report")}
    for row in engine.store.reports.reports_of("g1", kind="report"):
        if (row.seq, row.player) in shown:
            assert shown[row.seq, row.player] == row.digest
    assert {seq for seq, _ in shown} >= {r.seq for r in engine.store.reports.reports_of("g1", kind="report")}


@pytest.mark.parametrize("config", BACKENDS, indirect=True)
def test_a_running_game_with_gm_edits_rollbacks_takebacks_and_a_draw_imports(engine, clock):
    play(engine, clock, "neighbors", "g1", seed=5, steps=6)
    clock.advance(600)
    positions.rollback(engine, "g1", 2, why="a wrong order")
    play_more(engine, clock, "g1", 4)
    clock.advance(600)
    takebacks.gm_takeback(engine, "g1", why="a slip")
    view = engine.load("g1")
    data = view.rules.dump(view.state)
    board = list(data["board"])
    board[next(i for i, c in enumerate(board) if c not in ".RBQ")] = "."  # a piece taken off by hand
    positions.edit_state(engine, "g1", dict(data, board="".join(board)), why="a typo", base_seq=view.seq)
    play_more(engine, clock, "g1", 2)
    record = build_record(engine, "g1")
    imported = import_as(engine, record, "running")
    assert not imported.finished
    assert_same_game(engine, "g1", "running")
    assert engine.load("running").status == "active"
    assert engine.store.turns.overrides_of("running")[-1].action == "clock"  # its clock runs from now
    # Drawn by the GM: the result and the finished status come along.
    lifecycle.draw(engine, "g1", why="agreed over the phone")
    import_as(engine, build_record(engine, "g1"), "drawn")
    assert_same_game(engine, "g1", "drawn")


def play_more(engine, clock, game_id: str, moves: int) -> None:
    rng = random.Random(moves)
    for _ in range(moves):
        view = engine.load(game_id)
        if view.rules.is_over(view.state):
            return
        (player,) = view.rules.to_move(view.state)
        clock.advance(300)
        engine.gm_order(game_id, player, view.rules.random_order(view.state, player, rng))


def test_a_concession_and_a_gm_end_import_with_their_result(engine, clock):
    play(engine, clock, "pivot-pawns", "g1", seed=3, steps=2)
    names = [p.name for p in engine.load("g1").players]
    lifecycle.concede(engine, "g1", names[0], why="had to go")
    import_as(engine, build_record(engine, "g1"), "conceded")
    assert_same_game(engine, "g1", "conceded")
    assert not engine.load("conceded").player(names[0]).active
    play(engine, clock, "phalanx", "g2", seed=3, steps=3)
    winner = engine.load("g2").players[1].name
    lifecycle.end(engine, "g2", "the club closed", winners=[winner])
    import_as(engine, build_record(engine, "g2"), "ended")
    assert_same_game(engine, "g2", "ended")
    assert standings(engine, "ended")["winners"] == [winner]
    assert standings(engine, "ended")["reason"] == "the club closed"


def test_an_altered_order_is_refused_with_its_turn_and_nothing_is_stored(engine, clock):
    play(engine, clock, "neighbors", "g1", seed=7, steps=8)
    record = build_record(engine, "g1")
    move = record["moves"][3]
    move["text"] = "Zz99"
    with pytest.raises(ServiceError) as refused:
        import_as(engine, record)
    assert f"turn {move['turn']}, seq {move['seq']}" in str(refused.value)
    assert "Zz99" in str(refused.value)
    assert nothing_stored(engine)


def test_another_legal_order_in_its_place_is_refused_as_a_different_position(engine, clock):
    play(engine, clock, "neighbors", "g1", seed=7, steps=8)
    record = build_record(engine, "g1")
    move = record["moves"][2]
    rules = engine.load("g1").rules
    before = rules.load(engine.store.turns.state_data(engine.store.turns.state_at("g1", move["seq"] - 1)))
    other = next(t for t in rules.legal_orders(before, move["player"])
                 if position_hash(rules, rules.submit(before, move["player"], rules.parse_order(
                     before, move["player"], t), move["at"]).state) != move["position"])
    move["text"] = other
    with pytest.raises(ServiceError, match=f"turn {move['turn']}, seq {move['seq']}: the position after "
                                           f"turn {move['turn']} differs from the record"):
        import_as(engine, record)
    assert nothing_stored(engine)


def test_an_altered_hash_is_refused(engine, clock):
    play(engine, clock, "phalanx", "g1", seed=2, steps=6)
    record = build_record(engine, "g1")
    record["moves"][-1]["position"] = "0" * 64
    with pytest.raises(ServiceError, match="differs from the record"):
        import_as(engine, record)
    assert nothing_stored(engine)
    record = build_record(engine, "g1")
    record["start_position"] = "f" * 64
    with pytest.raises(ServiceError, match="starting position"):
        import_as(engine, record)
    assert nothing_stored(engine)


def test_every_seat_needs_an_address(engine, clock):
    play(engine, clock, "neighbors", "g1", seed=7, steps=2)
    record = build_record(engine, "g1")
    names = [p["name"] for p in record["players"]]
    given = addresses(names[1:])
    with pytest.raises(ServiceError, match=f"every seat needs an address: give --player NAME=ADDRESS for {names[0]}"):
        recordimport.import_record(engine, record, "imp", given)
    with pytest.raises(ServiceError, match="no seat called zed"):
        recordimport.import_record(engine, record, "imp", addresses(names) | addresses(["zed"]))
    assert nothing_stored(engine)


def test_a_record_of_another_format_or_version_or_not_json_is_refused(engine, clock):
    play(engine, clock, "neighbors", "g1", seed=7, steps=2)
    record = build_record(engine, "g1")
    names = [p["name"] for p in record["players"]]
    for changed, why in (({"version": 2}, "version 2: this gm reads version 1"),
                         ({"format": "pgn"}, "not a game record")):
        with pytest.raises(ServiceError, match=why):
            recordimport.import_record(engine, record | changed, "imp", addresses(names))
    with pytest.raises(ServiceError, match="not a game record in JSON"):
        recordimport.import_file(engine, "[Event \"nb1\"]\n1. Rb4xd4\n", "imp", addresses(names))
    broken = copy.deepcopy(record)
    del broken["moves"][0]["position"]
    with pytest.raises(ServiceError, match="schema"):
        recordimport.import_record(engine, broken, "imp", addresses(names))
    assert nothing_stored(engine)


def test_the_import_is_unrated_and_mails_only_with_welcome(engine, clock):
    play(engine, clock, "neighbors", "g1", seed=7, steps=4)
    record = build_record(engine, "g1")
    record["game"]["rated"] = True
    before = engine.store.one("SELECT COUNT(*) AS n FROM outbox")["n"]
    import_as(engine, record, "quiet")
    assert engine.store.one("SELECT COUNT(*) AS n FROM outbox")["n"] == before
    with pytest.raises(ServiceError, match="there is already a game quiet"):
        import_as(engine, record, "quiet")
    with pytest.raises(ServiceError, match="cannot be set up: .*no game called 'chess'"):
        import_as(engine, record | {"game": record["game"] | {"kind": "chess"}}, "chess1")
    imported = import_as(engine, record, "told", welcome=True)
    assert imported.welcomed
    welcomes = engine.store.all("SELECT recipient FROM outbox WHERE kind = 'welcome' AND game_id = 'told'")
    assert sorted(r["recipient"] for r in welcomes) == sorted(f"{p['name']}@elsewhere.test"
                                                              for p in record["players"])
    assert audit.verify(engine, "told").ok
    history = engine.store.history.history_of("told")
    assert [line.action for line in history] == ["import"] and "unrated" in history[0].detail


def test_a_public_record_with_withheld_solutions_imports_as_the_same_ending(engine, clock):
    """Pivot Pawns' public record gives a stand-in for each solution never tried: the states of
    the open round differ (their hashes are withheld), the positions shown and the end do not."""
    play(engine, clock, "pivot-pawns", "g1", seed=5)
    record = gamerecord.build(engine.store, "g1")
    assert record["view"] == "public" and any(m.get("withheld") for m in record["moves"])
    import_as(engine, record)
    assert audit.verify(engine, "imp").ok
    shown = [m["seq"] for m in record["moves"] if m["position"] is not None]
    original, imported = dumped_states(engine, "g1"), dumped_states(engine, "imp")
    assert all(original[seq] == imported[seq] for seq in shown) and original[-1] == imported[-1]
    assert standings(engine, "imp") == standings(engine, "g1")


def test_a_seats_view_of_a_running_game_is_refused_at_the_order_it_withholds(engine, clock):
    names = play(engine, clock, "fuzzy-borders", "g1", seed=4, steps=2)
    view = engine.load("g1")
    sealer, reader = names[0], names[1]
    rng = random.Random(1)
    engine.gm_order("g1", sealer, view.rules.random_order(view.state, sealer, rng))
    record = gamerecord.build(engine.store, "g1", reader)
    withheld = next(m for m in record["moves"] if m.get("withheld"))
    with pytest.raises(ServiceError, match=f"turn {withheld['turn']}, seq {withheld['seq']}: .*"
                                           "withholds it from its viewer"):
        import_as(engine, record)
    assert nothing_stored(engine)


def test_moves_mailed_and_played_from_conditional_lines_import_with_their_origins(engine):
    secrets = engine.create_game("neighbors", "nb1", [("ada", "ada@example.org"), ("bob", "bob@example.org")],
                                 seed=5)
    a1 = ahead(engine, "nb1", [])[1][0]
    b1 = ahead(engine, "nb1", [a1])[1][0]
    a2 = ahead(engine, "nb1", [a1, b1])[1][0]
    for name, text in (("bob", f"IF {a1} THEN {b1}"), ("ada", f"{a1}\nIF {b1} THEN {a2}")):
        engine.ingest(order_mail(f"{name}@example.org", text, game_id="nb1", password=secrets[name]))
    record = build_record(engine, "nb1")
    assert [m["origin"] for m in record["moves"]] == ["mail", "line", "line"]
    import_as(engine, record)
    assert_same_game(engine, "nb1", "imp")
    assert [(r.player, r.origin) for r in engine.store.turns.accepted_orders("imp")] == \
        [("ada", "mail"), ("bob", "line"), ("ada", "line")]
