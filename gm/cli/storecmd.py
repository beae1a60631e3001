"""gm store copy, gm backup, gm restore: a GM's games between stores (SQLite files, PostgreSQL databases)."""

from __future__ import annotations

from pathlib import Path

import typer

from gm.cli.common import HELP_STYLE, app, echo, fail, load_config, state
from gm.cli.progress import Counter
from gm.core import config as config_module
from gm.core.config import is_server_store
from gm.service.records import storecopy
from gm.store import Store, StoreError
from gm.store import backup as backups
from gm.store.postgres import redacted

store_app = typer.Typer(no_args_is_help=True, rich_markup_mode=HELP_STYLE,
                        help="The store: where games are kept (a SQLite file or PostgreSQL).")
app.add_typer(store_app, name="store")


def target(text: str):
    """A postgresql:// URL as given, anything else a SQLite file path."""
    return text if is_server_store(text) else Path(text)


@store_app.command("copy")
def copy(source: str = typer.Argument(..., help="the store to copy: a SQLite file or postgresql://..."),
         destination: str = typer.Argument(..., help="an empty store: a SQLite file or postgresql://...")):
    """Copy every game and record into an empty store, then gm verify each game there."""
    try:
        conf = config_module.load(state["config"])
        src = Store(target(source))
    except (config_module.ConfigError, StoreError) as exc:
        fail(str(exc))
    try:
        dst = Store(target(destination))
    except StoreError as exc:
        src.close()
        fail(str(exc))
    try:
        with Counter() as progress:
            report = storecopy.copy_store(src, dst, conf, progress=progress)
    except StoreError as exc:
        fail(str(exc))
    finally:
        src.close()
        dst.close()
    typer.echo(report.text(), nl=False)
    if not report.ok:
        raise typer.Exit(1)


def open_configured_store() -> Store:
    conf = load_config()
    try:
        return Store(conf.database)
    except StoreError as exc:
        fail(str(exc))


@app.command("backup")
def backup(file: Path = typer.Argument(..., help="the backup to write (a SQLite file; replaced if it exists)")):
    """Write the store to one SQLite file, consistent while the daemon runs (gm restore reads it back)."""
    store = open_configured_store()
    try:
        with Counter() as progress:
            games = backups.backup(store, file, progress)
    except StoreError as exc:
        fail(str(exc))
    finally:
        store.close()
    echo(f"backup of {redacted(str(store.path))} written to {file}: {games} game{'' if games == 1 else 's'}")


@app.command("restore")
def restore(file: Path = typer.Argument(..., help="a file gm backup wrote"),
            force: bool = typer.Option(False, "--force", help="replace the games of a store that has some")):
    """Put a backup's games into the configured store (stop the daemon first), then gm verify each."""
    conf = load_config()
    store = open_configured_store()
    try:
        with backups.opened(file) as saved, Counter() as progress:
            report = storecopy.restore(saved, store, conf, force=force, progress=progress)
    except StoreError as exc:
        fail(str(exc))
    finally:
        store.close()
    echo(report.text(), nl=False)
    if not report.ok:
        raise typer.Exit(1)
