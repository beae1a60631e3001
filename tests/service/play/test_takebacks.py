"""RULINGS G9 (takebacks) by mail and by the GM, on both back ends: TAKEBACK from the mover,
TAKEBACK ACCEPT / DECLINE from the others (alone or with an order), the undo when every other
remaining player accepts, the refusals (after the next move, not the mover, takebacks off, a
game played by everyone at once), gm takeback, and gm verify OK after each (G1)."""

from __future__ import annotations

import random

import pytest

from gm.core.model import ServiceError
from gm.service.play import takebacks
from gm.service.records import audit
from support import EXAMPLE_LAYOUT, PLAYERS, PLAYERS3, ahead, body, last_outbox_id, order_mail, outbox

ON_BOTH_BACKENDS = True
PLAYERS4 = PLAYERS3 + [("di", "di@example.org")]


def send(engine, name: str, text: str, secrets: dict, game_id: str = "nb1"):
    """``name``'s mail to the game (GAME/PASSWORD, then ``text``): (outcome, the mails it caused)."""
    start = last_outbox_id(engine)
    outcome = engine.ingest(order_mail(f"{name}@example.org", text, game_id=game_id, password=secrets[name]))
    return outcome, outbox(engine, start)


def to(mails, name: str) -> list:
    return [m for m in mails if m["To"] == f"{name}@example.org"]


def texts(mails, name: str) -> str:
    return "\n".join(body(m) for m in to(mails, name))


def move(engine, game_id: str = "nb1", index: int = 0) -> str:
    """A legal order of the player to move (the ``index``-th the rules list, or drawn by it)."""
    view = engine.load(game_id)
    player = view.rules.to_move(view.state)[0]
    legal = view.rules.legal_orders(view.state, player)
    if legal is None:  # too many to list (Phalanx): one the rules draw
        return view.rules.random_order(view.state, player, random.Random(index))
    return legal[index % len(legal)]


def dumped(engine, game_id: str = "nb1"):
    view = engine.load(game_id)
    return view.rules.dump(view.state)


def verified(engine, game_id: str = "nb1") -> None:
    report = audit.verify(engine, game_id)
    assert report.ok, report.text()


def new_nb(engine, players=PLAYERS, game_id: str = "nb1", **options) -> dict:
    return engine.create_game("neighbors", game_id, players, seed=5,
                              options={"layout": EXAMPLE_LAYOUT, **options})


def test_g9_a_takeback_accepted_restores_the_position_and_gives_the_mover_the_turn_again(engine):
    secrets = new_nb(engine)
    before, turn = dumped(engine), engine.load("nb1").turn
    first = move(engine)
    send(engine, "ada", first, secrets)
    assert engine.load("nb1").rules.to_move(engine.load("nb1").state) == ["bob"]
    outcome, mails = send(engine, "ada", "TAKEBACK", secrets)
    assert "Takeback asked" in to(mails, "ada")[0]["Subject"]
    assert "ada asks to take back their move" in texts(mails, "bob") and "TAKEBACK ACCEPT" in texts(mails, "bob")
    assert dumped(engine) != before  # asked, not yet done
    outcome, mails = send(engine, "bob", "TAKEBACK ACCEPT", secrets)
    view = engine.load("nb1")
    assert dumped(engine) == before and view.turn == turn and view.rules.to_move(view.state) == ["ada"]
    for name in ("ada", "bob"):  # every player is told, in the game's report
        assert "is taken back by agreement (RULINGS G9)" in texts(mails, name)
        assert any("report" in m["Subject"] for m in to(mails, name))
    assert "Move taken back" in " ".join(m["Subject"] for m in to(mails, "bob"))
    log = [r["detail"] for r in engine.store.history.history_of("nb1") if r["action"] == "takeback"]
    assert len(log) == 3 and "taken back" in log[-1]
    verified(engine)
    send(engine, "ada", move(engine, index=1), secrets)  # the turn goes on from there
    assert engine.load("nb1").rules.to_move(engine.load("nb1").state) == ["bob"]
    verified(engine)


