"""The GM's override, deadline and archive commands, registered on the main CLI app.

Every override is recorded in the game's history with who (``--by``, default
gm:$GM_USER or the login name), when and why (``--why``), and mails the
players it affects.  ``gm process`` lives in gm.cli.
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

WHY = typer.Option(None, "--why", "-m", help="the reason, recorded in the history and told to the players")
BY = typer.Option(None, "--by", help="who does this (default gm:$GM_USER or your login name)")


def register(app) -> None:
    """Add this module's commands to ``app`` (called once by gm.cli; a second call does nothing)."""
    from gm import cli

    if getattr(app, "_gm_admin_registered", False):
        return
    app._gm_admin_registered = True

    def engine():
        from gm import deadlines

        eng = cli._engine()
        deadlines.ensure_schema(eng.store)
        return eng

    def run(action, *args, **kwargs):
        from games.base import GameError
        from gm.engine import EngineError
        from gm.store import StoreError

        try:
            result = action(*args, **kwargs)
        except (EngineError, GameError, StoreError) as exc:
            cli._fail(str(exc))
        return result

    @app.command()
    def deadline(game_id: str, when: str = typer.Argument(..., help="+48h (from now), 'fri 18:00', "
                                                           "2025-03-07 18:00 (UTC), or none"),
                 why: Optional[str] = WHY, by: Optional[str] = BY):
        """Set the deadline of the turn now open."""
        from gm import overrides

        typer.echo(run(overrides.set_deadline, engine(), game_id, when, who=by, why=why))

    @app.command()
    def pause(game_id: str, why: Optional[str] = WHY, by: Optional[str] = BY):
        """Pause a game: no orders, no deadlines until gm resume."""
        from gm import overrides

        typer.echo(run(overrides.pause, engine(), game_id, who=by, why=why))

    @app.command()
    def resume(game_id: str, why: Optional[str] = WHY, by: Optional[str] = BY):
        """Resume a paused game (the deadline moves by the time it was paused)."""
        from gm import overrides

        typer.echo(run(overrides.resume, engine(), game_id, who=by, why=why))

    @app.command()
    def end(game_id: str, reason: str = typer.Argument(..., help="why the game ends (told to the players)"),
            winner: List[str] = typer.Option([], "--winner", help="declare a winner (repeat for a shared win)"),
            by: Optional[str] = BY):
        """End a game now."""
        from gm import overrides

        typer.echo(run(overrides.end, engine(), game_id, reason, who=by, winners=list(winner)))

    @app.command()
    def rollback(game_id: str, to: int = typer.Option(..., "--to", help="the turn to restore"),
                 why: Optional[str] = WHY, by: Optional[str] = BY):
        """Restore the start of a turn, discard later orders, re-open the turn."""
        from gm import overrides

        typer.echo(run(overrides.rollback, engine(), game_id, to, who=by, why=why))

    @app.command()
    def replace(game_id: str, name: str, email: str = typer.Option(..., "--email", help="the new player's address"),
                why: Optional[str] = WHY, by: Optional[str] = BY):
        """Give a seat to a new player (new address, new password, a welcome mail)."""
        from gm import overrides

        typer.echo(run(overrides.replace, engine(), game_id, name, email, who=by, why=why))

    @app.command()
    def eject(game_id: str, name: str, why: Optional[str] = WHY, by: Optional[str] = BY):
        """Remove a player, as the game's rules for leaving say."""
        from gm import overrides

        typer.echo(run(overrides.eject, engine(), game_id, name, who=by, why=why))

    @app.command()
    def edit(game_id: str, why: Optional[str] = WHY, by: Optional[str] = BY,
             from_file: Optional[Path] = typer.Option(None, "--file", help="take the state from this JSON file instead of $EDITOR")):
        """Edit the state as JSON in $EDITOR; the rules check it before it is saved."""
        import json

        from gm import overrides
        from gm.engine import EngineError

        eng = engine()
        if from_file is not None:
            try:
                data = json.loads(from_file.read_text())
            except (OSError, ValueError) as exc:
                cli._fail(f"edit refused, nothing changed: {exc}")
            typer.echo(run(overrides.edit_state, eng, game_id, data, who=by, why=why))
            return
        try:
            typer.echo(overrides.edit_interactive(eng, game_id, who=by, why=why))
        except EngineError as exc:
            cli._fail(str(exc))

    @app.command()
    def resend(game_id: str, name: Optional[str] = typer.Argument(None, help="one player (default: all)"),
               why: Optional[str] = WHY, by: Optional[str] = BY):
        """Send the current report again."""
        from gm import overrides

        typer.echo(run(overrides.resend, engine(), game_id, name, who=by, why=why))

    @app.command()
    def broadcast(game_id: str, text: str, by: Optional[str] = BY):
        """Mail an announcement from the GM to every player."""
        from gm import overrides

        typer.echo(run(overrides.broadcast, engine(), game_id, text, who=by))

    @app.command()
    def settings(game_id: str, pairs: List[str] = typer.Argument(None, help="key=value: deadline, reminder, "
                                                                 "grace, late, press, absence_max"),
                 by: Optional[str] = BY):
        """Show or change a game's service options (deadline, reminder, grace, late, press, absence_max)."""
        from gm import deadlines, overrides

        eng = engine()
        loaded = run(eng.load, game_id)
        if pairs:
            values = run(deadlines.check_settings, dict(cli._parse_pairs(pairs, "setting")))
            with eng.store.write():
                deadlines.save_settings(eng.store, loaded.id, values)
                eng.store.log(loaded.id, loaded.rules.turn(loaded.state), by or overrides.default_actor(),
                              "settings", ", ".join(f"{k}={v}" for k, v in values.items()), eng.clock())
        for key, value in deadlines.settings(eng.store, loaded.id).items():
            typer.echo(f"{key:<12} {value if value is not None else 'none'}")

    @app.command()
    def history(game_id: str, turn: Optional[int] = typer.Option(None, "--turn", help="only this turn"),
                log_only: bool = typer.Option(False, "--log", help="only the history log (who, when, what)")):
        """Print the game's history log and every report, reply and press sent."""
        from gm import archive

        eng = engine()
        typer.echo(run(archive.history_text, eng, game_id, turn, log_only), nl=False)

    archive_app = typer.Typer(no_args_is_help=True, help="The static HTML archive of games.")

    @archive_app.command("build")
    def archive_build(directory: Path = typer.Argument(..., help="where to write the site"),
                      game: List[str] = typer.Option([], "--game", help="only these games")):
        """Write a static HTML site: an index of games and a page per game."""
        from gm import archive

        eng = engine()
        index = run(archive.build, eng, directory, list(game) or None)
        typer.echo(f"archive written: {index}")

    @archive_app.command("screenshot")
    def archive_screenshot(directory: Path, out: Path = typer.Argument(Path("archive.png")),
                           page: str = typer.Option("index.html", help="the page to photograph")):
        """Take a PNG of an archive page with headless Chromium."""
        from gm import archive

        try:
            archive.screenshot(directory / page, out)
        except archive.BrowserMissing as exc:
            cli._fail(str(exc))
        typer.echo(f"screenshot: {out}")

    app.add_typer(archive_app, name="archive")

    @app.command()
    def verify(game_id: str):
        """Replay the game from its seed and orders; report any difference from the store and archive."""
        from gm import replay

        eng = engine()
        report = run(replay.verify, eng, game_id)
        typer.echo(report.text(), nl=False)
        if not report.ok:
            raise typer.Exit(1)
