"""Deadlines on a fake clock: reminders, late notices, grace, late policy, absences, restarts."""

from __future__ import annotations

import random

import pytest

from admin_helpers import T0, body_of, history, outbox
from games import registry
from games.base import OptionError
from gm.core import options, times
from gm.service.table import deadlines
from gm.service.engine import Engine
from gm.store import Store
from support import PLAYERS, PLAYERS3, last_outbox_id, mark_all_sent, order_mail

ON_BOTH_BACKENDS = True  # every test that uses the config: on SQLite and on PostgreSQL

H = 3600.0


def closes(engine, game_id):
    return engine.store.all("SELECT * FROM orders WHERE game_id = :game AND action = 'close'", game=game_id)


def fb_available():
    try:
        registry.get("fuzzy-borders")
        return True
    except Exception:
        return False


needs_fb = pytest.mark.skipif(not fb_available(), reason="games/fuzzy_borders is not importable")


def test_parsing():
    assert times.parse_duration("72h") == 72 * H
    assert times.parse_duration("1d12h") == 36 * H
    assert times.parse_duration("90m") == 5400
    assert times.parse_duration("3600") == 3600
    with pytest.raises(OptionError):
        times.parse_duration("soon")
    # T0 is Monday 2025-03-03 11:06:40 UTC; the next Friday 18:00 is 2025-03-07.
    due = times.due_after("fri 18:00", T0)
    assert times.format_stamp(due) == "2025-03-07 18:00 UTC"
    assert times.due_after("mon 11:00", T0) - T0 == 7 * 86400 - 400
    assert times.parse_when("+48h", T0) == T0 + 48 * H
    assert times.format_stamp(times.parse_when("2025-03-09 12:30", T0)) == "2025-03-09 12:30 UTC"
    assert times.format_due(T0 + 50 * H, T0).endswith("(2 days 2 hours from now)")
    with pytest.raises(OptionError):
        options.check_settings({"press": "loud"})
    with pytest.raises(OptionError):
        options.check_settings({"late": "shoot"})


def test_service_options_are_kept_from_the_rules(engine):
    engine.create_game("neighbors", "nb1", PLAYERS, seed=1,
                       options={"deadline": "72h", "press": "grey", "neighbors_rule": "true"})
    conf = deadlines.settings(engine.store, "nb1")
    assert conf["deadline"] == "72h" and conf["press"] == "grey"
    assert engine.load("nb1").state.neighbors_rule is True
    with pytest.raises(OptionError):
        engine.create_game("neighbors", "nb2", PLAYERS, options={"deadline": "someday"})
    # The welcome's report already shows the deadline.
    welcome = outbox(engine, "ada@example.org", "welcome")[0]
    assert "Deadline: Thu 2025-03-06 11:06 UTC (3 days from now)" in body_of(welcome)


def test_reminder_is_sent_once_and_only_to_the_late(engine, clock):
    engine.create_game("neighbors", "nb1", PLAYERS, seed=1, options={"deadline": "72h"})
    engine.tick()
    since = last_outbox_id(engine)
    clock.advance(47 * H)
    engine.tick()
    assert outbox(engine, since=since) == []
    clock.advance(2 * H)  # 23 hours before the deadline
    engine.tick()
    engine.tick()
    clock.advance(H)
    engine.tick()
    mails = outbox(engine, since=since)
    assert [m["recipient"] for m in mails] == ["ada@example.org"]  # ada is to move, bob is not
    assert "Reminder" in body_of(mails[0]) and "2025-03-06 11:06 UTC" in body_of(mails[0])
    assert len(history(engine, "nb1", "reminder")) == 1


def test_sequential_late_notice_then_wait_tells_the_gm(engine, clock):
    engine.create_game("neighbors", "nb1", PLAYERS, seed=1,
                       options={"deadline": "72h", "grace": "24h", "late": "wait"})
    engine.tick()
    since = last_outbox_id(engine)
    clock.advance(72 * H + 1)
    engine.tick()
    engine.tick()
    late = outbox(engine, since=since)
    assert [m["recipient"] for m in late] == ["ada@example.org"]
    assert "deadline of turn 1 has passed" in body_of(late[0])
    since = last_outbox_id(engine)
    clock.advance(24 * H)
    engine.tick()
    engine.tick()
    told = outbox(engine, since=since)
    assert [m["recipient"] for m in told] == ["boss@example.org"]
    assert engine.store.games.game("nb1")["status"] == "active"
    assert len(history(engine, "nb1", "waiting")) == 1


