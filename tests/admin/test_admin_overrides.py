"""The GM's overrides: effect, history record, mail sent, and refused bad uses."""

from __future__ import annotations

import json
import random

import pytest

from admin_helpers import body_of, history, neighbors_move, outbox
from games import registry
from gm.core import passwords
from gm.service.play import lifecycle as overrides
from gm.service.play import positions
from gm.core.model import ServiceError
from support import PLAYERS, PLAYERS3, last_outbox_id

ON_BOTH_BACKENDS = True  # every test that uses the config: on SQLite and on PostgreSQL


@pytest.fixture
def nb(engine):
    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=7)
    return secrets


def play(engine, game_id, n):
    for _ in range(n):
        mover, move = neighbors_move(engine, game_id)
        assert engine.gm_order(game_id, mover, move).outcome == "applied"


def test_pause_and_resume(engine, nb):
    since = last_outbox_id(engine)
    overrides.pause(engine, "nb1", who="gm:alice", why="holiday")
    assert engine.store.games.game("nb1")["status"] == "paused"
    rec = history(engine, "nb1", "pause")[-1]
    assert rec["actor"] == "gm:alice" and "holiday" in rec["detail"] and rec["at"] == engine.clock()
    mails = outbox(engine, since=since)
    assert {m["recipient"] for m in mails} == {"ada@example.org", "bob@example.org"}
    assert "paused" in body_of(mails[0]) and "holiday" in body_of(mails[0])
    mover, move = neighbors_move(engine, "nb1")
    assert engine.gm_order("nb1", mover, move).outcome == "rejected"
    with pytest.raises(ServiceError):
        overrides.pause(engine, "nb1")
    overrides.resume(engine, "nb1", who="gm:alice", why="back")
    assert engine.store.games.game("nb1")["status"] == "active"
    assert history(engine, "nb1", "resume")[-1]["actor"] == "gm:alice"
    assert engine.gm_order("nb1", mover, move).outcome == "applied"


def test_unknown_game_and_player_are_refused(engine, nb):
    before = engine.store.one("SELECT COUNT(*) AS n FROM history")["n"]
    for action in (lambda: overrides.pause(engine, "nope"),
                   lambda: overrides.end(engine, "nope", "why"),
                   lambda: positions.rollback(engine, "nope", 1),
                   lambda: overrides.broadcast(engine, "nope", "hi"),
                   lambda: overrides.replace(engine, "nb1", "zed", "z@example.org"),
                   lambda: overrides.eject(engine, "nb1", "zed"),
                   lambda: overrides.resend(engine, "nb1", "zed")):
        with pytest.raises(ServiceError):
            action()
    assert engine.store.one("SELECT COUNT(*) AS n FROM history")["n"] == before


def test_end_needs_a_reason_and_ends(engine, nb):
    with pytest.raises(ServiceError):
        overrides.end(engine, "nb1", "  ")
    since = last_outbox_id(engine)
    overrides.end(engine, "nb1", "players agreed a draw", who="gm:x", winners=["ada", "bob"])
    assert engine.store.games.game("nb1")["status"] == "finished"
    result = engine.store.one("SELECT * FROM results WHERE game_id = 'nb1'")
    assert json.loads(result["winners"]) == ["ada", "bob"]
    assert "agreed a draw" in history(engine, "nb1", "end")[-1]["detail"]
    assert len(outbox(engine, since=since)) == 2
    with pytest.raises(ServiceError):
        overrides.end(engine, "nb1", "again")


def test_deadline_override(engine, nb, clock):
    since = last_outbox_id(engine)
    overrides.set_deadline(engine, "nb1", "+48h", who="gm:x", why="slow week")
    row = engine.store.one("SELECT * FROM deadlines WHERE game_id = 'nb1'")
    assert row["due"] == clock() + 48 * 3600
    assert history(engine, "nb1", "deadline")[-1]["actor"] == "gm:x"
    mails = outbox(engine, since=since)
    assert len(mails) == 2 and "2025-03-05" in body_of(mails[0])
    # The report now shows the deadline as a UTC date and time remaining.
    loaded = engine.load("nb1")
    report = engine.report_body(loaded, loaded.state, "ada", [])
    assert "Deadline: Wed 2025-03-05 11:06 UTC (2 days from now)" in report
    with pytest.raises(ServiceError):
        overrides.set_deadline(engine, "nb1", "2020-01-01")
    with pytest.raises(ServiceError):
        overrides.set_deadline(engine, "nb1", "whenever")


