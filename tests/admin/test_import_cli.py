"""gm import FILE --id NEW --player NAME=ADDRESS as the GM types it: an export imported on a real
store is a new game that gm verify finds OK; a record that is not JSON, or a seat without an
address, is refused with exit status 1 and nothing made."""

from __future__ import annotations

from admin_helpers import neighbors_move, run_gm as gm
from gm.service.engine import Engine
from gm.core.config import Config


def test_an_export_imports_under_a_new_id_and_verifies(conf, store, tmp_path):
    made = gm(conf, "new", "neighbors", "--id", "nb1", "--seed", "3",
              "--player", "ada=ada@example.org", "--player", "bob=bob@example.org")
    assert made.exit_code == 0, made.stderr
    engine = Engine(store, Config(data_dir=tmp_path / "data"))
    for _ in range(3):
        mover, text = neighbors_move(engine, "nb1")
        assert gm(conf, "order", "nb1", text, "--as", mover, "-m", "test").exit_code == 0
    record = tmp_path / "nb1.json"
    assert gm(conf, "export", "nb1", "--out", str(record)).exit_code == 0
    alone = gm(conf, "import", str(record), "--id", "nb2", "--player", "ada=ada@elsewhere.test")
    assert alone.exit_code == 1 and "every seat needs an address" in alone.stderr and "bob" in alone.stderr
    text = tmp_path / "nb1.txt"
    text.write_text(gm(conf, "export", "nb1", "--format", "text").stdout)
    refused = gm(conf, "import", str(text), "--id", "nb2", "-p", "ada=a@x.test", "-p", "bob=b@x.test")
    assert refused.exit_code == 1 and "not a game record in JSON" in refused.stderr
    assert gm(conf, "show", "nb2").exit_code == 1  # nothing made
    done = gm(conf, "import", str(record), "--id", "nb2", "-p", "ada=Ada <ada@elsewhere.test>",
              "-p", "bob=bob@elsewhere.test")
    assert done.exit_code == 0, done.stderr
    assert "game nb2 imported: 4 states replayed, running, unrated; nothing mailed" in done.stdout
    verified = gm(conf, "verify", "nb2")
    assert verified.exit_code == 0 and "OK" in verified.stdout, verified.stdout
    assert gm(conf, "show", "nb2").stdout.split("\n")[1:] == gm(conf, "show", "nb1").stdout.split("\n")[1:]
    assert "import" in gm(conf, "history", "nb2", "--log").stdout
