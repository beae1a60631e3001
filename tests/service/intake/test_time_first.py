"""RULINGS G4 on every path into a game: time is checked before orders.

Mail with orders, `gm order`, `gm process` and mail with only commands or
press alike: each path settles the open turn's timers and
deadline first (gm.service.play.timers.settle).  The random-play test enters every
order through `gm order`, a share of them with the clock moved past the
game's next timer or deadline, and checks the ruling after each one.
"""

from __future__ import annotations

import random

import pytest

from games import registry
from gm.mail import inbound as mail_in
from gm.service.intake import ingest
from gm.service.records import audit
from gm.service.table import deadlines
from support import body, last_outbox_id, mark_all_sent, order_mail, outbox, players_for

DAY = 86400.0
PLAYERS = [("ada", "ada@example.org"), ("bob", "bob@example.org")]


def accepted(engine, game_id: str) -> list[tuple]:
    rows = engine.store.all("SELECT action, player, turn, origin FROM orders WHERE game_id = :game "
                            "AND accepted = 1 ORDER BY id", game=game_id)
    return [tuple(r) for r in rows]


# --- gm order ----------------------------------------------------------------------------------
def test_g4_a_bid_the_gm_enters_after_the_bid_timer_counts_for_the_next_round(engine, clock):
    """The issue's case: bob's bid by `gm order` after the PP4 timer no longer wins round 1."""
    engine.create_game("pivot-pawns", "pp1", PLAYERS, seed=5)
    assert engine.gm_order("pp1", "ada", "BID 3: red/blue green/red red/black").outcome == "sealed"
    clock.advance(DAY + 60)  # the 24 h bid timer ran out; nobody ticked
    late = engine.gm_order("pp1", "bob", "BID 2: red/blue green/red")
    assert late.outcome == "sealed"
    assert engine.load("pp1").turn == 2  # round 1 was closed by its timer, with ada's bid alone
    assert accepted(engine, "pp1") == [("order", "ada", 1, "gm"), ("close", None, 1, "timer"),
                                       ("order", "bob", 2, "gm")]


def test_g4_a_claim_the_gm_enters_after_the_deadline_is_refused_when_illegal_next_turn(engine, clock):
    engine.create_game("fuzzy-borders", "fb1", PLAYERS, seed=5, options={"deadline": "24h"})
    assert engine.gm_order("fb1", "ada", "J10").outcome == "sealed"
    clock.advance(DAY + 60)  # the deadline passed before the GM entered bob's claim
    late = engine.gm_order("fb1", "bob", "J10")
    assert late.outcome == "rejected"
    assert "turn 1 had closed" in late.detail and "RULINGS G4" in late.detail
    view = engine.load("fb1")
    assert view.turn == 2
    assert [c["cell"] for c in view.rules.dump(view.state)["claims"]["ada"]] == ["J10"]
    assert accepted(engine, "fb1") == [("order", "ada", 1, "gm"), ("close", None, 1, "deadline")]


def test_g4_the_gm_cannot_move_for_a_player_whose_time_bank_ran_out(engine, clock):
    """Proximity (PX8): the bank of the player to move ran out before the GM's order."""
    engine.create_game("proximity", "px1", PLAYERS, seed=3, options={"time_bank": "1h"})
    view = engine.load("px1")
    (mover,) = view.rules.to_move(view.state)
    move = view.rules.legal_orders(view.state, mover)[0]
    clock.advance(2 * 3600)
    outcome = engine.gm_order("px1", mover, move)
    assert outcome.outcome == "rejected"
    after = engine.load("px1")
    assert after.rules.is_over(after.state)  # lost on time first
    assert [a for a, *_ in accepted(engine, "px1")] == ["close"]


