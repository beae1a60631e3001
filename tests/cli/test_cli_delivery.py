"""gm outbox, gm players [--bouncing] and gm deliveries ADDRESS, run as a GM runs them."""

from __future__ import annotations

from typer.testing import CliRunner

from bounce_fixtures import bounce, outbox_row
from gm.cli import app
from gm.core import config as config_module
from gm.service.engine import Engine
from gm.store import Store

runner = CliRunner()


def gm(conf, *args):
    result = runner.invoke(app, ["--config", conf, *args])
    assert result.exit_code == 0, result.output
    return result.output


def neighbors_game(tmp_path, extra: str = "") -> str:
    """A config (with ``extra`` lines) and a Neighbors game nb1 of ada and bob made by `gm new`."""
    conf = tmp_path / "gm.yaml"
    conf.write_text(f"data_dir: {tmp_path / 'data'}\naddress: gm@example.test\n{extra}")
    gm(str(conf), "new", "neighbors", "--id", "nb1", "--player", "ada=ada@example.org",
       "--player", "bob=bob@example.org", "--seed", "3")
    return str(conf)


def test_a_bounce_shows_in_outbox_players_and_deliveries(tmp_path):
    conf = neighbors_game(tmp_path, "gm_address: referee@example.test\n")
    assert "no address is bouncing" in gm(conf, "players", "--bouncing")
    config = config_module.load(conf)
    engine = Engine(Store(config.database), config)
    try:
        row = outbox_row(engine.store, "bob@example.org", "welcome")
        message = tmp_path / "bounce.eml"
        message.write_bytes(bounce("postfix", row, engine.verp))
    finally:
        engine.store.close()
    assert "bounce of outbox" in gm(conf, "ingest", str(message))

    listing = gm(conf, "outbox").splitlines()
    (line,) = [i for i, text in enumerate(listing) if text.startswith(f"#{row['id']} ")]
    assert " bounced " in listing[line] and "550 5.1.1" in listing[line + 1]
    assert any(" queued " in text and "referee@example.test" in text for text in listing)

    everyone = gm(conf, "players")
    assert "bob@example.org" in everyone and "bouncing since" in everyone
    assert [text for text in everyone.splitlines() if "ada@" in text][0].rstrip().endswith("ok")
    bouncing = gm(conf, "players", "--bouncing")
    assert "bob@example.org  bouncing since" in bouncing and "(bob in nb1)" in bouncing
    assert "User unknown in virtual mailbox table" in bouncing

    history = gm(conf, "deliveries", "bob@example.org")
    assert history.startswith("bob@example.org: bouncing since")
    assert f"permanent bounce outbox #{row['id']} '[gm nb1] Welcome to Neighbors'" in history
    assert "smtp; 550 5.1.1 <bob@example.org>" in history
    assert gm(conf, "deliveries", "ada@example.org").strip() == "ada@example.org: ok (no failure recorded)"


def test_the_bouncing_option_is_a_setting(tmp_path):
    conf = neighbors_game(tmp_path)
    assert "bouncing     wait" in gm(conf, "settings", "nb1")
    assert "bouncing     proceed" in gm(conf, "settings", "nb1", "bouncing=proceed", "-m", "test")
    refused = runner.invoke(app, ["--config", conf, "settings", "nb1", "bouncing=maybe", "-m", "test"])
    assert refused.exit_code != 0 and "wait or proceed" in refused.output
