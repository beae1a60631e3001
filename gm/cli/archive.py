"""The record of games: gm history, gm verify, gm archive build|screenshot."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from gm.cli.common import HELP_STYLE, app, echo, fail, open_engine, run
from gm.cli.progress import Counter


@app.command()
def history(game_id: str, turn: Optional[int] = typer.Option(None, "--turn", help="only this turn"),
            log_only: bool = typer.Option(False, "--log", help="only the history log (who, when, what)")):
    """Print the game's history log and every report, reply and press sent."""
    from gm.service.records import audit

    echo(run(audit.history_text, open_engine(), game_id, turn, log_only), nl=False)


@app.command()
def verify(game_id: Optional[str] = typer.Argument(None, help="the game; without it, every game in the store")):
    """Replay a game (or every game) from its seed and orders; report any difference from the store and archive."""
    from gm.service.records import audit

    engine = open_engine()
    ids = [game_id] if game_id else [row.id for row in engine.store.games.every_game()]
    reports = []
    with Counter() as progress:
        for done, gid in enumerate(ids):
            progress(done, len(ids), f"verifying {gid}")
            reports.append(run(audit.verify, engine, gid))
    for report in reports:
        echo(report.text(), nl=False)
    if not game_id:
        ok = sum(report.ok for report in reports)
        echo(f"{ok} of {len(reports)} game{'' if len(reports) == 1 else 's'} verified")
    if not all(report.ok for report in reports):
        raise typer.Exit(1)


archive_app = typer.Typer(no_args_is_help=True, rich_markup_mode=HELP_STYLE, help="The static HTML archive of games.")
app.add_typer(archive_app, name="archive")


@archive_app.command("build")
def archive_build(directory: Path = typer.Argument(..., help="where to write the site"),
                  game: List[str] = typer.Option([], "--game", help="only these games")):
    """Write a static HTML site: an index of games, a page per game, and (without --game) the ladders,
    a page per rated player and a page per tournament; in the config's archive_language."""
    from gm.present import archive as site
    from gm.present import community as pages
    from gm.service.records import audit, communitypages

    engine = open_engine()
    rows = engine.store.games.every_game()
    ids = list(game) or [row.id for row in rows if row.status != "open"]
    data = []
    with Counter() as progress:
        for done, gid in enumerate(ids):
            progress(done, len(ids), f"reading {gid}")
            data.append(run(audit.archive_data, engine, gid, language=engine.config.archive_language))
    # The open games are in the index as recruiting (their free seats), with no page yet.
    recruiting = [] if game else [audit.index_entry(engine, row.id) for row in rows if row.status == "open"]
    links = None
    if not game:  # the ladders, players and tournaments: not for a build of some games only
        community = run(communitypages.community_data, engine)
        pages.write(directory, community, engine.clock(), engine.config.archive_language)
        links = pages.index_links(community)
    index = site.build(directory, data, engine.clock(), engine.config.domain, recruiting, links,
                       engine.config.archive_language)
    echo(f"archive written: {index}")


@archive_app.command("screenshot")
def archive_screenshot(directory: Path, out: Path = typer.Argument(Path("archive.png")),
                       page: str = typer.Option("index.html", help="the page to photograph")):
    """Take a PNG of an archive page with headless Chromium; fails if there is no such page."""
    from gm.runtime import browser

    try:
        browser.screenshot(directory / page, out)
    except (browser.BrowserMissing, browser.PageMissing) as exc:
        fail(str(exc))
    except RuntimeError as exc:  # Chromium itself failed: its last words, on one line
        fail(" ".join(str(exc).split()))
    echo(f"screenshot: {out}")
