"""gm export: a game's record as the GM has it, JSON or text, printed or written to a file."""

from __future__ import annotations

import json

import jsonschema
from typer.testing import CliRunner

from gm.cli import app
from gm.present import recordtext
from support import EXAMPLE_LAYOUT

runner = CliRunner()


def gm(conf, *args):
    return runner.invoke(app, ["--config", conf, *args])


def test_gm_export_prints_the_record_as_json_or_text_and_writes_a_file(tmp_path):
    conf = tmp_path / "gm.yaml"
    conf.write_text(f"data_dir: {tmp_path / 'data'}\naddress: gm@localhost\n")
    conf = str(conf)
    made = gm(conf, "new", "neighbors", "--id", "nb1", "--player", "ada=ada@example.org",
              "--player", "bob=bob@example.org", "--seed", "3", "--option", f"layout={EXAMPLE_LAYOUT}")
    assert made.exit_code == 0, made.output
    assert gm(conf, "order", "nb1", "--as", "ada", "Rb4xd4").exit_code == 0
    printed = gm(conf, "export", "nb1")
    assert printed.exit_code == 0, printed.output
    record = json.loads(printed.output)
    jsonschema.validate(record, recordtext.schema(), cls=jsonschema.Draft202012Validator)
    assert record["view"] == "gm" and [m["text"] for m in record["moves"]] == ["b4xd4"]
    assert "ada@example.org" not in printed.output
    text = gm(conf, "export", "nb1", "--format", "text")
    assert text.exit_code == 0 and '[Game "nb1"]' in text.output and "1.   ada: b4xd4" in text.output
    out = tmp_path / "nb1.txt"
    written = gm(conf, "export", "nb1", "--format", "text", "--out", str(out))
    assert written.exit_code == 0 and out.read_text() == text.output and str(out) in written.output
    bad = gm(conf, "export", "nb1", "--format", "pgn")
    assert bad.exit_code == 1 and "json or text" in bad.output
    missing = gm(conf, "export", "zz")
    assert missing.exit_code == 1 and "no game called 'zz'" in missing.output
