"""The override commands through the real CLI, and the CLI and a running daemon on one database."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from typer.testing import CliRunner

from games import registry
from gm.cli import app
from gm.core.config import Config
from gm.runtime.maildir import ensure_maildir
from gm.service.engine import Engine
from gm.store import Store
from support import PLAYERS, order_mail

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def setup(tmp_path):
    data = tmp_path / "data"
    conf = tmp_path / "gm.yaml"
    conf.write_text(f"data_dir: {data}\npoll_seconds: 0.1\n")
    config = Config(data_dir=data)
    store = Store(config.database)
    engine = Engine(store, config)
    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=11)
    yield conf, engine, secrets
    store.close()


class Result:
    """What a command printed and how it exited, as from a process."""

    def __init__(self, returncode: int, stdout: str, stderr: str):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def gm(conf, *args, check=True, stdin=None):
    """A gm command, run in this process (gm.cli.app has every command)."""
    result = CliRunner().invoke(app, ["--config", str(conf), *args], input=stdin,
                                env={"GM_USER": "tester"})
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    out = Result(result.exit_code, result.stdout, result.stderr)
    if check:
        assert out.returncode == 0, out.stderr
    return out


def gm_process(conf, *args):
    """A gm command in a process of its own, as a second GM at another terminal runs it."""
    env = dict(os.environ, GM_CONFIG=str(conf), GM_USER="tester", PYTHONPATH=str(ROOT))
    result = subprocess.run([sys.executable, "-m", "gm.cli", *args], capture_output=True, text=True,
                            env=env, cwd=str(conf.parent), timeout=60)
    assert result.returncode == 0, result.stderr
    return result


def test_cli_overrides(setup, tmp_path):
    conf, engine, _ = setup
    out = gm(conf, "deadline", "nb1", "+48h", "--why", "slow week").stdout
    assert "deadline of turn 1" in out
    rec = engine.store.all("SELECT * FROM history WHERE action = 'deadline'")[-1]
    assert rec["actor"] == "gm:tester" and "slow week" in rec["detail"]
    bad = gm(conf, "pause", "nope", check=False)
    assert bad.returncode == 1 and "no game called" in bad.stderr
    bad = gm(conf, "rollback", "nb1", "--to", "5", check=False)
    assert bad.returncode == 1 and "future" in bad.stderr
    bad = gm(conf, "eject", "nb1", "zed", check=False)
    assert bad.returncode == 1 and "no player" in bad.stderr
    # An edit the rules refuse changes nothing.
    broken = tmp_path / "bad.json"
    broken.write_text('{"version": 1, "players": ["ada", "bob"], "board": "xx"}')
    seq = engine.load("nb1").seq
    bad = gm(conf, "edit", "nb1", "--file", str(broken), check=False)
    assert bad.returncode == 1 and "refused" in bad.stderr and engine.load("nb1").seq == seq
    gm(conf, "settings", "nb1", "press=grey")
    assert "press        grey" in gm(conf, "settings", "nb1").stdout
    gm(conf, "broadcast", "nb1", "Hello from the CLI")
    assert "Hello from the CLI" in gm(conf, "history", "nb1").stdout
    verify = gm(conf, "verify", "nb1")
    assert "OK" in verify.stdout
    gm(conf, "archive", "build", str(tmp_path / "site"))
    assert (tmp_path / "site" / "game-nb1.html").exists()
    gm(conf, "end", "nb1", "test over")
    assert engine.store.games.game("nb1")["status"] == "finished"


def test_cli_and_daemon_lose_no_update(setup, tmp_path):
    """The daemon applies a stream of order mails while the GM's CLI changes the same game."""
    conf, engine, secrets = setup
    inbox = ensure_maildir(engine.config.inbox)
    rules = registry.get("neighbors")
    loaded = engine.load("nb1")
    state, moves = loaded.state, []
    for _ in range(12):  # a legal line of play, worked out in advance
        (mover,) = rules.to_move(state)
        move = rules.legal_orders(state, mover)[0]
        moves.append((mover, move))
        state = rules.submit(state, mover, rules.parse_order(state, mover, move), 0).state
    env = dict(os.environ, GM_CONFIG=str(conf), PYTHONPATH=str(ROOT))
    daemon = subprocess.Popen([sys.executable, "-m", "gm.cli", "run"], env=env, cwd=str(tmp_path),
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        for i, (mover, move) in enumerate(moves):
            raw = order_mail(dict(PLAYERS)[mover], move, game_id="nb1", password=secrets[mover])
            name = f"{i:03d}.{uuid.uuid4().hex}"
            (inbox / "tmp" / name).write_bytes(raw)
            (inbox / "tmp" / name).rename(inbox / "new" / name)
        # Meanwhile, in this process, the GM keeps changing the same game.
        from gm.service.play import lifecycle as overrides

        for i in range(15):
            overrides.broadcast(engine, "nb1", f"note {i}", who="gm:cli")
            overrides.set_deadline(engine, "nb1", f"+{48 + i}h", who="gm:cli")
        gm_process(conf, "broadcast", "nb1", "from another process")
        deadline = time.time() + 40
        while time.time() < deadline:
            if len(engine.load("nb1").state.moves) == len(moves):
                break
            time.sleep(0.1)
    finally:
        daemon.send_signal(signal.SIGINT)
        try:
            daemon.wait(timeout=10)
        except subprocess.TimeoutExpired:
            daemon.kill()
            daemon.wait()
    assert len(engine.load("nb1").state.moves) == len(moves), daemon.stderr.read().decode()[-2000:]
    notes = engine.store.all("SELECT detail FROM history WHERE game_id = 'nb1' AND action = 'broadcast'")
    assert len(notes) == 16
    assert len(engine.store.all("SELECT * FROM history WHERE action = 'deadline'")) == 15
    applied = engine.store.all("SELECT * FROM messages WHERE outcome = 'applied'")
    assert len(applied) == len(moves)
    # Every state the daemon and the CLI wrote is in one unbroken sequence.
    seqs = [r["seq"] for r in engine.store.all("SELECT seq FROM states WHERE game_id = 'nb1' ORDER BY seq")]
    assert seqs == list(range(len(moves) + 1))


def test_a_screenshot_of_a_missing_page_fails_clearly(setup, tmp_path):
    """Chromium photographs its own error page and exits 0: gm checks the page first."""
    from gm.runtime import browser

    conf, _, _ = setup
    empty, shot = tmp_path / "no-site", tmp_path / "shot.png"
    empty.mkdir()
    out = gm(conf, "archive", "screenshot", str(empty), str(shot), check=False)
    assert out.returncode == 1 and not shot.exists()
    assert out.stderr.strip().splitlines() == [out.stderr.strip()]  # one line...
    assert f"no page {empty / 'index.html'}" in out.stderr  # ...naming the page
    gm(conf, "archive", "build", str(empty))
    out = gm(conf, "archive", "screenshot", str(empty), str(shot), "--page", "game-nb9.html", check=False)
    assert out.returncode == 1 and f"no page {empty / 'game-nb9.html'}" in out.stderr and not shot.exists()
    assert browser.main(["screenshot", str(tmp_path / "nowhere"), str(shot)]) == 1 and not shot.exists()