def test_sequential_forfeit_after_grace(engine, clock):
    engine.create_game("neighbors", "nb1", PLAYERS, seed=1,
                       options={"deadline": "48h", "grace": "12h", "late": "forfeit", "reminder": "0"})
    mark_all_sent(engine)  # the welcomes reached the players (else nobody forfeits)
    engine.tick()
    clock.advance(48 * H + 5)
    engine.tick()
    assert engine.store.games.game("nb1")["status"] == "active"
    clock.advance(12 * H)
    engine.tick()
    assert engine.store.games.game("nb1")["status"] == "finished"
    res = engine.store.one("SELECT * FROM results WHERE game_id = 'nb1'")
    assert "ada forfeited" in res["reason"] and res["winners"] == '["bob"]'
    assert len(history(engine, "nb1", "forfeit")) == 1


def test_a_move_starts_a_new_deadline(engine, clock):
    engine.create_game("neighbors", "nb1", PLAYERS, seed=1, options={"deadline": "72h"})
    engine.tick()
    clock.advance(10 * H)
    loaded = engine.load("nb1")
    move = loaded.rules.legal_orders(loaded.state, "ada")[0]
    engine.gm_order("nb1", "ada", move)
    row = engine.store.one("SELECT * FROM deadlines WHERE game_id = 'nb1'")
    assert row["due"] == clock() + 72 * H and row["turn"] == 2
    report = outbox(engine, "bob@example.org", "report")[-1]
    assert "(3 days from now)" in body_of(report)


@needs_fb
def test_simultaneous_deadline_adjudicates_once(engine, clock):
    engine.create_game("fuzzy-borders", "fb1", PLAYERS3, seed=2, options={"deadline": "72h"})
    engine.tick()
    loaded = engine.load("fb1")
    claim = loaded.rules.random_order(loaded.state, "ada", random.Random(1))
    assert engine.gm_order("fb1", "ada", claim).outcome == "sealed"
    since = last_outbox_id(engine)
    clock.advance(73 * H)
    engine.tick()
    engine.tick()
    assert [c["origin"] for c in closes(engine, "fb1")] == ["deadline"]
    # The players whose claims were not in are told so in the turn's report (one mail,
    # no "Late" notice beside it); ada, who sent hers, is not.
    late = [m for m in outbox(engine, since=since)
            if "your orders were not in" in " ".join(body_of(m).split())]
    assert sorted(m["recipient"] for m in late) == ["bob@example.org", "cy@example.org"]
    assert all(m["kind"] == "report" for m in late)
    assert not [m for m in outbox(engine, since=since) if "Late" in m["subject"]]
    assert engine.load("fb1").rules.turn(engine.load("fb1").state) == 2
    # The next turn has its own deadline, 72 hours after it opened.
    row = engine.store.one("SELECT * FROM deadlines WHERE game_id = 'fb1'")
    assert row["turn"] == 2 and row["due"] == clock() + 72 * H and row["late"] == 0


@needs_fb
def test_restart_after_a_missed_deadline_processes_it_once(config, clock):
    store = Store(config.database)
    first = Engine(store, config, clock=clock)
    first.create_game("fuzzy-borders", "fb1", PLAYERS3, seed=2, options={"deadline": "24h"})
    first.tick()
    store.close()  # the daemon goes down
    clock.advance(100 * H)
    for _ in range(2):  # comes back, and restarts once more
        store = Store(config.database)
        again = Engine(store, config, clock=clock)
        again.tick()
        again.tick()
        n = len(closes(again, "fb1"))
        store.close()
    assert n == 1


def test_restart_sequential_late_notice_once(config, clock):
    store = Store(config.database)
    Engine(store, config, clock=clock).create_game("neighbors", "nb1", PLAYERS, seed=1,
                                                   options={"deadline": "24h"})
    store.close()  # never ticked before going down
    clock.advance(30 * H)
    for _ in range(3):
        store = Store(config.database)
        Engine(store, config, clock=clock).tick()
        store.close()
    store = Store(config.database)
    late = [r for r in store.all("SELECT * FROM outbox WHERE lower(subject) LIKE '%late%'")]
    assert len(late) == 1 and late[0]["recipient"] == "ada@example.org"
    reminders = store.all("SELECT * FROM outbox WHERE lower(subject) LIKE '%reminder%'")
    assert reminders == []  # a reminder after the deadline makes no sense
    store.close()


