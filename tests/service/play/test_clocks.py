"""Correspondence clocks (RULINGS G10) through mail: losses on time, stopped banks, time given."""

from __future__ import annotations

import pytest

from gm.service.outgoing import outages
from gm.service.play import clocks
from gm.service.records import audit
from support import body, last_outbox_id, mark_all_sent, order_mail, outbox

ON_BOTH_BACKENDS = True  # every test that uses the config: on SQLite and on PostgreSQL

H, DAY = 3600.0, 86400.0
TWO = [("ada", "ada@example.org"), ("bob", "bob@example.org")]
FOUR = TWO + [("cy", "cy@example.org"), ("dee", "dee@example.org")]
ME = outages.DaemonIdentity("test:1:cl", "test", 1, 0.0)


def new_game(engine, players=TWO, clock="1d", game_id="nb1"):
    return engine.create_game("neighbors", game_id, players, seed=5, options={"clock": clock})


def mover(engine, game_id="nb1"):
    view = engine.load(game_id)
    (name,) = view.rules.to_move(view.state)
    return name


def move_by_mail(engine, secrets, game_id="nb1"):
    """The player to move mails their first legal capture; returns (name, their mails)."""
    view = engine.load(game_id)
    name = mover(engine, game_id)
    capture = view.rules.legal_orders(view.state, name)[0]
    start = last_outbox_id(engine)
    engine.ingest(order_mail(f"{name}@example.org", capture, game_id=game_id, password=secrets[name]))
    return name, outbox(engine, start)


def bank(engine, name, game_id="nb1"):
    view = engine.load(game_id)
    return view.rules.clock_of(view.state).banks[name]


def history(engine, action, game_id="nb1"):
    return [r for r in engine.store.history.history_of(game_id) if r["action"] == action]


def test_g10_clock_option_is_read_once_for_every_sequential_game(engine):
    from games.clock import ClockSpec, parse_clock
    from games.base import OptionError

    assert parse_clock("clock", "3d+1d/10d") == ClockSpec(3 * DAY, DAY, 10 * DAY)
    assert parse_clock("clock", "3d") == ClockSpec(3 * DAY)
    assert parse_clock("clock", "3d+1d") == ClockSpec(3 * DAY, DAY)
    assert parse_clock("clock", "off") is None
    for bad in ("3d+", "3d/", "soon", "3d+1d/1d", "1d/2d/3d"):
        with pytest.raises(OptionError):
            parse_clock("clock", bad)
    for kind in ("neighbors", "phalanx", "proximity"):
        engine.create_game(kind, f"{kind[:2]}1", TWO, seed=3, options={"clock": "3d+1d/10d"})
        view = engine.load(f"{kind[:2]}1")
        assert view.rules.clock_of(view.state).spec == ClockSpec(3 * DAY, DAY, 10 * DAY)


def test_a_clock_loss_in_a_two_player_game_and_verify_takes_it(engine, clock):
    secrets = new_game(engine)
    mark_all_sent(engine)
    clock.advance(H)
    first, _ = move_by_mail(engine, secrets)
    assert bank(engine, first) == DAY - H
    late = mover(engine)
    clock.advance(DAY - 60)
    engine.tick()
    assert engine.load("nb1").status == "active"
    start = last_outbox_id(engine)
    clock.advance(61)
    engine.tick()
    after = engine.load("nb1")
    assert after.status == "finished" and after.rules.winners(after.state) == [first]
    assert any("loses on time" in body(m) for m in outbox(engine, start))
    assert [r["detail"] for r in history(engine, "lost on time")] == [f"{late}'s clock ran out (RULINGS G10)"]
    checked = audit.verify(engine, "nb1")
    assert checked.ok, checked.text()


def test_a_clock_loss_in_a_four_player_neighbors_game_leaves_the_seat(engine, clock):
    secrets = new_game(engine, FOUR, clock="2d")
    mark_all_sent(engine)
    move_by_mail(engine, secrets)
    move_by_mail(engine, secrets)
    late = mover(engine)
    clock.advance(2 * DAY + 1)
    engine.tick()
    after = engine.load("nb1")
    assert after.status == "active" and late in after.rules.removed(after.state)
    assert not after.player(late).active and mover(engine) != late
    start = last_outbox_id(engine)
    engine.ingest(order_mail(f"{late}@example.org", "a1xa2", game_id="nb1", password=secrets[late]))
    assert not any("applied" in m["Subject"].lower() for m in outbox(engine, start))
    move_by_mail(engine, secrets)  # the game goes on with three
    checked = audit.verify(engine, "nb1")
    assert checked.ok, checked.text()


