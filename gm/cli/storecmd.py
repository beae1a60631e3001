"""gm store copy: move a GM's games between stores (a SQLite file and a PostgreSQL database)."""

from __future__ import annotations

from pathlib import Path

import typer

from gm.cli.common import HELP_STYLE, app, fail, state
from gm.core import config as config_module
from gm.core.config import is_server_store
from gm.service.records import storecopy
from gm.store import Store, StoreError

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
        report = storecopy.copy_store(src, dst, conf)
    except StoreError as exc:
        fail(str(exc))
    finally:
        src.close()
        dst.close()
    typer.echo(report.text(), nl=False)
    if not report.ok:
        raise typer.Exit(1)
