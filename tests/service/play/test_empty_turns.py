"""RULINGS FB8 through the service: a two-player Fuzzy Borders game whose players clash on the
same cell turn after turn ends after ``empty_turns`` empty turns, and its final report goes out;
games begun before FB8 keep the rules they began with across the upgrade (schema step 15), and
``gm verify`` replays them as stored."""

from __future__ import annotations

import json

from gm.service.people import lobby
from gm.service.records import audit
from gm.service.engine import Engine
from gm.store import Store, schema
from gm.store.mail import Reports
from gm.store.seats import Seats
from support import PLAYERS, body, last_outbox_id, order_mail, outbox, packed_as_before, write_states_as_before

ON_BOTH_BACKENDS = True  # every test that uses the config: on SQLite and on PostgreSQL

BOB = "bob@example.org"
ADA = "ada@example.org"


def mail_claims(engine, secrets, claims: dict[str, str], game_id: str = "fb1") -> None:
    for name, cell in claims.items():
        outcome = engine.ingest(order_mail(f"{name}@example.org", f"CLAIM {cell}", game_id=game_id,
                                           password=secrets[name]))
        assert outcome.outcome == "sealed", outcome.detail


def reports_to(engine, start: int, address: str) -> list[str]:
    return [" ".join(body(m).split()) for m in outbox(engine, start)
            if m["To"] == address and "report" in m["Subject"]]


def test_two_players_clashing_by_mail_end_after_three_empty_turns(engine):
    secrets = engine.create_game("fuzzy-borders", "fb1", PLAYERS, seed=2)
    mail_claims(engine, secrets, {"ada": "A10", "bob": "S10"})  # turn 1 places
    for turn in (2, 3, 4):
        assert engine.load("fb1").turn == turn
        mail_claims(engine, secrets, {"ada": "J10", "bob": "J10"})
        assert engine.load("fb1").state.reopened  # FB6: re-opened, not closed
        start = last_outbox_id(engine)
        if turn == 3:  # the GM enters bob's claim this time: the same rules on every path
            mail_claims(engine, secrets, {"ada": "J10"})
            assert engine.gm_order("fb1", "bob", "CLAIM J10").outcome == "sealed"
        else:
            mail_claims(engine, secrets, {"ada": "J10", "bob": "J10"})
        if turn < 4:
            assert engine.load("fb1").row["status"] == "active"
            (report,) = reports_to(engine, start, BOB)
            assert f"Empty turns in a row: {turn - 1} of 3 (FB8: at 3 the game ends)." in report
    view = engine.load("fb1")
    assert view.rules.is_over(view.state) and view.row["status"] == "finished"
    assert view.state.turn == 4 and view.rules.winners(view.state) == ["ada", "bob"]
    for address in (ADA, BOB):  # the final report, to each player
        (final,) = reports_to(engine, start, address)
        assert "3 empty turns in a row end the game, scored as it stands (FB8)." in final
        assert "Shared win (G2): ada and bob" in final
        assert "Empty turns in a row: 3 of 3" in final
    assert audit.verify(engine, "fb1").ok


def seat_as_before(seats, game_id, seat, name, email, pw_hash, display_name=""):
    seats.store.insert("players", game_id=game_id, seat=seat, name=name, email=email, pw_hash=pw_hash)


def archive_as_before(reports, game_id, turn, seq, player, kind, body, outbox_id, created, audience=None,
                      gm_version=None, digest=None):
    """A report as gm archived it before step 19: no version, no digest (nor, step 22, packing)."""
    return reports.store.insert("reports", game_id=game_id, turn=turn, seq=seq, player=player, kind=kind,
                        body=packed_as_before(body), outbox_id=outbox_id, created=created, audience=audience)


def test_a_game_begun_before_fb8_keeps_its_rules_across_the_upgrade(config, clock, monkeypatch):
    # A store at step 14, as the gm before FB8 left it: a Fuzzy Borders game whose stored
    # options lack empty_turns and whose states have no such key, played through empty turns.
    monkeypatch.setattr(schema, "STEPS", schema.STEPS[:14])
    # That gm gave a new seat no address settings (SET ... ALL, step 17): it had none.
    monkeypatch.setattr(Seats, "address_defaults", lambda self, email: {"format": None, "timezone": None})
    # ...and seats a player as that gm did: no display name (step 18) nor address settings (step 17)
    monkeypatch.setattr(Seats, "add_player", seat_as_before)
    monkeypatch.setattr(Reports, "add_report", archive_as_before)  # ...and archived reports as it did
    monkeypatch.setattr(Reports, "archive_report", archive_as_before)  # (the service's way, its id not read)
    write_states_as_before(monkeypatch)  # ...and states, and read both as it did (steps 21, 22)
    store = Store(config.database)
    engine = Engine(store, config, clock=clock)
    try:
        assert store.schema_version == 14
        engine.create_game("fuzzy-borders", "fb1", PLAYERS, seed=2, options={"empty_turns": "none"})
        engine.create_game("fuzzy-borders", "fb2", PLAYERS, seed=3,
                           options={"side": "5", "empty_turns": "none"})
        with store.write():  # the options as gm stored them before FB8 (the state is the same)
            for game_id, options in (("fb1", {}), ("fb2", {"side": "5"})):
                store.db.execute("UPDATE games SET options = :options WHERE id = :game",
                                 {"options": json.dumps(options), "game": game_id})
        lobby.open_game(engine, "fuzzy-borders", "fb9", 2, seed=5, options={"radius": "3"})
        engine.gm_order("fb1", "ada", "CLAIM A10")
        engine.gm_order("fb1", "bob", "CLAIM S10")
        for _ in range(2):  # two turns clashing twice: empty
            for _ in range(2):
                engine.gm_order("fb1", "ada", "CLAIM J10")
                engine.gm_order("fb1", "bob", "CLAIM J10")
        for _ in range(2):  # two turns nobody sends a claim for, closed by the GM
            assert engine.process("fb1")
        view = engine.load("fb1")
        assert view.state.turn == 6 and view.state.empty_run() == 4
        assert all("empty_turns" not in store.turns.state_data(r)["options"] for r in store.turns.states_of("fb1"))
        assert not audit.verify(engine, "fb1").ok  # read with FB8's default, the replay differs
    finally:
        store.close()
    monkeypatch.undo()

    store = Store(config.database)  # the upgrade: step 15
    engine = Engine(store, config, clock=clock)
    try:
        assert store.schema_version == schema.STEPS[-1].number >= 15
        assert json.loads(store.games.game("fb1")["options"]) == {"empty_turns": "none"}
        assert json.loads(store.games.game("fb2")["options"]) == {"side": "5", "empty_turns": "none"}
        # a game not begun yet (open for JOIN): it will start under FB8's default
        assert json.loads(store.games.game("fb9")["options"]) == {"radius": "3"}
        result = audit.verify(engine, "fb1")
        assert result.ok, result.text()
        assert audit.verify(engine, "fb2").ok
        assert engine.process("fb1")  # a fifth empty turn: FB8 is not this game's rule
        view = engine.load("fb1")
        assert not view.rules.is_over(view.state) and view.row["status"] == "active"
        assert view.state.turn == 7 and view.state.empty_run() == 5
        assert audit.verify(engine, "fb1").ok
        # a game made after the upgrade takes FB8's default
        engine.create_game("fuzzy-borders", "fb3", PLAYERS, seed=4)
        assert engine.load("fb3").state.empty_turns == 3
    finally:
        store.close()
