"""gm takeback ID -m WHY (RULINGS G9) as the GM types it: the last move undone, the reason required,
recorded with who and why, and gm verify OK after it.  Through the CLI on a real store."""

from __future__ import annotations

from admin_helpers import run_gm as gm
from games import registry


def test_g9_gm_takeback_undoes_the_last_move_and_verify_stays_ok(conf, store):
    made = gm(conf, "new", "neighbors", "--id", "nb1", "--seed", "3",
              "--player", "ada=ada@example.org", "--player", "bob=bob@example.org")
    assert made.exit_code == 0, made.stderr
    before = gm(conf, "show", "nb1").stdout
    rules = registry.get("neighbors")
    state = rules.load(store.turns.state_data(store.turns.latest_state("nb1")))
    mover = rules.to_move(state)[0]
    played = gm(conf, "order", "nb1", rules.legal_orders(state, mover)[0], "--as", mover, "-m", "test")
    assert played.exit_code == 0, played.stderr
    assert gm(conf, "takeback", "nb1").exit_code == 1  # no reason given
    done = gm(conf, "takeback", "nb1", "-m", "a slip")
    assert done.exit_code == 0, done.stderr
    assert f"{mover}'s move" in done.stdout and "taken back" in done.stdout
    assert gm(conf, "show", "nb1").stdout.split("\n")[1:] == before.split("\n")[1:]
    log = gm(conf, "history", "nb1", "--log").stdout
    assert "gm:tester" in log and "takeback" in log and "a slip" in log
    verified = gm(conf, "verify", "nb1")
    assert verified.exit_code == 0 and "OK" in verified.stdout, verified.stdout
    again = gm(conf, "takeback", "nb1", "-m", "again")
    assert again.exit_code == 1 and "not a player's move" in again.stderr
