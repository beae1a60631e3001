"""gm takeback: the game master undoes a game's last move now (RULINGS G9), as an agreed takeback
by mail does (gm.service.play.takebacks); recorded with who (--by) and why (-m, required), and
every player is told."""

from __future__ import annotations

from typing import Optional

import typer

from gm.cli.common import BY, WHY, app, open_engine, run


@app.command()
def takeback(game_id: str, why: Optional[str] = WHY, by: Optional[str] = BY):
    """Undo the last move now; it is that player's turn again (RULINGS G9): gm takeback ID -m REASON."""
    from gm.service.play import takebacks

    typer.echo(run(takebacks.gm_takeback, open_engine(), game_id, who=by, why=why))
