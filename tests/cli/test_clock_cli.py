"""`gm clock`, `gm show` and `gm options` for correspondence clocks (RULINGS G10)."""

from __future__ import annotations

from typer.testing import CliRunner

from gm.cli import app

runner = CliRunner()


def gm(conf, *args):
    return runner.invoke(app, ["--config", str(conf), *args], env={"GM_USER": "tester"})


def new_game(conf, clock="2d+1d/5d"):
    return gm(conf, "new", "neighbors", "--id", "nb1", "--player", "ada=ada@example.org",
              "--player", "bob=bob@example.org", "--seed", "3", "--option", f"clock={clock}")


def test_gm_clock_gives_time_with_a_reason_and_gm_show_says_every_bank(tmp_path):
    conf = tmp_path / "gm.yaml"
    conf.write_text(f"data_dir: {tmp_path / 'data'}\naddress: gm@localhost\n")
    assert new_game(conf).exit_code == 0
    refused = gm(conf, "clock", "nb1", "ada", "+1d")
    assert refused.exit_code != 0 and "reason" in refused.output
    given = gm(conf, "clock", "nb1", "ada", "+1d", "-m", "a power cut")
    assert given.exit_code == 0, given.output
    assert "ada was given 1 day" in given.output and "bob: 2 days left" in given.output
    assert "ada: 3 days left" in given.output or "ada: 2 days 23 hours left" in given.output
    shown = gm(conf, "show", "nb1").output
    assert "Clock (RULINGS G10): 2d+24h/5d" in shown
    assert "bob: 2 days left" in shown and "ada: 2 days 23 hours left, running" in shown \
        or "ada: 3 days left, running" in shown
    history = gm(conf, "history", "nb1").output
    assert "gave ada 1 day" in history and "a power cut" in history


def test_gm_options_lists_the_clock_with_examples(tmp_path):
    conf = tmp_path / "gm.yaml"
    conf.write_text(f"data_dir: {tmp_path / 'data'}\naddress: gm@localhost\n")
    for kind in ("neighbors", "phalanx", "proximity"):
        listed = " ".join(gm(conf, "options", kind).output.split())
        assert "clock" in listed and "3d+1d/10d" in listed, listed


def test_gm_show_json_gives_every_bank_in_seconds(tmp_path):
    import json

    conf = tmp_path / "gm.yaml"
    conf.write_text(f"data_dir: {tmp_path / 'data'}\naddress: gm@localhost\n")
    assert new_game(conf).exit_code == 0
    shown = json.loads(gm(conf, "show", "nb1", "--json").output)
    assert shown["clock"]["option"] == "2d+24h/5d"
    left = shown["clock"]["left"]
    assert set(left) == {"ada", "bob"} and left["bob"] == 2 * 86400.0
    assert 2 * 86400.0 - 3600 < left["ada"] <= 2 * 86400.0  # ada's bank runs, from just now
    plain = tmp_path / "plain.yaml"
    plain.write_text(f"data_dir: {tmp_path / 'plain'}\naddress: gm@localhost\n")
    gm(plain, "new", "neighbors", "--id", "nb2", "--player", "ada=ada@example.org", "--player", "bob=bob@example.org")
    assert json.loads(gm(plain, "show", "nb2", "--json").output)["clock"] is None
