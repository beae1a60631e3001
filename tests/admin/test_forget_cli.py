"""gm forget ADDRESS -m WHY as the GM types it: refused without a reason and while the address
plays a running game; done once the game is over, and gm verify OK after it."""

from __future__ import annotations

from admin_helpers import run_gm as gm


def test_gm_forget_needs_a_reason_and_a_finished_game(conf, store):
    made = gm(conf, "new", "neighbors", "--id", "nb1", "--seed", "3",
              "--player", "ada=ada@example.org", "--player", "bob=bob@example.org")
    assert made.exit_code == 0, made.stderr
    assert gm(conf, "forget", "ada@example.org").exit_code == 1  # no reason given
    running = gm(conf, "forget", "ada@example.org", "-m", "asked by phone")
    assert running.exit_code == 1 and "nb1" in running.stderr and "resign" in running.stderr
    assert gm(conf, "end", "nb1", "-m", "stopped").exit_code == 0
    done = gm(conf, "forget", "Ada@Example.org", "-m", "asked by phone")
    assert done.exit_code == 0, done.stderr
    assert "forgotten-" in done.stdout and "@invalid" in done.stdout
    assert "ada@example.org" not in gm(conf, "players", "nb1").stdout.lower()
    verified = gm(conf, "verify", "nb1")
    assert verified.exit_code == 0 and "OK" in verified.stdout, verified.stdout
