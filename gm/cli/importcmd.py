"""gm import: a game record (its JSON form, as gm export writes it) replayed into a new game
through the rules (gm.service.records.recordimport), at the addresses the GM gives."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import List, Optional

import typer

from gm.cli.common import BY, app, echo, fail, open_engine, parse_pairs, run


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
