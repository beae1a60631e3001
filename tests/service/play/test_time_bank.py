"""PX8 through the service: the first mover's bank runs from the game's start."""

ON_BOTH_BACKENDS = True  # every test that uses the config: on SQLite and on PostgreSQL


def test_first_mover_loses_on_time_when_the_bank_runs_out(engine, clock):
    engine.create_game("proximity", "px1", [("ada", "ada@example.org"), ("bob", "bob@example.org")],
                       seed=3, options={"time_bank": "1h"})
    loaded = engine.load("px1")
    (mover,) = loaded.rules.to_move(loaded.state)
    clock.advance(1800)
    engine.tick()
    assert not loaded.rules.is_over(engine.load("px1").state)  # half the bank left
    clock.advance(1801)
    engine.tick()
    after = engine.load("px1")
    assert after.rules.is_over(after.state)
    assert mover not in after.rules.winners(after.state)
    assert after.row["status"] == "finished"
