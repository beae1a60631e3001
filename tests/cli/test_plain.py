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
])
def test_the_plain_forms_are_read_without_typer(args):
    assert plain.read(args) is not None


@pytest.mark.parametrize("args", [
    [], ["--version"], ["list", "--help"], ["--help", "list"], ["show"], ["show", "nb1", "nb2"],
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


def test_status_by_its_plain_form_says_the_same_health(conf):
    by_typer = CliRunner().invoke(app, ["-c", str(conf), "status"])
    done = plainly(conf, "status")
    assert done.returncode == by_typer.exit_code
    assert done.stdout.splitlines()[0] == by_typer.output.splitlines()[0]