def test_g9_a_takeback_declined_with_an_order_in_the_same_mail_leaves_the_move_and_plays_the_order(engine):
    secrets = new_nb(engine)
    send(engine, "ada", move(engine), secrets)
    send(engine, "ada", "TAKEBACK", secrets)
    after_ada = dumped(engine)
    outcome, mails = send(engine, "bob", f"TAKEBACK DECLINE\n{move(engine)}", secrets)
    assert outcome.outcome == "applied"
    assert "bob declines ada's takeback" in texts(mails, "ada") and "the move stands" in texts(mails, "ada")
    assert "You declined ada's takeback" in texts(mails, "bob")
    view = engine.load("nb1")
    assert dumped(engine) != after_ada and view.rules.to_move(view.state) == ["ada"]
    outcome, mails = send(engine, "bob", "TAKEBACK ACCEPT", secrets)  # declined: nothing to accept
    assert "no takeback is asked" in texts(mails, "bob")
    verified(engine)


def test_g9_an_accept_with_an_order_in_the_same_mail_is_judged_before_the_order(engine):
    secrets = new_nb(engine, PLAYERS3, "nb3")
    send(engine, "ada", move(engine, "nb3"), secrets, "nb3")
    send(engine, "bob", move(engine, "nb3"), secrets, "nb3")
    # No ask stands: cy's TAKEBACK ACCEPT is refused, and cy's order is played.
    outcome, mails = send(engine, "cy", f"TAKEBACK ACCEPT\n{move(engine, 'nb3')}", secrets, "nb3")
    assert outcome.outcome == "applied" and "no takeback is asked" in texts(mails, "cy")
    before_ada = dumped(engine, "nb3")
    send(engine, "ada", move(engine, "nb3"), secrets, "nb3")
    outcome, mails = send(engine, "ada", "TAKEBACK", secrets, "nb3")
    send(engine, "bob", "TAKEBACK ACCEPT", secrets, "nb3")
    # cy's acceptance, with cy's order: the undo first (commands before orders), then the order is
    # judged on the position after it, where it is ada's move, not cy's: refused, nothing else changes.
    outcome, mails = send(engine, "cy", f"TAKEBACK ACCEPT\n{move(engine, 'nb3')}", secrets, "nb3")
    assert dumped(engine, "nb3") == before_ada and outcome.outcome == "rejected"
    verified(engine, "nb3")


def test_g9_refused_after_the_next_move_and_to_a_player_who_did_not_make_the_last_move(engine):
    secrets = new_nb(engine)
    outcome, mails = send(engine, "ada", "TAKEBACK", secrets)  # no move yet
    assert "Only the player who made the last move" in texts(mails, "ada") and not to(mails, "bob")
    send(engine, "ada", move(engine), secrets)
    outcome, mails = send(engine, "bob", "TAKEBACK", secrets)  # bob did not make the last move
    assert "the last move was ada's" in texts(mails, "bob") and not to(mails, "ada")
    send(engine, "ada", "TAKEBACK", secrets)
    send(engine, "bob", move(engine), secrets)  # the next move ends the ask
    now = dumped(engine)
    outcome, mails = send(engine, "bob", "TAKEBACK ACCEPT", secrets)
    assert "no takeback is asked" in texts(mails, "bob") and dumped(engine) == now
    outcome, mails = send(engine, "ada", "TAKEBACK", secrets)  # too late for ada's move
    assert "the last move was bob's" in texts(mails, "ada") and dumped(engine) == now
    outcome, mails = send(engine, "ada", "TAKEBACK PLEASE", secrets)
    assert "TAKEBACK ACCEPT or TAKEBACK DECLINE" in texts(mails, "ada")
    outcome, mails = send(engine, "bob", "TAKEBACK", secrets)  # bob asks; bob cannot answer it
    outcome, mails = send(engine, "bob", "TAKEBACK ACCEPT", secrets)
    assert "you asked for it" in texts(mails, "bob") and dumped(engine) == now
    verified(engine)


