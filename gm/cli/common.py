"""The Typer app every command registers on, and what the commands share (gm.cli.base's
opening and output, with the options and helpers of Typer's commands).

The app's commands are loaded on first use (gm.cli.registry): a command's
module, and what it imports, load only when that command runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, List, Optional

import typer

from gm.cli.base import (QUIET_ON_STDERR, configured_store, echo, fail, load_config, log_to_config_file,
                         open_engine, open_store, run, set_up, state)
from gm.cli.registry import LazyGroup, command_of

__all__ = ["BY", "EX_TEMPFAIL", "QUIET_ON_STDERR", "WHY", "app", "configured_store", "echo", "fail", "load_config",
           "log_to_config_file", "open_engine", "open_store", "parse_pairs", "run", "set_up", "show_holds", "state"]

# rich_markup_mode=None: the plain help, where a boolean flag is shown as a bare flag (the rich
# panels of typer 0.29 label every flag, --help too, with a value type "<bool>" it never takes).
HELP_STYLE = None


class Commands(LazyGroup):
    """gm's commands, each imported from its module on first use (gm.cli.registry)."""

    def built(self, name: str) -> Any:
        return command_of(app, name)


app = typer.Typer(cls=Commands, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode=HELP_STYLE, help="gm: a play-by-email game master.")

EX_TEMPFAIL = 75


def show_version(value: bool) -> None:
    if value:
        from gm.cli.plain import print_version

        print_version()
        raise typer.Exit()


@app.callback()
def main_options(
    ctx: typer.Context,
    config: Optional[Path] = typer.Option(None, "--config", "-c", help="YAML config (default: $GM_CONFIG, "
                                          "./gm.yaml, or the embedded default)"),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="log what the daemon does"),
    version: bool = typer.Option(False, "--version", callback=show_version, is_eager=True,
                                 help="print gm's version (docs/CHANGELOG.md says what each changed)"),
):
    set_up(config, verbose, ctx.invoked_subcommand)


def parse_pairs(values: List[str], what: str) -> list[tuple[str, str]]:
    pairs = []
    for value in values:
        if "=" not in value:
            fail(f"{what} {value!r}: expected key=value")
        key, _, rest = value.partition("=")
        pairs.append((key.strip(), rest.strip()))
    return pairs


WHY = typer.Option(None, "--why", "-m", help="the reason, recorded in the history and told to the players")
BY = typer.Option(None, "--by", help="who does this (default gm:$GM_USER or your login name)")


def show_holds(engine) -> None:
    """The holds first: while one lasts, the players' mail is waiting and it is not their fault."""
    from gm.core import times
    from gm.service.outgoing import holding

    now = engine.clock()
    for row in engine.store.outbox.holds():
        target = "sender" if row.scope == "sender" else "@" + row.scope[7:]
        echo(f"HELD: {holding.described(row)} (since {times.format_stamp(row.since)}, "
             f"{times.format_span(now - row.since)} ago; nobody is marked for it)")
        echo(f"    the server said: {row.words}")
        echo(f"    next try {times.format_stamp(row.next_probe)}; now: gm players --clear {target} -m WHY")

