"""gm tournament, run as a GM runs it: new, add, start, show, list, next, withdraw, approve."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from gm.cli import app

runner = CliRunner()


@pytest.fixture
def conf(tmp_path):
    path = tmp_path / "gm.yaml"
    path.write_text(f"data_dir: {tmp_path / 'data'}\naddress: gm@localhost\n")
    return str(path)


def gm(conf, *args):
    return runner.invoke(app, ["--config", conf, "tournament", *args])


def test_a_round_robin_from_the_command_line(conf):
    made = gm(conf, "new", "spring", "--kind", "proximity", "--format", "round-robin", "--rated", "-o",
              "deadline=3d")
    assert made.exit_code == 0 and "tournament spring is open" in made.output, made.output
    added = gm(conf, "add", "spring", "ada=ada@example.org", "bob=bob@example.org", "cy=cy@example.org")
    assert added.exit_code == 0 and added.output.count("entered tournament spring") == 3
    assert gm(conf, "approve", "spring", "ada").exit_code == 1  # entered already, not pending
    started = gm(conf, "start", "spring")
    assert started.exit_code == 0 and "3 rounds" in started.output, started.output
    shown = gm(conf, "show", "spring").output
    assert "Round 1:" in shown and "bye:" in shown and "playing" in shown and "Buchholz" in shown
    assert "@" not in shown
    assert "running" in gm(conf, "list").output
    forced = gm(conf, "next", "spring", "-m", "slow")
    assert forced.exit_code == 0 and "round 2" in forced.output and "still run" in forced.output
    out = gm(conf, "withdraw", "spring", "cy", "-m", "moved away")
    assert out.exit_code == 0 and "cy withdrew" in out.output
    assert "withdrawn in round 2" in gm(conf, "show", "spring").output


def test_refusals_say_why(conf):
    bad = gm(conf, "new", "t", "--kind", "fuzzy-borders", "--format", "swiss", "--rounds", "3")
    assert bad.exit_code == 1 and "--table-size" in bad.output
    assert "no tournament" in gm(conf, "start", "nope").output
    assert "no tournaments yet" in gm(conf, "list").output
