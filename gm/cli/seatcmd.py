"""gm seat reset / gm seat address: the game master's hand on a seat's credentials.

Both go through gm.service.people.credentials like a player's own PASSWORD RESET and
SET ADDRESS, mail the registered (or old) address, and are recorded in the
game's history with who (--by) and why (-m, required).  To give a seat to
another player, gm replace.
"""

from __future__ import annotations

from typing import Optional

import typer

from gm.cli.common import BY, HELP_STYLE, WHY, app, open_engine, run

seat_app = typer.Typer(no_args_is_help=True, rich_markup_mode=HELP_STYLE,
                       help="A seat's password and address (the player keeps the seat).")
app.add_typer(seat_app, name="seat")


@seat_app.command("reset")
def reset(game_id: str, name: str, why: Optional[str] = WHY, by: Optional[str] = BY):
    """A new password for a seat, mailed to its registered address: gm seat reset ID NAME -m REASON."""
    from gm.service.play import lifecycle

    typer.echo(run(lifecycle.reset_seat, open_engine(), game_id, name, who=by, why=why))


@seat_app.command("address")
def address(game_id: str, name: str, email: str, why: Optional[str] = WHY, by: Optional[str] = BY):
    """Move a seat to a new address now, with a new password mailed there; the old address is told:
    gm seat address ID NAME NEW -m REASON."""
    from gm.service.play import lifecycle

    typer.echo(run(lifecycle.readdress_seat, open_engine(), game_id, name, email, who=by, why=why))
