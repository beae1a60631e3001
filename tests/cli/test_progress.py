"""Long CLI work (gm store copy, gm backup, gm archive build, gm verify of every game) counts on a
terminal and stays quiet when piped."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gm.cli import app
from gm.core.config import Config
from gm.service.engine import Engine
from gm.store import Store
from support import Clock, play_game

GM = str(Path(sys.executable).with_name("gm"))
COMMANDS = {  # each long command, and a word of its progress line
    "store copy": (lambda src, out: ["store", "copy", src, out / "copy.sqlite"], "verifying g1"),
    "backup": (lambda src, out: ["backup", out / "saved.sqlite"], "pages"),
    "archive build": (lambda src, out: ["archive", "build", out / "site"], "reading g1"),
    "verify": (lambda src, out: ["verify"], "verifying g1"),
}


@pytest.fixture
def played(tmp_path):
    """A gm.yaml and its SQLite store with two games."""
    config = Config(data_dir=tmp_path / "data", address="gm@localhost")
    engine = Engine(Store(config.database), config, clock=Clock())
    play_game(engine, "neighbors", "g0", seed=1, max_steps=4)
    play_game(engine, "phalanx", "g1", seed=2, max_steps=4)
    engine.close()
    path = tmp_path / "gm.yaml"
    path.write_text(f"data_dir: {tmp_path / 'data'}\naddress: gm@localhost\n")
    return path, config.database


def on_a_terminal(args: list[str]) -> tuple[int, str, str]:
    """Run gm with its stderr on a pseudo-terminal, stdout on a pipe: (exit status, stdout, the terminal's text)."""
    master, slave = pty.openpty()
    process = subprocess.Popen([GM, *map(str, args)], stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    seen = b""
    while True:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: the child has gone and the terminal is closed
                break
            if not chunk:
                break
            seen += chunk
        elif process.poll() is not None:
            break
    os.close(master)
    out = process.stdout.read().decode()
    return process.wait(timeout=60), out, seen.decode()


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_long_work_counts_on_a_terminal_and_is_quiet_when_piped(played, tmp_path, command):
    path, source = played
    make_args, word = COMMANDS[command]
    status, out, terminal = on_a_terminal(["--config", path, *make_args(source, tmp_path / "tty")])
    assert status == 0, out + terminal
    assert word in terminal and "\r" in terminal  # a counter, rewritten in place
    assert word not in out and "\r" not in out  # what a script reads stays the result
    piped = CliRunner().invoke(app, ["--config", str(path), *map(str, make_args(source, tmp_path / "piped"))])
    assert piped.exit_code == 0, piped.output
    assert word not in piped.output and "\r" not in piped.output


def test_gm_verify_without_a_game_verifies_every_game(played):
    path, _ = played
    result = CliRunner().invoke(app, ["--config", str(path), "verify"])
    assert result.exit_code == 0, result.output
    assert "game g0:" in result.output and "game g1:" in result.output
    assert result.output.endswith("2 of 2 games verified\n")
