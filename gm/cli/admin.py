"""The game master's overrides and deadlines, on the main app.

Every override is recorded in the game's history with who (``--by``, default
gm:$GM_USER or the login name), when and why (``--why``), and mails the
players it affects.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import typer

from gm.cli.common import BY, WHY, app, fail, open_engine, parse_pairs, run
from gm.core import options as game_options
from gm.core import times


@app.command()
def deadline(game_id: str, when: List[str] = typer.Argument(..., metavar="WHEN", help=f"{times.WHEN_FORMS}; "
                                                             "none: no deadline"),
             why: Optional[str] = WHY, by: Optional[str] = BY):
    """Set the deadline of the turn now open: gm deadline ID tomorrow 18:00 -m REASON."""
    from gm.service.play import lifecycle

    typer.echo(run(lifecycle.set_deadline, open_engine(), game_id, " ".join(when), who=by, why=why))


@app.command()
def pause(game_id: str, why: Optional[str] = WHY, by: Optional[str] = BY):
    """Pause a game: no orders, no deadlines until gm resume."""
    from gm.service.play import lifecycle

    typer.echo(run(lifecycle.pause, open_engine(), game_id, who=by, why=why))


@app.command()
def resume(game_id: str, why: Optional[str] = WHY, by: Optional[str] = BY):
    """Resume a paused game (the deadline moves by the time it was paused)."""
    from gm.service.play import lifecycle

    typer.echo(run(lifecycle.resume, open_engine(), game_id, who=by, why=why))


@app.command()
def end(game_id: str,
        reason: Optional[str] = typer.Argument(None, metavar="REASON", show_default=False,
                                               help="the reason, as -m gives it (kept for old scripts)"),
        why: Optional[str] = WHY,
        winner: List[str] = typer.Option([], "--winner", help="declare a winner (repeat for a shared win)"),
        by: Optional[str] = BY):
    """End a game now: gm end ID -m REASON (the reason is required)."""
    from gm.service.play import lifecycle

    if reason is not None and why is not None and reason.strip() != why.strip():
        fail("give the reason once: gm end ID -m REASON")
    why = why if why is not None else reason
    if why is None or not why.strip():
        fail("gm end needs a reason: gm end ID -m REASON")
    typer.echo(run(lifecycle.end, open_engine(), game_id, why, who=by, winners=list(winner)))


@app.command()
def draw(game_id: str, why: Optional[str] = WHY, by: Optional[str] = BY):
    """End a game drawn (RULINGS G6): no winner, the scores as they stand: gm draw ID -m REASON."""
    from gm.service.play import lifecycle

    typer.echo(run(lifecycle.draw, open_engine(), game_id, who=by, why=why))


@app.command()
def concede(game_id: str, name: str, why: Optional[str] = WHY, by: Optional[str] = BY):
    """A player concedes (RULINGS G7): they leave as gm eject says; one left of two or more wins."""
    from gm.service.play import lifecycle

    typer.echo(run(lifecycle.concede, open_engine(), game_id, name, who=by, why=why))


@app.command()
def clock(game_id: str, name: str, amount: str = typer.Argument(..., help="the time to give: +2d, +36h"),
          why: Optional[str] = WHY, by: Optional[str] = BY):
    """Give a player time on the game's correspondence clock (RULINGS G10), e.g.
    gm clock nb1 ada +2d -m "a power cut"; every player is told."""
    from gm.service.play import clocks

    typer.echo(run(clocks.give_time, open_engine(), game_id, name, amount, who=by, why=why))


@app.command()
def rollback(game_id: str, to: int = typer.Option(..., "--to", help="the turn to restore"),
             why: Optional[str] = WHY, by: Optional[str] = BY):
    """Restore the start of a turn, discard later orders, re-open the turn."""
    from gm.service.play import positions

    typer.echo(run(positions.rollback, open_engine(), game_id, to, who=by, why=why))


@app.command()
def replace(game_id: str, name: str, email: str = typer.Option(..., "--email", help="the new player's address"),
            why: Optional[str] = WHY, by: Optional[str] = BY):
    """Give a seat to a new player (new address, new password, a welcome mail); the one who left
    keeps no code or reply address. Refused for an address that holds another seat of the game."""
    from gm.service.play import lifecycle

    typer.echo(run(lifecycle.replace, open_engine(), game_id, name, email, who=by, why=why))


@app.command()
def eject(game_id: str, name: str, why: Optional[str] = WHY, by: Optional[str] = BY):
    """Remove a player, as the game's rules for leaving say; their codes and reply address end."""
    from gm.service.play import lifecycle

    typer.echo(run(lifecycle.eject, open_engine(), game_id, name, who=by, why=why))


