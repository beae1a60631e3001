"""The plain forms (gm.cli.plain) answer exactly as Typer would, and any other form is Typer's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gm.cli import app, plain
from gm.core import config as config_module
from gm.service.engine import Engine
from gm.store import Store


@pytest.mark.parametrize("args", [
    ["list"], ["-c", "gm.yaml", "-v", "list"], ["show", "nb1"], ["show", "nb1", "--json"],
    ["--config", "gm.yaml", "status", "--json"], ["ingest"], ["-v", "ingest", "mail.eml"], ["ingest", "-"],
    ["--version"],
])
def test_the_plain_forms_are_read_without_typer(args):
    assert plain.read(args) is not None


@pytest.mark.parametrize("args", [
    [], ["--version", "list"], ["-c", "gm.yaml", "--version"], ["list", "--help"], ["--help", "list"], ["show"],
    ["show", "nb1", "nb2"],
    ["show", "nb1", "--jsn"], ["status", "extra"], ["-c", "--json", "list"], ["-c"], ["--log", "list"],
    ["ingest", "--help"], ["ingest", "a", "b"], ["new", "neighbors"], ["list", "-c", "gm.yaml"],
])
def test_any_other_form_is_typers(args):
    assert plain.read(args) is None


@pytest.fixture(scope="module")
def conf(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("plain")
    path = folder / "gm.yaml"
    path.write_text(f"data_dir: {folder / 'data'}\naddress: gm@example.test\n")
    config = config_module.load(path)
    engine = Engine(Store(config.database), config)
    engine.create_game("neighbors", "nb1", [("ada", "ada@example.org"), ("bob", "bob@example.org")], seed=3)
    engine.store.close()
    return path


def plainly(conf: Path, *args: str) -> subprocess.CompletedProcess:
    assert plain.read(["-c", str(conf), *args]) is not None
    env = {k: v for k, v in os.environ.items() if k != "GM_CONFIG"}
    return subprocess.run([sys.executable, "-m", "gm.cli", "-c", str(conf), *args], capture_output=True,
                          text=True, env=env, timeout=120)


@pytest.mark.parametrize("args", [["list"], ["show", "nb1"], ["show", "nb1", "--json"], ["show", "nosuch"]])
def test_a_plain_form_prints_and_exits_as_typer_does(conf, args):
    by_typer = CliRunner().invoke(app, ["-c", str(conf), *args])
    done = plainly(conf, *args)
    assert (done.returncode, done.stdout + done.stderr) == (by_typer.exit_code, by_typer.output)
    assert ("nb1" in done.stdout) == (args[-1] != "nosuch")


def test_the_version_by_its_plain_form_is_what_typer_prints():
    by_typer = CliRunner().invoke(app, ["--version"])
    env = {k: v for k, v in os.environ.items() if k != "GM_CONFIG"}
    done = subprocess.run([sys.executable, "-m", "gm.cli", "--version"], capture_output=True, text=True, env=env,
                          timeout=120)
    assert (done.returncode, done.stdout + done.stderr) == (by_typer.exit_code, by_typer.output)
    assert done.stdout.startswith("gm ") and done.stdout.strip() != "gm"


def test_status_by_its_plain_form_says_the_same_health(conf):
    by_typer = CliRunner().invoke(app, ["-c", str(conf), "status"])
    done = plainly(conf, "status")
    assert done.returncode == by_typer.exit_code
    assert done.stdout.splitlines()[0] == by_typer.output.splitlines()[0]


def test_an_order_by_a_plain_ingest_is_stored_and_logged_before_its_process_ends(tmp_path):
    """The plain form's process ends without the interpreter's teardown (gm.cli.ended_now): what
    it wrote is all there, the store's judging, the outcome line and the log file's lines."""
    from support import order_mail

    path = tmp_path / "gm.yaml"
    path.write_text(f"data_dir: {tmp_path / 'data'}\naddress: gm@example.test\n")
    config = config_module.load(path)
    engine = Engine(Store(config.database), config)
    passwords = engine.create_game("neighbors", "nb2", [("ada", "ada@example.org"), ("bob", "bob@example.org")],
                                   seed=5)
    view = engine.load("nb2")
    (mover,) = view.rules.to_move(view.state)
    order = view.rules.legal_orders(view.state, mover)[0]
    engine.store.close()
    mail = order_mail(f"{mover}@example.org", order, game_id="nb2", password=passwords[mover])
    env = {k: v for k, v in os.environ.items() if k != "GM_CONFIG"}
    done = subprocess.run([sys.executable, "-m", "gm.cli", "-c", str(path), "-v", "ingest", "-"], input=mail,
                          capture_output=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr.decode().startswith("applied: ")
    engine = Engine(Store(config.database), config)
    assert engine.load("nb2").turn == view.turn + 1
    engine.store.close()
    assert "ingest: applied" in (config.data_dir / "gm.log").read_text()


@pytest.mark.parametrize("entry, torn_down", [("console", False), ("main", True)])
def test_only_the_installed_command_skips_the_teardown_after_a_plain_form(conf, entry, torn_down):
    """gm.cli.console ends a plain form's process at once; gm.cli.main, for callers in-process,
    returns by SystemExit, and the interpreter's exit runs as it always does."""
    probe = ("import atexit, sys\natexit.register(print, 'TORN DOWN')\n"
             f"sys.argv = ['gm', '-c', {str(conf)!r}, 'list']\nfrom gm.cli import {entry}\n{entry}()\n")
    env = {k: v for k, v in os.environ.items() if k != "GM_CONFIG"}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "nb1" in done.stdout
    assert ("TORN DOWN" in done.stdout) == torn_down
