"""gm export: a game's record (gm.service.records.gamerecord) as JSON or as text, the GM's whole
view of it, running or finished: printed, or written to a file."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from gm.cli.common import app, echo, fail, open_engine, run

FORMATS = ("json", "text")


@app.command()
def export(game_id: str,
           format: str = typer.Option("json", "--format", help="json (the record, docs/records.md) or text"),
           out: Optional[Path] = typer.Option(None, "--out", help="write it to this file, not the output")) -> None:
    """Print (or write) a game's record, every move with its time and origin: gm export ID."""
    import json

    from gm.present import recordtext
    from gm.service.records import gamerecord

    if format not in FORMATS:
        fail(f"--format is json or text, not {format!r}")
    record = run(gamerecord.build, open_engine(create=False), game_id, gm=True)
    text = (json.dumps(record, indent=1, ensure_ascii=False) + "\n" if format == "json"
            else recordtext.render(record))
    if out is None:
        echo(text, nl=False)
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror or exc}")
    echo(f"The record of game {record['game']['id']} is in {out} ({len(record['moves'])} moves).")