def test_g9_refused_in_a_game_with_takebacks_off_and_in_games_played_by_everyone_at_once(engine):
    secrets = new_nb(engine, takebacks="off")
    send(engine, "ada", move(engine), secrets)
    now = dumped(engine)
    outcome, mails = send(engine, "ada", "TAKEBACK", secrets)
    assert "Takebacks are off in game nb1" in texts(mails, "ada") and dumped(engine) == now
    for kind, game_id in (("fuzzy-borders", "fb1"), ("pivot-pawns", "pp1")):
        other = engine.create_game(kind, game_id, PLAYERS, seed=2)
        outcome, mails = send(engine, "ada", "TAKEBACK", other, game_id)
        text = texts(mails, "ada")
        assert "There are no takebacks in" in text and "Neighbors" in text and "Proximity" in text
        with pytest.raises(ServiceError, match="has no takebacks"):
            takebacks.gm_takeback(engine, game_id, why="a slip")


def test_g9_in_a_four_player_game_every_other_remaining_player_must_agree(engine):
    secrets = new_nb(engine, PLAYERS4, "nb4")
    before = dumped(engine, "nb4")
    send(engine, "ada", move(engine, "nb4"), secrets, "nb4")
    outcome, mails = send(engine, "ada", "TAKEBACK", secrets, "nb4")
    assert all("ada asks to take back" in texts(mails, n) for n in ("bob", "cy", "di"))
    outcome, mails = send(engine, "bob", "TAKEBACK ACCEPT", secrets, "nb4")
    assert "waits for cy, di" in texts(mails, "bob") and "bob accepts ada's takeback" in texts(mails, "di")
    send(engine, "cy", "TAKEBACK ACCEPT", secrets, "nb4")
    assert dumped(engine, "nb4") != before  # di has not agreed
    outcome, mails = send(engine, "ada", "TAKEBACK", secrets, "nb4")  # asked again: the accepts stand
    assert "stands; it waits for di" in texts(mails, "ada")
    outcome, mails = send(engine, "di", "TAKEBACK ACCEPT", secrets, "nb4")
    view = engine.load("nb4")
    assert dumped(engine, "nb4") == before and view.rules.to_move(view.state) == ["ada"]
    assert all("taken back by agreement" in texts(mails, n) for n in ("ada", "bob", "cy", "di"))
    verified(engine, "nb4")


def test_g9_the_gm_takes_back_the_last_move_now_and_the_players_are_told(engine):
    secrets = new_nb(engine, takebacks="off")  # the GM's hand works whatever the option
    before = dumped(engine)
    send(engine, "ada", move(engine), secrets)
    with pytest.raises(ServiceError, match="give the reason"):
        takebacks.gm_takeback(engine, "nb1")
    start = last_outbox_id(engine)
    said = takebacks.gm_takeback(engine, "nb1", who="gm:ref", why="a slip of the keyboard")
    assert "taken back" in said and dumped(engine) == before
    mails = outbox(engine, start)
    for name in ("ada", "bob"):
        text = texts(mails, name)
        assert "taken back by the game master (RULINGS G9)" in text and "a slip of the keyboard" in text
    (line,) = [r for r in engine.store.history.history_of("nb1") if r["action"] == "takeback"]
    assert line["actor"] == "gm:ref" and "a slip of the keyboard" in line["detail"]
    with pytest.raises(ServiceError, match="not a player's move"):
        takebacks.gm_takeback(engine, "nb1", why="again")  # the last change is the takeback itself
    verified(engine)


@pytest.mark.parametrize("kind", ["phalanx", "proximity"])
def test_g9_takebacks_in_phalanx_and_proximity_replay_ok(engine, kind):
    secrets = engine.create_game(kind, "g1", PLAYERS, seed=3)
    first = engine.load("g1").rules.to_move(engine.load("g1").state)[0]
    second = next(name for name, _ in PLAYERS if name != first)
    send(engine, first, move(engine, "g1"), secrets, "g1")
    before = dumped(engine, "g1")
    send(engine, second, move(engine, "g1"), secrets, "g1")
    send(engine, second, "TAKEBACK", secrets, "g1")
    outcome, mails = send(engine, first, "TAKEBACK ACCEPT", secrets, "g1")
    view = engine.load("g1")
    assert dumped(engine, "g1") == before and view.rules.to_move(view.state) == [second]
    send(engine, second, move(engine, "g1", index=1), secrets, "g1")
    verified(engine, "g1")


