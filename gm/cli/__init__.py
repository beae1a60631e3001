"""The game master's command line: ``gm``.

The Typer app lives in gm.cli.common; the play, admin and archive commands
register themselves on it when imported here, so ``gm.cli.app`` has every
command.  Nothing else imports this package.
"""

from gm.cli import play  # noqa: F401  (registers the commands; playing first in --help)
from gm.cli import admin, archive  # noqa: F401
from gm.cli import dkim  # noqa: F401  (gm dkim keygen)
from gm.cli import delivery  # noqa: F401  (gm players, gm deliveries)
from gm.cli import storecmd  # noqa: F401  (gm store copy, gm backup, gm restore)
from gm.cli import seatcmd  # noqa: F401  (gm seat reset, gm seat address)
from gm.cli import pipe  # noqa: F401  (gm ingest, gm init)
from gm.cli import configcmd  # noqa: F401  (gm config check)
from gm.cli import doctor  # noqa: F401  (gm doctor)
from gm.cli import statuscmd  # noqa: F401  (gm status)
from gm.cli.common import app


def main() -> None:
    app()


__all__ = ["app", "main"]
