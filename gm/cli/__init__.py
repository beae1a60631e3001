"""The game master's command line: ``gm``.

The Typer app lives in gm.cli.common; each command's module registers it
there and is imported only when the command runs (gm.cli.registry), so
``gm.cli.app`` has every command and a command pays only for what it uses.
The plain forms of the commands run most (``gm list``, ``gm ingest`` as an MTA runs it...)
go around Typer's parsing (gm.cli.plain).
Nothing else imports this package.
"""

from __future__ import annotations

import sys
from typing import Any


def main() -> None:
    from gm.cli import plain

    plain_form = plain.read(sys.argv[1:])
    if plain_form is not None:
        raise SystemExit(plain_form())
    from gm.cli.common import app

    app()


def __getattr__(name: str) -> Any:
    """``gm.cli.app``, imported when asked for (the way in for piped mail needs no Typer)."""
    if name == "app":
        from gm.cli.common import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["app", "main"]
