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
from typing import Any, NoReturn


def main() -> None:
    from gm.cli import plain

    plain_form = plain.read(sys.argv[1:])
    if plain_form is not None:
        raise SystemExit(plain_form())
    typer_app()


def console() -> None:
    """The installed ``gm`` command: as main(), but a plain form, once done, ends its process at
    once (ended_now)."""
    from gm.cli import plain

    plain_form = plain.read(sys.argv[1:])
    if plain_form is None:
        typer_app()
    else:
        ended_now(plain_form())


def typer_app() -> None:
    from gm.cli.common import app

    app()


def ended_now(status: int | None) -> NoReturn:
    """End the process with ``status`` without the interpreter's teardown, which frees every
    module and object one by one: about a tenth of the instructions of a piped mail's process
    (benchmarks/cli_start.py).  Only after a plain form returned: its store is closed and its
    log handlers too; what logging still holds and the standard streams are flushed here."""
    import os

    logging = sys.modules.get("logging")  # a plain form that logged nothing never loaded it
    if logging is not None:
        logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe, a closed stream: nothing more can be said
            pass
    os._exit(status or 0)


def __getattr__(name: str) -> Any:
    """``gm.cli.app``, imported when asked for (the way in for piped mail needs no Typer)."""
    if name == "app":
        from gm.cli.common import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["app", "console", "main"]