def read_edit_file(path: Path, base: int | None) -> tuple[dict, int]:
    """The state and the change it was based on, from ``gm show --json`` output or a bare state."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        fail(f"edit refused, nothing changed: {exc}")
    if isinstance(data, dict) and "state" in data and "seq" in data:  # gm show --json, edited
        return data["state"], data["seq"] if base is None else base
    if base is None:
        fail("edit refused, nothing changed: say which change you edited: give --base SEQ "
             "(the seq of gm show --json), or edit the whole output of gm show --json")
    return data, base


@app.command()
def edit(game_id: str, why: Optional[str] = WHY, by: Optional[str] = BY,
         from_file: Optional[Path] = typer.Option(None, "--file", help="take the state from this JSON "
                                                  "file (gm show --json output, or a state with --base)"),
         base: Optional[int] = typer.Option(None, "--base", help="the change (seq) the edited state "
                                            "was taken from; refused if the game changed since")):
    """Edit the state as JSON in $EDITOR; the rules check it before it is saved."""
    from gm.service.play import positions

    engine = open_engine()
    if from_file is None:
        typer.echo(run(positions.edit_interactive, engine, game_id, who=by, why=why))
        return
    data, base_seq = read_edit_file(from_file, base)
    typer.echo(run(positions.edit_state, engine, game_id, data, who=by, why=why, base_seq=base_seq))


@app.command()
def resend(game_id: str, name: Optional[str] = typer.Argument(None, help="one player (default: all)"),
           why: Optional[str] = WHY, by: Optional[str] = BY):
    """Send the current report again."""
    from gm.service.play import lifecycle

    typer.echo(run(lifecycle.resend, open_engine(), game_id, name, who=by, why=why))


@app.command()
def delete(game_id: str,
           yes: bool = typer.Option(False, "--yes", help="yes, delete it: there is no undo"),
           force: bool = typer.Option(False, "--force", help="delete it even though orders were played")):
    """Delete a game made by mistake: every row of it, in every table (its mail is kept)."""
    from gm.service.play import lifecycle

    if not yes:
        fail(f"gm delete removes game {game_id} and everything of it for good; "
             f"to do it, run: gm delete {game_id} --yes")
    typer.echo(run(lifecycle.delete_game, open_engine(), game_id, force=force))


@app.command()
def broadcast(game_id: str, text: str, why: Optional[str] = WHY, by: Optional[str] = BY):
    """Mail an announcement from the GM to every player."""
    from gm.service.play import lifecycle

    typer.echo(run(lifecycle.broadcast, open_engine(), game_id, text, who=by, why=why))


@app.command()
def settings(game_id: str, pairs: List[str] = typer.Argument(None, help="key=value: "
                                                             + ", ".join(game_options.SERVICE)),
             why: Optional[str] = WHY, by: Optional[str] = BY):
    """Show or change a game's service options (what each means: gm options KIND)."""
    from gm.service.play import lifecycle
    from gm.service.table import deadlines

    engine = open_engine()
    view = run(engine.load, game_id)
    if pairs:
        run(lifecycle.change_settings, engine, view.id, dict(parse_pairs(pairs, "setting")), who=by,
            why=why)
    for key, value in deadlines.settings(engine.store, view.id).items():
        typer.echo(f"{key:<12} {value if value is not None else 'none'}")


@app.command("observers")
def observers_command(game_id: str,
                      approve: List[str] = typer.Option([], "--approve", help="approve this address "
                                                        "(a game with observers=approved)"),
                      remove: List[str] = typer.Option([], "--remove", help="stop sending to this address"),
                      why: Optional[str] = WHY, by: Optional[str] = BY):
    """List a game's observers; approve or remove some (the reason, -m, goes into the history)."""
    from gm.service.outgoing import observers
    from gm.service.play import lifecycle

    typer.echo(run(observers.manage, open_engine(), game_id, list(approve), list(remove),
                   who=by or lifecycle.default_actor(), why=why))
