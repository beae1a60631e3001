"""gm export: a game's record (gm.service.table.gamerecord) as JSON or as text, the GM's whole
view of it, running or finished: printed, or written to a file.  gm import: a record's JSON
replayed into a new game through the rules (gm.service.records.recordimport)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import List, Optional

import typer

from gm.cli.common import BY, app, echo, fail, open_engine, parse_pairs, run

FORMATS = ("json", "text")


@app.command()
def export(game_id: str,
           format: str = typer.Option("json", "--format", help="json (the record, docs/records.md) or text"),
           out: Optional[Path] = typer.Option(None, "--out", help="write it to this file, not the output")) -> None:
    """Print (or write) a game's record, every move with its time and origin: gm export ID."""
    import json

    from gm.present import recordtext
    from gm.service.table import gamerecord

    if format not in FORMATS:
        fail(f"--format is json or text, not {format!r}")
    record = run(gamerecord.build, open_engine(create=False).store, game_id, gm=True)
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


@app.command("import")
def import_record(
    file: Path = typer.Argument(..., help="the record's JSON form (gm export ID --format json); - reads "
                                "standard input"),
    game_id: str = typer.Option(..., "--id", help="the new game's id, e.g. nb9"),
    player: List[str] = typer.Option([], "--player", "-p", help="NAME=ADDRESS for every seat the record "
                                     "names (a record holds no address)"),
    welcome: bool = typer.Option(False, "--welcome", help="mail each seat still in a running game a "
                                 "welcome with its password and the report (without it nothing is "
                                 "mailed: gm seat reset ID NAME mails a seat its password)"),
    by: Optional[str] = BY,
):
    """Replay a game record into a new game: the kind, options, seed and players of the record,
    every move judged again by the rules at its recorded time (RULINGS G1) and checked against
    the record's positions.  Refused whole, nothing stored, at the first move that does not
    follow (its turn and why), or when a seat has no --player.  The game is unrated whatever
    the record says; a finished record makes a finished game; gm verify checks it."""
    from gm.service.play import roster
    from gm.service.play.overrides import default_actor
    from gm.service.records import recordimport

    try:
        text = sys.stdin.buffer.read() if str(file) == "-" else file.read_bytes()
    except OSError as exc:
        fail(f"cannot read {file}: {exc.strerror or exc}")
    seats = run(roster.check_players, parse_pairs(player, "--player"))
    addresses = {name: (address, shown) for name, address, shown in seats}
    done = run(recordimport.import_file, open_engine(), text, game_id, addresses, welcome,
               by or default_actor())
    echo(done.text(), nl=False)