def test_rollback(engine, nb):
    play(engine, "nb1", 4)
    assert engine.load("nb1").rules.turn(engine.load("nb1").state) == 5
    target = engine.store.one("SELECT state, state_packing FROM states WHERE game_id = 'nb1' AND turn = 3 "
                              "ORDER BY seq LIMIT 1")
    since = last_outbox_id(engine)
    with pytest.raises(ServiceError, match="future"):
        positions.rollback(engine, "nb1", 6)
    positions.rollback(engine, "nb1", 3, who="gm:x", why="misread order")
    loaded = engine.load("nb1")
    assert loaded.rules.turn(loaded.state) == 3
    assert engine.store.turns.state_data(engine.store.turns.latest_state("nb1")) == engine.store.turns.state_data(
        target)
    rec = history(engine, "nb1", "rollback")[-1]
    assert "2 later order(s) discarded" in rec["detail"] and "misread order" in rec["detail"]
    mails = outbox(engine, since=since)
    assert {m["recipient"] for m in mails} == {"ada@example.org", "bob@example.org"}
    assert "rolled the game back to the start of turn 3" in body_of(mails[0])
    # The turn is open again: the player to move can move.
    play(engine, "nb1", 1)
    assert engine.load("nb1").rules.turn(engine.load("nb1").state) == 4


def test_replace(engine, nb):
    since = last_outbox_id(engine)
    overrides.replace(engine, "nb1", "bob", "carol@example.org", who="gm:x", why="bob left")
    bob = engine.store.seats.player("nb1", "bob")
    assert bob["email"] == "carol@example.org"
    assert not passwords.verify(nb["bob"], bob["pw_hash"])
    mails = outbox(engine, since=since)
    welcome = [m for m in mails if m["kind"] == "welcome"]
    assert welcome and welcome[0]["recipient"] == "carol@example.org"
    assert "Your password:" in body_of(welcome[0])
    assert any(m["recipient"] == "bob@example.org" for m in mails)  # the old address is told
    assert any(m["recipient"] == "ada@example.org" for m in mails)
    assert "bob@example.org -> carol@example.org" in history(engine, "nb1", "replace")[-1]["detail"]


def test_eject_two_player_sequential_ends_the_game(engine, nb):
    overrides.eject(engine, "nb1", "bob", who="gm:x", why="abusive")
    assert engine.store.games.game("nb1")["status"] == "finished"
    assert not engine.store.seats.player("nb1", "bob")["active"]
    res = engine.store.one("SELECT * FROM results WHERE game_id = 'nb1'")
    assert json.loads(res["winners"]) == ["ada"]
    assert history(engine, "nb1", "eject") and history(engine, "nb1", "forfeit")
    with pytest.raises(ServiceError):
        overrides.eject(engine, "nb1", "bob")


def test_edit_is_validated_by_the_rules(engine, nb):
    loaded = engine.load("nb1")
    data = loaded.rules.dump(loaded.state)
    seq = loaded.seq
    bad = dict(data, board="X" * 42)
    with pytest.raises(ServiceError, match="refused"):
        positions.edit_state(engine, "nb1", bad, base_seq=seq)
    bad2 = dict(data, captured={"ada": "Q", "bob": ""})  # a capture with no move
    with pytest.raises(ServiceError, match="refused"):
        positions.edit_state(engine, "nb1", bad2, base_seq=seq)
    assert engine.load("nb1").seq == seq and not history(engine, "nb1", "edit")
    board = list(data["board"])
    first = next(i for i, c in enumerate(board) if c != ".")
    board[first] = "."
    since = last_outbox_id(engine)
    positions.edit_state(engine, "nb1", dict(data, board="".join(board)), who="gm:x", why="typo",
                         base_seq=seq)
    assert engine.load("nb1").rules.dump(engine.load("nb1").state)["board"] == "".join(board)
    assert "board" in history(engine, "nb1", "edit")[-1]["detail"]
    assert len(outbox(engine, since=since)) == 2
    assert positions.edit_state(engine, "nb1", dict(data, board="".join(board)),
                                base_seq=engine.load("nb1").seq) == "no change"


def test_edit_with_an_editor(engine, nb, tmp_path):
    script = tmp_path / "ed.py"
    script.write_text("import sys, json\np = sys.argv[1]\nd = json.load(open(p))\n"
                      "d['neighbors_rule'] = True\njson.dump(d, open(p, 'w'))\n")
    msg = positions.edit_interactive(engine, "nb1", why="option", editor=f"python {script}")
    assert "neighbors_rule" in msg
    assert engine.load("nb1").state.neighbors_rule is True