# --- gm process --------------------------------------------------------------------------------
def test_g4_gm_process_after_the_deadline_closes_that_turn_as_the_deadline_does_and_no_more(engine, clock):
    engine.create_game("fuzzy-borders", "fb1", PLAYERS, seed=5, options={"deadline": "24h"})
    engine.gm_order("fb1", "ada", "J10")
    mark_all_sent(engine)
    clock.advance(DAY + 60)
    start = last_outbox_id(engine)
    assert engine.process("fb1") is True
    assert engine.load("fb1").turn == 2  # turn 2 stays open: the GM asked for one turn
    assert accepted(engine, "fb1")[-1] == ("close", None, 1, "deadline")
    to_bob = [m for m in outbox(engine, start) if m["To"] == "bob@example.org"]
    late = [m for m in to_bob if "your orders were not in" in " ".join(body(m).split())]
    assert len(late) == 1 and len(to_bob) == 1  # bob reads his orders were not in, in the report
    html = late[0].get_body(("html",)).get_content()  # the HTML part says it too, above the news
    assert "your orders were not in" in " ".join(html.split()) and "For you" in html


def test_g4_gm_process_after_the_bid_timer_closes_the_round_by_its_timer(engine, clock):
    engine.create_game("pivot-pawns", "pp1", PLAYERS, seed=5)
    engine.gm_order("pp1", "ada", "BID 3: red/blue green/red red/black")
    clock.advance(DAY + 60)
    assert engine.process("pp1") is True
    assert engine.load("pp1").turn == 2
    assert accepted(engine, "pp1")[-1] == ("close", None, 1, "timer")


# --- mail without orders -----------------------------------------------------------------------
def test_g4_press_sent_after_the_deadline_is_press_of_the_next_turn(engine, clock):
    secrets = engine.create_game("fuzzy-borders", "fb1", PLAYERS, seed=5, options={"deadline": "24h"})
    engine.gm_order("fb1", "ada", "J10")
    clock.advance(DAY + 60)
    engine.ingest(order_mail("bob@example.org", "PRESS TO ada\nToo late for me.\nENDPRESS",
                             game_id="fb1", password=secrets["bob"]))
    assert engine.load("fb1").turn == 2  # the deadline closed turn 1 before the mail was read
    # (the body is packed bytes, schema step 22: read as text, not matched in SQL)
    rows = [r for r in engine.store.reports.reports_of("fb1", kind="press") if "Too late for me" in r["body"]]
    assert rows and all(row["turn"] == 2 for row in rows)


# --- retried mail ------------------------------------------------------------------------------
def test_g4_a_retried_mail_is_judged_after_the_timer_that_ran_out_meanwhile(engine, clock, monkeypatch,
                                                                             breaking_reader):
    secrets = engine.create_game("pivot-pawns", "pp1", PLAYERS, seed=5)
    engine.gm_order("pp1", "ada", "BID 3: red/blue green/red red/black")
    raw = order_mail("bob@example.org", "BID 2: red/blue green/red", game_id="pp1",
                     password=secrets["bob"], X_Trigger="BOOM")
    assert engine.ingest(raw).outcome == "error"  # set aside: the reader broke on it
    (row,) = engine.store.all("SELECT id FROM messages WHERE outcome = 'error'")
    monkeypatch.setattr(mail_in, "parse", breaking_reader)  # the fault is fixed
    clock.advance(DAY + 60)  # meanwhile the bid timer ran out
    outcome = ingest.retry(engine, row["id"])
    assert outcome.outcome == "sealed"
    assert accepted(engine, "pp1") == [("order", "ada", 1, "gm"), ("close", None, 1, "timer"),
                                       ("order", "bob", 2, "mail")]


# --- random play through gm order, the clock moved past the timers ---------------------------
OPTIONS = {True: {"deadline": "24h", "reminder": "0"},  # simultaneous: the deadline closes the turn
           False: {"deadline": "48h", "reminder": "0", "grace": "24h", "late": "forfeit"}}
MAX_STEPS = 1500


