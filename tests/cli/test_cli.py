"""The GM's command line, run as a GM runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from support import EXAMPLE_LAYOUT, eml
from gm.cli import app

runner = CliRunner()


@pytest.fixture
def conf(tmp_path):
    path = tmp_path / "gm.yaml"
    path.write_text(f"data_dir: {tmp_path / 'data'}\naddress: gm@localhost\n")
    return str(path)


def gm(conf, *args):
    result = runner.invoke(app, ["--config", conf, *args])
    return result


def new_game(conf, *extra):
    return gm(conf, "new", "neighbors", "--id", "nb1", "--player", "ada=ada@example.org",
              "--player", "bob=bob@example.org", "--seed", "3", *extra)


def test_new_list_show_json_contract(conf):
    result = new_game(conf, "--option", f"layout={EXAMPLE_LAYOUT}", "--option", "neighbors_rule=true")
    assert result.exit_code == 0, result.output
    listing = gm(conf, "list")
    assert "nb1" in listing.output and "neighbors" in listing.output and "active" in listing.output
    shown = json.loads(gm(conf, "show", "nb1", "--json").output)
    assert shown["id"] == "nb1" and shown["kind"] == "neighbors" and shown["status"] == "active"
    assert shown["turn"] == 1 and shown["to_move"] == ["ada"] and shown["winners"] == []
    assert [p["name"] for p in shown["players"]] == ["ada", "bob"]
    assert all(p["score"] == 0 and p["email"].endswith("@example.org") for p in shown["players"])
    # Counted by hand on the example before Rb4xd4: 14 captures (13 after it).
    assert "b4xd4" in shown["legal"] and len(shown["legal"]) == 14
    assert shown["state"]["neighbors_rule"] is True
    text = gm(conf, "show", "nb1").output
    assert "Neighbors game nb1, turn 1" in text and " 4  . R . N . B .  4" in text
    outbox = gm(conf, "outbox").output
    assert outbox.count("welcome") == 2


def test_gm_order_goes_through_the_rules(conf):
    new_game(conf, "--option", f"layout={EXAMPLE_LAYOUT}")
    bad = gm(conf, "order", "nb1", "--as", "ada", "b2xd4")
    assert bad.exit_code == 1 and "cannot capture" in bad.output
    ok = gm(conf, "order", "nb1", "--as", "ada", "Rb4xd4")
    assert ok.exit_code == 0 and "b4xd4" in ok.output
    shown = json.loads(gm(conf, "show", "nb1", "--json").output)
    assert shown["turn"] == 2 and shown["to_move"] == ["bob"]
    assert shown["players"][0]["score"] == 1  # ada leads the knights 1-0
    unknown = gm(conf, "order", "nb1", "--as", "carol", "d2xd4")
    assert unknown.exit_code == 1 and "no player 'carol'" in unknown.output


def test_bad_gm_commands_are_refused_clearly(conf):
    assert "no game called 'zz'" in gm(conf, "show", "zz").output
    bad_option = new_game(conf, "--option", "colour=red")
    assert bad_option.exit_code == 1 and "unknown option 'colour'" in bad_option.output
    bad_kind = gm(conf, "new", "chess", "--id", "c1", "--player", "a=a@x", "--player", "b=b@x")
    assert bad_kind.exit_code == 1 and "no game called 'chess'" in bad_kind.output
    one = gm(conf, "new", "neighbors", "--id", "n2", "--player", "a=a@x")
    assert one.exit_code == 1 and "2 to 6 players" in one.output
    assert new_game(conf).exit_code == 0
    again = new_game(conf)
    assert again.exit_code == 1 and "already a game nb1" in again.output


def _gm_process(conf, *args, stdin=b""):
    env = {**os.environ, "GM_CONFIG": conf}
    return subprocess.run([sys.executable, "-m", "gm.cli", *args], input=stdin, env=env,
                          capture_output=True, timeout=60)


def test_ingest_exit_codes(conf, tmp_path):
    new_game(conf, "--option", f"layout={EXAMPLE_LAYOUT}")
    # Garbage is stored and answered (or ignored): exit 0, never a traceback.
    done = _gm_process(conf, "ingest", "-", stdin=b"\xff\xfe\x00not mail at all")
    assert done.returncode == 0 and b"Traceback" not in done.stderr
    # A message that cannot be stored (the database is unwritable): 75 so the MTA retries.
    broken = tmp_path / "broken.yaml"
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where a directory must be")
    broken.write_text(f"data_dir: {blocker / 'data'}\n")
    failed = _gm_process(str(broken), "ingest", "-", stdin=b"Subject: x\n\nhello")
    assert failed.returncode == 75 and b"Traceback" not in failed.stderr
    missing = _gm_process(conf, "ingest", str(tmp_path / "nope.eml"))
    assert missing.returncode == 75


def test_ingest_from_file_applies_an_order(conf, tmp_path):
    from gm.core.config import load
    from gm.service.engine import Engine
    from gm.store import Store

    new_game(conf, "--option", f"layout={EXAMPLE_LAYOUT}")
    # Learn ada's password the way a test can: reset it to a known one.
    from gm.core.passwords import hash_password
    engine = Engine(Store(load(conf).database), load(conf))
    with engine.store.write():
        engine.store.update("players", {"game_id": "nb1", "name": "ada"}, pw_hash=hash_password("sesame"))
    message = tmp_path / "order.eml"
    message.write_bytes(eml("plain.eml", game="nb1", password="sesame"))
    result = _gm_process(conf, "ingest", str(message))
    assert result.returncode == 0, result.stderr
    # Pipe mode: the outcome is the one line on stderr, which the MTA reports; stdout stays empty.
    assert result.stderr.startswith(b"applied") and result.stderr.count(b"\n") == 1 and result.stdout == b""
    assert json.loads(gm(conf, "show", "nb1", "--json").output)["turn"] == 2


def test_demo_plays_a_whole_game_through_the_maildirs(conf, tmp_path):
    result = gm(conf, "demo", "--seed", "4")
    assert result.exit_code == 0, result.output
    assert "The game is over." in result.output
    shown = json.loads(gm(conf, "show", "demo1", "--json").output)
    assert shown["status"] == "finished" and shown["winners"]
    outbox_files = list((tmp_path / "data" / "outbox" / "new").iterdir())
    reports = [p for p in outbox_files if b"final report" in p.read_bytes()]
    assert len(reports) == 2  # the last report went to both players
    inbox_done = list((tmp_path / "data" / "inbox" / "cur").iterdir())
    assert len(inbox_done) == shown["turn"] - 1  # one order mail per capture


def test_open_start_and_observers_from_the_command_line(conf):
    result = gm(conf, "new", "neighbors", "--id", "nb7", "--open", "3", "--min", "2", "--seed", "3")
    assert result.exit_code == 0 and "nb7 is open: 3 seats" in result.output, result.output
    assert gm(conf, "new", "neighbors", "--id", "nb8", "--open", "3",
              "--player", "ada=ada@example.org").exit_code == 1
    assert gm(conf, "new", "neighbors", "--id", "nb8", "--open", "9").exit_code == 1
    listing = gm(conf, "list")
    assert "nb7" in listing.output and "open" in listing.output and "turn -" in listing.output
    refused = gm(conf, "start", "nb7")
    assert refused.exit_code == 1 and "needs 2 to start" in refused.output
    assert "observers of nb7: none" in gm(conf, "observers", "nb7").output
    refused = gm(conf, "observers", "nb7", "--approve", "eve@example.net")
    assert refused.exit_code == 1 and "has not asked" in refused.output
