"""The game master's command line: ``gm``.

The Typer app lives in gm.cli.common; each command's module registers it
there and is imported only when the command runs (gm.cli.registry), so
``gm.cli.app`` has every command and a command pays only for what it uses.
``gm ingest``, run by an MTA once per mail, goes around Typer (gm.cli.piped).
Nothing else imports this package.
"""

from __future__ import annotations

import sys
from typing import Any


def main() -> None:
    if "ingest" in sys.argv[1:]:
        from gm.cli import piped

        asked = piped.ingest_argv(sys.argv[1:])
        if asked is not None:
            raise SystemExit(piped.ingest_from_mta(*asked))
    from gm.cli.common import app

    app()


def __getattr__(name: str) -> Any:
    """``gm.cli.app``, imported when asked for (the way in for piped mail needs no Typer)."""
    if name == "app":
        from gm.cli.common import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["app", "main"]
