"""gm data ADDRESS [--out FILE]: the MY DATA JSON of an address, for the GM."""

from __future__ import annotations

import json
import stat

from typer.testing import CliRunner

from gm.cli import app

runner = CliRunner()


def gm(conf, *args, code: int = 0):
    result = runner.invoke(app, ["--config", conf, *args])
    assert result.exit_code == code, result.output
    return result.output


def test_gm_data_prints_an_address_s_data_and_writes_it_to_a_file_of_its_owner(tmp_path):
    conf = tmp_path / "gm.yaml"
    conf.write_text(f"data_dir: {tmp_path / 'data'}\naddress: gm@example.test\n")
    gm(str(conf), "new", "neighbors", "--id", "nb1", "--player", "ada=ada@example.org",
       "--player", "bob=bob@example.org", "--seed", "3")
    printed = json.loads(gm(str(conf), "data", "ADA@example.org"))
    assert printed["address"] == "ada@example.org"
    assert [(s["game_id"], s["seat"]) for s in printed["seats"]] == [("nb1", "ada")]
    assert [m["kind"] for m in printed["mail_gm_sent_you"]] == ["welcome"]
    assert "bob@example.org" not in json.dumps(printed)
    out = tmp_path / "ada.json"
    assert "wrote" in gm(str(conf), "data", "ada@example.org", "--out", str(out))
    assert json.loads(out.read_text())["seats"] == printed["seats"]
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert "not a mail address" in gm(str(conf), "data", "nobody", code=1)
