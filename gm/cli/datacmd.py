"""``gm data ADDRESS [--out FILE]``: everything gm keeps about an address, as the JSON that MY DATA
mails to it (gm.service.people.mydata), for the GM answering a request by other means."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Optional

import typer

from gm.cli.common import app, echo, fail, open_engine


@app.command()
def data(address: str = typer.Argument(..., help="the address, as mail gives it"),
         out: Optional[Path] = typer.Option(None, "--out", help="write the JSON to this file (made "
                                                                "readable by its owner alone)")) -> None:
    """Print (or write to --out) everything gm keeps about ADDRESS as JSON: seats, settings,
    subscriptions, history, press and mail it sent, deliveries, codes pending, what is kept."""
    from gm.core.addresses import normal
    from gm.service.people import mydata

    if normal(address) is None:
        fail(f"{address!r} is not a mail address")
    engine = open_engine(create=False)
    text = json.dumps(mydata.gather(engine.store, engine.config, address, engine.clock()), indent=1,
                      ensure_ascii=False)
    if out is None:
        echo(text)
        return
    with os.fdopen(os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w", encoding="utf-8") as file:
        file.write(text + "\n")
    echo(f"wrote {out}")