def next_due(engine, game_id: str) -> float | None:
    """When the game next needs the clock: its rules timer or a deadline step."""
    return engine.store.timers.timer_of(game_id)


@pytest.mark.parametrize("kind", registry.available())
def test_random_play_through_gm_order_with_the_clock_past_the_timers(kind, engine, clock):
    rules = registry.get(kind)
    jumps = refused = 0
    for seed in range(3):
        gid = f"g{seed}"
        rng = random.Random(seed)
        names = players_for(rules, rng)
        engine.create_game(kind, gid, [(n, f"{n}@{gid}.example.org") for n in names], seed=seed,
                           options=dict(OPTIONS[rules.simultaneous]))
        forfeit_at = rng.randint(3, 15)
        for step in range(MAX_STEPS):
            view = engine.load(gid)
            if view.status != "active" or rules.is_over(view.state):
                break
            mark_all_sent(engine)  # reports reach the players: a late player may forfeit
            due = next_due(engine, gid)
            if due is not None and (rng.random() < 0.25 or step == forfeit_at):
                # Past the next timer or deadline step.  In a sequential game a jump past the grace
                # period forfeits the player to move (late=forfeit), so it is made once, late on.
                past = 3 * DAY if step == forfeit_at else rng.choice([60, 60, 3600])
                if rules.simultaneous:
                    past = rng.choice([60, 60, DAY + 60, 3 * DAY])
                clock.now = max(clock.now, due) + past
                jumps += 1
            written_for = view
            turn_due = deadlines.current(engine.store, view)["due"]  # this turn's deadline
            players = [p for p in rules.to_move(view.state) if p in view.seated_names]
            for player in players[:1] if not rules.simultaneous else players:
                text = rules.random_order(written_for.state, player, rng)
                if text is None:
                    continue
                outcome = engine.gm_order(gid, player, text)
                refused += check_g4(engine, gid, written_for, turn_due, outcome)
                clock.advance(60)
            after = engine.load(gid)
            if rules.simultaneous and after.status == "active" and not rules.is_over(after.state) \
                    and after.seq == view.seq:
                engine.process(gid)  # nobody could send: the GM closes the turn
            clock.advance(600)
        view = engine.load(gid)
        assert view.status == "finished" or rules.is_over(view.state), f"{kind} {gid} did not end"
        report = audit.verify(engine, gid)
        assert report.ok, report.text()  # G1: the replay reproduces the game, timers and all
    assert jumps > 0  # the clock did run past timers (refused: orders that met a closed turn)


def check_g4(engine, gid: str, written_for, due: float | None, outcome) -> int:
    """The order was judged after every timer and deadline that had run out: if accepted, on a
    state whose own rules timer, deadline (simultaneous) or deadline and grace (sequential, late
    policy forfeit) had not run out when it was judged; if refused because the turn it was
    written for had closed, the refusal says so.  Returns 1 for a refusal."""
    if outcome.outcome == "rejected":
        after = engine.load(gid)
        assert after.seq != written_for.seq or "RULINGS G4" in outcome.detail \
            or "left this game" in outcome.detail or "over" in outcome.detail, outcome.detail
        return 1
    row = engine.store.one("SELECT seq, at FROM orders WHERE game_id = :game AND accepted = 1 "
                           "AND action = 'order' ORDER BY id DESC LIMIT 1", game=gid)
    rules = written_for.rules
    state = rules.load(engine.store.turns.state_data(engine.store.one(
        "SELECT * FROM states WHERE game_id = :game AND seq = :seq", game=gid, seq=row["seq"] - 1)))
    timer = rules.timer(state)
    assert timer is None or row["at"] < timer, "an order was judged after its turn's timer ran out"
    if row["seq"] - 1 == written_for.seq:  # judged in the turn it was written for
        if due is not None and not rules.simultaneous:
            due += DAY  # the grace period; then the late player forfeits
        assert due is None or row["at"] < due, "an order was judged after its turn's deadline"
    return 0