def test_resend_and_broadcast(engine, nb):
    since = last_outbox_id(engine)
    overrides.resend(engine, "nb1", "ada", who="gm:x")
    mails = outbox(engine, since=since)
    assert [m["recipient"] for m in mails] == ["ada@example.org"]
    assert "Neighbors game nb1, turn 1" in body_of(mails[0])
    assert history(engine, "nb1", "resend")[-1]["detail"].startswith("report of turn 1 to ada")
    since = last_outbox_id(engine)
    overrides.broadcast(engine, "nb1", "Server moves on Friday.", who="gm:x")
    mails = outbox(engine, since=since)
    assert len(mails) == 2 and "Server moves on Friday." in body_of(mails[1])
    assert history(engine, "nb1", "broadcast")[-1]["actor"] == "gm:x"
    with pytest.raises(ServiceError):
        overrides.broadcast(engine, "nb1", "  ")


def simultaneous_kind():
    for kind in ("fuzzy-borders", "pivot-pawns"):
        try:
            registry.get(kind)
            return kind
        except Exception:
            continue
    return None


@pytest.mark.skipif(simultaneous_kind() is None, reason="no simultaneous game is importable yet")
def test_simultaneous_rollback_eject_and_bad_edit(engine):
    kind = simultaneous_kind()
    engine.create_game(kind, "s1", PLAYERS3, seed=3)
    loaded = engine.load("s1")
    rules = loaded.rules
    import random

    rng = random.Random(1)
    for name in rules.to_move(loaded.state):
        text = rules.random_order(loaded.state, name, rng)
        assert engine.gm_order("s1", name, text).outcome == "sealed"
    loaded = engine.load("s1")
    assert rules.turn(loaded.state) == 2 or kind == "pivot-pawns"
    with pytest.raises(ServiceError, match="future"):
        positions.rollback(engine, "s1", rules.turn(loaded.state) + 1)
    positions.rollback(engine, "s1", 1, why="test")
    assert rules.turn(engine.load("s1").state) == 1
    data = rules.dump(engine.load("s1").state)
    with pytest.raises(ServiceError, match="refused"):
        positions.edit_state(engine, "s1", dict(data, version=999), base_seq=engine.load("s1").seq)
    overrides.eject(engine, "s1", "cy", why="gone")
    assert engine.store.games.game("s1")["status"] == "active"  # three players: the game goes on
    assert not engine.store.seats.player("s1", "cy")["active"]


@pytest.mark.parametrize("kind", ["fuzzy-borders", "pivot-pawns"])
def test_a_simultaneous_turn_closes_once_everyone_left_in_the_game_has_sent_orders(engine, kind):
    engine.create_game(kind, "s1", PLAYERS3, seed=3)
    names = [name for name, _ in PLAYERS3]
    removed, staying = names[-1], names[:-1]
    overrides.eject(engine, "s1", removed, who="gm:x", why="vanished")
    start = engine.load("s1")
    turn = start.rules.turn(start.state)
    for name in staying:
        loaded = engine.load("s1")
        assert loaded.rules.turn(loaded.state) == turn  # still waiting for the others
        order = loaded.rules.random_order(loaded.state, name, random.Random(name))
        assert engine.gm_order("s1", name, order).outcome == "sealed"
    # The removed seat sends nothing and counts as missing: no wait for the deadline.
    after = engine.load("s1")
    assert after.rules.turn(after.state) == turn + 1
    closes = engine.store.all("SELECT * FROM orders WHERE game_id = 's1' AND action = 'close'")
    assert len(closes) == 1


def test_ejecting_the_last_player_awaited_closes_the_turn(engine):
    engine.create_game("fuzzy-borders", "s1", PLAYERS3, seed=3)
    loaded = engine.load("s1")
    for name in ("ada", "bob"):
        order = loaded.rules.random_order(engine.load("s1").state, name, random.Random(name))
        assert engine.gm_order("s1", name, order).outcome == "sealed"
    assert engine.load("s1").rules.turn(engine.load("s1").state) == 1  # cy is awaited
    overrides.eject(engine, "s1", "cy", who="gm:x", why="gone")
    assert engine.load("s1").rules.turn(engine.load("s1").state) == 2
