"""Pipe mode: `gm ingest` as Postfix runs it, by the recipe in deploy/postfix/master.cf.

An MTA runs the command with an empty environment from a folder of its own.  Each test here
runs it that way (`env -i`, cwd=/): the order is applied and stored with the config given by
absolute path; without a config, or with a store that is not there, it exits 75 with one line on
stderr and makes nothing.  stderr is one line per mail; tracebacks go to the log file.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from support import EXAMPLE_LAYOUT, eml
from gm.cli import app
from gm.core import config as config_module
from gm.core.passwords import hash_password
from gm.service.engine import Engine
from gm.store import Store

REPO = Path(__file__).resolve().parents[1]
RECIPE = REPO / "deploy" / "postfix" / "master.cf"
GM = Path(sys.executable).with_name("gm")  # the venv's gm command, as the recipe's /opt/gm/.venv/bin/gm
runner = CliRunner()


def recipe_argv(config: Path | None) -> list[str]:
    """The argv= of the recipe's pipe transport, with this machine's gm and ``config``."""
    text = " ".join(line.strip() for line in RECIPE.read_text().splitlines() if not line.startswith("#"))
    assert "flags=DRhu" in text and "user=gm" in text
    argv = shlex.split(text.split("argv=", 1)[1])
    assert argv[1:3] == ["--config", "/etc/gm/gm.yaml"] and argv[3:] == ["ingest", "-"]
    assert Path(argv[0]).is_absolute() and Path(argv[2]).is_absolute()
    argv[0] = str(GM)
    if config is None:
        return [argv[0], *argv[3:]]
    argv[2] = str(config)
    return argv


def postfix_runs(argv: list[str], mail: bytes) -> subprocess.CompletedProcess:
    """As pipe(8) runs it: an empty environment (env -i), from another folder."""
    return subprocess.run(["env", "-i", *argv], input=mail, cwd="/", capture_output=True, timeout=60)


def game_with_known_password(tmp_path: Path) -> Path:
    """A config with a relative data_dir (read against the config's folder) and a game nb1 whose
    ada has the password sesame."""
    conf = tmp_path / "etc" / "gm.yaml"
    conf.parent.mkdir()
    conf.write_text("data_dir: data\naddress: gm@localhost\n")
    made = runner.invoke(app, ["--config", str(conf), "new", "neighbors", "--id", "nb1", "--player",
                               "ada=ada@example.org", "--player", "bob=bob@example.org", "--seed", "3",
                               "--option", f"layout={EXAMPLE_LAYOUT}"])
    assert made.exit_code == 0, made.output
    config = config_module.load(conf)
    assert config.database == tmp_path / "etc" / "data" / "gm.sqlite"  # the config's folder, not the cwd
    engine = Engine(Store(config.database), config)
    with engine.store.write():
        engine.store.update("players", {"game_id": "nb1", "name": "ada"}, pw_hash=hash_password("sesame"))
    engine.store.close()
    return conf


def test_the_postfix_recipe_applies_and_stores_an_order(tmp_path):
    conf = game_with_known_password(tmp_path)
    done = postfix_runs(recipe_argv(conf), eml("plain.eml", game="nb1", password="sesame"))
    assert done.returncode == 0, done.stderr
    assert done.stdout == b""
    assert done.stderr.startswith(b"applied: ") and done.stderr.count(b"\n") == 1
    config = config_module.load(conf)
    engine = Engine(Store(config.database), config)
    try:
        assert engine.load("nb1").rules.turn(engine.load("nb1").state) == 2
        (row,) = engine.store.all("SELECT outcome FROM messages")
        assert row["outcome"] == "applied"
        # The replies wait in the store for gm run to send (pipe mode sends nothing itself).
        assert engine.store.one("SELECT COUNT(*) AS n FROM outbox WHERE status = 'queued'")["n"] > 0
    finally:
        engine.store.close()


def test_without_a_config_ingest_exits_75_and_makes_nothing(tmp_path):
    before = sorted(p.name for p in Path("/").iterdir())
    refused = postfix_runs(recipe_argv(None), eml("plain.eml", game="nb1", password="sesame"))
    assert refused.returncode == 75
    assert refused.stderr.count(b"\n") == 1 and b"Traceback" not in refused.stderr
    assert b"no store" in refused.stderr and b"--config" in refused.stderr
    assert sorted(p.name for p in Path("/").iterdir()) == before  # no /gm-data made


def test_with_a_missing_store_ingest_exits_75_and_makes_nothing(tmp_path):
    conf = tmp_path / "gm.yaml"
    conf.write_text("data_dir: data\n")
    refused = postfix_runs(recipe_argv(conf), eml("plain.eml", game="nb1", password="sesame"))
    assert refused.returncode == 75
    assert refused.stderr.count(b"\n") == 1 and b"no store at" in refused.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gm.yaml"]  # no data folder, no store, no log


def test_a_config_error_is_one_line_and_75(tmp_path):
    conf = tmp_path / "gm.yaml"
    conf.write_text("max_message_bytes: ten\npoll_seconds: -5\ninbox: /nonexistent/inbox\n")
    refused = postfix_runs(recipe_argv(conf), b"Subject: x\n\nhello\n")
    assert refused.returncode == 75 and refused.stderr.count(b"\n") == 1
    for key in (b"max_message_bytes", b"poll_seconds", b"inbox"):
        assert key in refused.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gm.yaml"]


def test_stderr_is_one_line_and_the_traceback_goes_to_the_log(tmp_path, breaking_reader):
    conf = game_with_known_password(tmp_path)
    mail = eml("plain.eml", game="nb1", password="sesame").replace(b"Subject:", b"X-Trigger: BOOM\nSubject:", 1)
    result = runner.invoke(app, ["--config", str(conf), "ingest", "-"], input=mail)
    assert result.exit_code == 0, result.output  # stored (set aside with its error): the MTA is done
    assert result.stdout == "" and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    log = (tmp_path / "etc" / "data" / "gm.log").read_text()
    assert "Traceback" in log and "the reader broke" in log
    assert (tmp_path / "etc" / "data" / "gm.log").stat().st_mode & 0o077 == 0  # gm's files are its own


def test_gm_init_makes_the_store_that_ingest_then_uses(tmp_path):
    conf = tmp_path / "gm.yaml"
    conf.write_text("data_dir: data\n")
    made = runner.invoke(app, ["--config", str(conf), "init"])
    assert made.exit_code == 0 and "store ready" in made.output
    assert (tmp_path / "data" / "gm.sqlite").is_file()
    done = postfix_runs(recipe_argv(conf), b"From: ada@example.org\nSubject: help\n\nhelp\n")
    assert done.returncode == 0, done.stderr


def test_a_postgresql_store_is_never_made_by_ingest(tmp_path, pg_url):
    import psycopg

    conf = tmp_path / "gm.yaml"
    conf.write_text(f"data_dir: {tmp_path}\nstore: {pg_url}\n")
    refused = postfix_runs(recipe_argv(conf), b"From: ada@example.org\nSubject: help\n\nhelp\n")
    assert refused.returncode == 75, refused.stderr
    assert refused.stderr.count(b"\n") == 1 and b"no gm store in" in refused.stderr
    with psycopg.connect(pg_url) as conn:  # the schema is as empty as it was
        assert conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()").fetchone()[0] == 0
    assert runner.invoke(app, ["--config", str(conf), "init"]).exit_code == 0
    done = postfix_runs(recipe_argv(conf), b"From: ada@example.org\nSubject: help\n\nhelp\n")
    assert done.returncode == 0, done.stderr
