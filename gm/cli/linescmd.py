"""gm lines: the conditional lines standing in a game (RULINGS G8), for the GM's eyes only."""

from __future__ import annotations

from gm.cli.common import app, echo, open_engine, run


@app.command()
def lines(game_id: str) -> None:
    """Print every conditional line (IF ... THEN) standing in a game: whose, and its moves to come."""
    from gm.service.play import conditional
    from gm.service.table import games

    engine = open_engine()
    run(games.load, engine.store, game_id)  # no such game: said as gm says it
    for line in conditional.game_lines(engine, game_id):
        echo(line)