def test_absence_moves_the_deadline(engine, clock):
    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=1,
                                 options={"deadline": "72h", "absence_max": "7d"})
    engine.tick()
    due = engine.store.one("SELECT due FROM deadlines WHERE game_id = 'nb1'")["due"]
    # ada (to move) is away from the day after tomorrow for five days.
    outcome = engine.ingest(order_mail("ada@example.org", "ABSENCE 2025-03-05 2025-03-09",
                                       game_id="nb1", password=secrets["ada"]))
    assert outcome.outcome == "help"
    moved = engine.store.one("SELECT due FROM deadlines WHERE game_id = 'nb1'")["due"]
    assert times.format_stamp(moved) == "2025-03-10 00:00 UTC" and moved > due
    reply = outbox(engine, "ada@example.org", "reply")[-1]
    assert "moves to Mon 2025-03-10 00:00 UTC" in body_of(reply)
    since = last_outbox_id(engine)
    clock.now = due + 1
    engine.tick()
    assert not [m for m in outbox(engine, since=since) if "Late" in m["subject"]]
    clock.now = moved + 1
    engine.tick()
    assert [m["recipient"] for m in outbox(engine, since=since) if "Late" in m["subject"]] == ["ada@example.org"]
    # Too long an absence is refused, and nothing is recorded.
    n = engine.store.one("SELECT COUNT(*) AS n FROM absences")["n"]
    engine.ingest(order_mail("bob@example.org", "ABSENCE 2025-04-01 2025-05-01",
                             game_id="nb1", password=secrets["bob"]))
    assert engine.store.one("SELECT COUNT(*) AS n FROM absences")["n"] == n
    assert "at most 7 days" in body_of(outbox(engine, "bob@example.org")[-1])


def test_pause_stops_the_clock(engine, clock):
    from gm.service.play import lifecycle as overrides

    engine.create_game("neighbors", "nb1", PLAYERS, seed=1, options={"deadline": "72h"})
    engine.tick()
    due = engine.store.one("SELECT due FROM deadlines WHERE game_id = 'nb1'")["due"]
    overrides.pause(engine, "nb1", why="test")
    clock.advance(100 * H)
    engine.tick()
    assert not history(engine, "nb1", "late")
    overrides.resume(engine, "nb1")
    assert engine.store.one("SELECT due FROM deadlines WHERE game_id = 'nb1'")["due"] == due + 100 * H


@needs_fb
def test_sealed_order_reply_shows_the_deadline(engine, clock):
    engine.create_game("fuzzy-borders", "fb1", PLAYERS3, seed=2, options={"deadline": "fri 18:00"})
    loaded = engine.load("fb1")
    claim = loaded.rules.random_order(loaded.state, "bob", random.Random(1))
    engine.gm_order("fb1", "bob", claim)
    reply = outbox(engine, "bob@example.org", "reply")[-1]
    assert "Deadline: Fri 2025-03-07 18:00 UTC (4 days 6 hours from now)" in body_of(reply)


def proximity_works():
    try:
        registry.get("proximity").setup(["a", "b"], {"time_bank": "2h"}, 1)
        return True
    except Exception:
        return False


@pytest.mark.skipif(not proximity_works(), reason="games/proximity is not importable or not ready")
def test_proximity_time_bank_is_spent_after_the_deadline(engine, clock):
    engine.create_game("proximity", "px1", PLAYERS, seed=3,
                       options={"time_bank": "2h", "deadline": "1h", "grace": "10m"})
    loaded = engine.load("px1")
    (mover,) = loaded.rules.to_move(loaded.state)
    engine.gm_order("px1", mover, loaded.rules.legal_orders(loaded.state, mover)[0])
    (late,) = engine.load("px1").rules.to_move(engine.load("px1").state)
    since = last_outbox_id(engine)
    clock.advance(H + 60)
    engine.tick()
    notice = [m for m in outbox(engine, since=since) if "Late" in m["subject"]]
    assert len(notice) == 1 and "time bank is now being spent" in body_of(notice[0])
    assert engine.store.games.game("px1")["status"] == "active"  # the bank still holds time
    clock.advance(H)
    engine.tick()
    assert engine.store.games.game("px1")["status"] == "finished"
    assert [c["origin"] for c in closes(engine, "px1")] == ["timer"]
    assert late not in engine.load("px1").rules.winners(engine.load("px1").state)