def test_the_increment_is_added_after_a_move_never_above_the_maximum(engine, clock):
    secrets = new_game(engine, clock="1d+12h/30h")
    clock.advance(H)
    first, mails = move_by_mail(engine, secrets)
    assert bank(engine, first) == 30 * H  # 23 h + 12 h, held to 30 h
    reports = [m for m in mails if m["To"] == f"{first}@example.org"]
    assert any(f"{first}: 1 day 6 hours left" in body(m) for m in reports)
    clock.advance(20 * H)
    second, _ = move_by_mail(engine, secrets)
    assert bank(engine, second) == 16 * H  # 24 h - 20 h + 12 h


def test_an_absence_stops_the_bank(engine, clock):
    secrets = new_game(engine)
    name = mover(engine)
    start = last_outbox_id(engine)
    engine.ingest(order_mail(f"{name}@example.org", "ABSENCE now +2d", game_id="nb1",
                             password=secrets[name]))
    assert any("Absence recorded" in m["Subject"] for m in outbox(engine, start))
    clock.advance(2 * DAY + 2 * H)  # the bank of a day ran for two hours of it
    engine.tick()
    assert engine.load("nb1").status == "active"
    move_by_mail(engine, secrets)
    assert bank(engine, name) == pytest.approx(DAY - 2 * H, abs=2)
    checked = audit.verify(engine, "nb1")
    assert checked.ok, checked.text()


def test_an_smtp_outage_stops_the_bank(engine, clock):
    new_game(engine)
    name = mover(engine)
    mark_all_sent(engine)
    clock.advance(H)
    down = clock.now
    outages.heartbeat(engine, ME, down)  # the sender: the SMTP server is down from now
    engine.tick()
    clock.advance(DAY)  # past the bank: nobody loses while gm cannot send
    outages.heartbeat(engine, ME, down)
    engine.tick()
    assert engine.load("nb1").status == "active"
    outages.heartbeat(engine, ME, None)  # sending again after a day
    engine.tick()
    assert engine.load("nb1").status == "active"
    clock.advance(DAY - 2 * H)  # an hour of the bank is left
    engine.tick()
    assert engine.load("nb1").status == "active"
    clock.advance(H + 60)
    engine.tick()
    after = engine.load("nb1")
    assert after.status == "finished" and name not in after.rules.winners(after.state)


def test_gm_clock_gives_time_and_tells_the_players(engine, clock):
    new_game(engine)
    name = mover(engine)
    start = last_outbox_id(engine)
    said = clocks.give_time(engine, "nb1", name, "+2d", who="gm:test", why="a power cut")
    assert bank(engine, name) == 3 * DAY and "3 days left" in said
    told = outbox(engine, start)
    assert sorted(m["To"] for m in told) == ["ada@example.org", "bob@example.org"]
    assert all("gave " + name in " ".join(body(m).split()) for m in told)
    clock.advance(2 * DAY)
    engine.tick()
    assert engine.load("nb1").status == "active"
    with pytest.raises(Exception):
        clocks.give_time(engine, "nb1", name, "2d", why="no sign")
    checked = audit.verify(engine, "nb1")
    assert checked.ok, checked.text()


def test_the_reminder_goes_once_per_turn_when_a_bank_falls_under_a_day(engine, clock):
    secrets = new_game(engine, clock="2d")
    name = mover(engine)
    clock.advance(DAY - H)
    engine.tick()
    start = last_outbox_id(engine)
    clock.advance(2 * H)
    engine.tick()
    clock.advance(H)
    engine.tick()
    reminders = [m for m in outbox(engine, start) if "Clock reminder" in m["Subject"]]
    assert [m["To"] for m in reminders] == [f"{name}@example.org"]
    assert "23 hours left" in " ".join(body(reminders[0]).split())
    move_by_mail(engine, secrets)
    assert len(history(engine, clocks.REMINDER)) == 1