def test_g9_a_takeback_in_a_game_with_a_clock_replays_ok(engine, clock):
    secrets = engine.create_game("proximity", "px1", PLAYERS, seed=3, options={"clock": "3d+1d"})
    first = engine.load("px1").rules.to_move(engine.load("px1").state)[0]
    second = next(name for name, _ in PLAYERS if name != first)
    clock.advance(3600)
    send(engine, first, move(engine, "px1"), secrets, "px1")
    clock.advance(7200)
    send(engine, first, "TAKEBACK", secrets, "px1")
    send(engine, second, "TAKEBACK ACCEPT", secrets, "px1")
    view = engine.load("px1")
    assert view.rules.to_move(view.state) == [first]
    clock.advance(600)
    send(engine, first, move(engine, "px1", index=1), secrets, "px1")
    verified(engine, "px1")


def test_g9_a_takeback_ends_the_conditional_lines_sent_after_the_undone_move(engine):
    """G9 with G8: the line the mover sent with the move starts from the position after it; the
    takeback undoes that position, so the line ends (and never plays)."""
    secrets = new_nb(engine)
    first, (a1, *_) = ahead(engine, "nb1", [])
    second, (b1, *_) = ahead(engine, "nb1", [a1])
    _, (a2, *_) = ahead(engine, "nb1", [a1, b1])
    send(engine, first, f"{a1}\nIF {b1} THEN {a2}", secrets)
    assert [line.player for line in engine.store.lines.of_game("nb1")] == [first]
    send(engine, first, "TAKEBACK", secrets)
    send(engine, second, "TAKEBACK ACCEPT", secrets)
    assert engine.store.lines.of_game("nb1") == []
    send(engine, first, a1, secrets)
    send(engine, second, b1, secrets)  # the line would have answered this at once: it is gone
    view = engine.load("nb1")
    assert view.rules.to_move(view.state) == [first]
    verified(engine)


def test_g9_a_move_answered_at_once_by_a_conditional_order_is_not_taken_back(engine):
    secrets = new_nb(engine)
    first, (a1, *_) = ahead(engine, "nb1", [])
    second, (b1, *_) = ahead(engine, "nb1", [a1])
    send(engine, second, f"IF {a1} THEN {b1}", secrets)
    send(engine, first, a1, secrets)  # answered at once by the line
    view = engine.load("nb1")
    move = engine.store.turns.order_at("nb1", view.seq - 1)
    assert move is not None and move.player == first
    problem = takebacks.why_not_undone(engine, view, move)
    assert problem is not None and "answered at once by a conditional order" in problem
    outcome, mails = send(engine, first, "TAKEBACK", secrets)
    assert engine.load("nb1").seq == view.seq  # refused: nothing undone
    assert "who made the last move" in " ".join(texts(mails, first).split())


def test_g9_with_a_clock_no_time_is_given_back_and_the_increment_is_taken_away(engine, clock):
    """G9 with G10: the mover keeps what the move cost and loses its increment; the bank that ran
    since the move is charged; the mover's bank runs again from the takeback."""
    secrets = engine.create_game("proximity", "px1", PLAYERS, seed=3, options={"clock": "3d+1d"})
    first = engine.load("px1").rules.to_move(engine.load("px1").state)[0]
    second = next(name for name, _ in PLAYERS if name != first)
    start = engine.load("px1").rules.clock_of(engine.load("px1").state).banks
    clock.advance(3600)
    send(engine, first, move(engine, "px1"), secrets, "px1")
    clock.advance(7200)
    send(engine, first, "TAKEBACK", secrets, "px1")
    send(engine, second, "TAKEBACK ACCEPT", secrets, "px1")
    view = engine.load("px1")
    restored = view.rules.clock_of(view.state)
    assert view.rules.to_move(view.state) == [first]
    assert restored.banks[first] == pytest.approx(start[first] - 3600)
    assert restored.banks[second] == pytest.approx(start[second] - 7200)
    assert restored.earned == 0.0 and restored.started == pytest.approx(engine.clock())
    clock.advance(600)
    send(engine, first, move(engine, "px1", index=1), secrets, "px1")
    verified(engine, "px1")
