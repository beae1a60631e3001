"""``gm status [--json]``: the running gm at a glance; exit 1 when unhealthy, so it serves as the
health check of a unit or container (gm.service.outgoing.status says what unhealthy means)."""

from __future__ import annotations

import typer

from gm.cli import glance
from gm.cli.common import app


@app.command()
def status(as_json: bool = typer.Option(False, "--json", help="print the status as JSON")):
    """Daemons alive, last beat, inbox backlog, outbox, bouncing addresses, next deadlines, errors;
    exits 1 when unhealthy."""
    raise typer.Exit(glance.status(as_json))