def test_gm_show_lists_every_bank_in_words(engine, clock):
    new_game(engine, clock="2d")
    name = mover(engine)
    clock.advance(4 * H)
    lines = clocks.show_lines(engine.load("nb1"), clock.now)
    assert lines[0] == "Clock (RULINGS G10): 2d"
    assert f"  {name}: 1 day 20 hours left, running" in lines


def test_help_explains_the_clock_with_an_example(engine):
    secrets = new_game(engine, clock="3d+1d/10d")
    start = last_outbox_id(engine)
    engine.ingest(order_mail("ada@example.org", "HELP", game_id="nb1", password=secrets["ada"]))
    (answer,) = [m for m in outbox(engine, start) if m["To"] == "ada@example.org"]
    text = " ".join(body(answer).split())
    assert "Clocks (RULINGS G10)" in text and "clock=3d+1d/10d" in text
    assert "2 days 18 hours" in text and "an ABSENCE, and a time gm cannot send mail, stop it" in text


def test_with_a_clock_the_deadline_and_grace_are_not_used(engine, clock):
    engine.create_game("neighbors", "nb1", TWO, seed=5,
                       options={"clock": "1d", "deadline": "1h", "grace": "10m", "late": "forfeit"})
    mark_all_sent(engine)
    start = last_outbox_id(engine)
    clock.advance(3 * H)
    engine.tick()
    assert engine.load("nb1").status == "active"
    assert not [m for m in outbox(engine, start) if "Late" in m["Subject"]]
    assert history(engine, "forfeit") == [] and history(engine, "late") == []
    assert "Deadline:" not in engine.report_body(engine.load("nb1"), engine.load("nb1").state, None, [])


def test_a_pause_stops_every_bank(engine, clock):
    from gm.service.play import lifecycle

    secrets = new_game(engine)
    name = mover(engine)
    clock.advance(H)
    lifecycle.pause(engine, "nb1", who="gm:test", why="holiday")
    clock.advance(3 * DAY)
    lifecycle.resume(engine, "nb1", who="gm:test", why="back")
    engine.tick()
    assert engine.load("nb1").status == "active"
    clock.advance(H)
    move_by_mail(engine, secrets)
    assert bank(engine, name) == pytest.approx(DAY - 2 * H, abs=2)


@pytest.mark.parametrize("kind", ["phalanx", "proximity"])
def test_the_other_sequential_games_lose_on_time_and_verify(engine, clock, kind):
    import random

    secrets = engine.create_game(kind, "g1", TWO, seed=3, options={"clock": "1d+6h/2d"})
    mark_all_sent(engine)
    clock.advance(H)
    view = engine.load("g1")
    first = mover(engine, "g1")
    text = view.rules.random_order(view.state, first, random.Random(2))
    engine.ingest(order_mail(f"{first}@example.org", text, game_id="g1", password=secrets[first]))
    assert bank(engine, first, "g1") == DAY + 5 * H
    clock.advance(DAY + 1)
    engine.tick()
    after = engine.load("g1")
    assert after.status == "finished" and after.rules.winners(after.state) == [first]
    checked = audit.verify(engine, "g1")
    assert checked.ok, checked.text()


def test_g10_a_rollback_restores_the_banks_and_runs_the_movers_from_the_rollback(engine, clock):
    """The GM's rollback gives the banks back as they were at the turn's start, and the bank of
    the player to move runs from the rollback, not from when that turn first began."""
    from gm.service.play import positions

    secrets = new_game(engine, clock="1d+1h")
    first = mover(engine)
    start = bank(engine, first)
    clock.advance(5 * H)
    move_by_mail(engine, secrets)
    clock.advance(3 * H)
    positions.rollback(engine, "nb1", 1, why="a typo")
    view = engine.load("nb1")
    restored = view.rules.clock_of(view.state)
    assert mover(engine) == first and restored.banks[first] == start
    assert restored.started == pytest.approx(engine.clock())
    clock.advance(2 * H)
    move_by_mail(engine, secrets)
    assert bank(engine, first) == pytest.approx(start - 2 * H + H)  # charged from the rollback, plus I
    assert audit.verify(engine, "nb1").ok
