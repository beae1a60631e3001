"""Pipe mode: gm ingest (one message from an MTA or procmail) and gm init (the store it needs).

gm.cli.piped does ingest's work (the same whether Typer or gm.cli.main's
short way in for an MTA runs it) and says what an MTA is told.
"""

from __future__ import annotations

import typer

from gm.cli import piped
from gm.cli.common import app, echo, open_engine, state


@app.command()
def ingest(source: str = typer.Argument("-", help="a file with one RFC 5322 message, or - for stdin")):
    """Process one message (for procmail or an MTA pipe).  Exit 0 once stored, 75 if not.

    Never makes a store; prints one line on stderr (the outcome); logs to log_file (default
    <data_dir>/gm.log).  The replies are queued: gm run (or gm run --once from cron) sends them.
    The mail is judged as of the moment the MTA piped it (RULINGS G4), however long the store
    then kept it waiting."""
    code = piped.ingest(source, state["config"], bool(state.get("verbose")), lambda line: echo(line, err=True))
    if code:
        raise typer.Exit(code)


@app.command()
def init():
    """Make the store (and the data folder) the config names, if it is not there yet."""
    from gm.core import config as config_module

    engine = open_engine(create=True)
    try:
        version = engine.store.schema_version
    finally:
        engine.store.close()
    echo(f"store ready: {config_module.masked(engine.config.database)} (schema step {version})")
