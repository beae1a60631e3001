"""The Typer app every command registers on, and what the commands share.

The app's commands are loaded on first use (gm.cli.registry): a command's
module, and what it imports, load only when that command runs.  So this
module imports nothing heavy at its top: the config, the store and the
service are imported inside the functions that open them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, List, Optional, TypeVar

import typer

from gm.cli.registry import LazyGroup, command_of
from gm.core.text import for_terminal

if TYPE_CHECKING:
    from gm.core.config import Config
    from gm.service.engine import Engine
    from gm.store import Store

T = TypeVar("T")

# rich_markup_mode=None: the plain help, where a boolean flag is shown as a bare flag (the rich
# panels of typer 0.29 label every flag, --help too, with a value type "<bool>" it never takes).
HELP_STYLE = None


class Commands(LazyGroup):
    """gm's commands, each imported from its module on first use (gm.cli.registry)."""

    def built(self, name: str) -> Any:
        return command_of(app, name)


app = typer.Typer(cls=Commands, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode=HELP_STYLE, help="gm: a play-by-email game master.")
state = {"config": None}

EX_TEMPFAIL = 75


QUIET_ON_STDERR = {"ingest"}  # run by an MTA, which copies stderr into delivery reports: logs to a file


def show_version(value: bool) -> None:
    if value:
        from gm.core.version import gm_version

        typer.echo(f"gm {gm_version()}")
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


def set_up(config: Path | None, verbose: bool, command: str | None) -> None:
    """The root options, as every command reads them (gm.cli.plain's forms too); the log on
    stderr but for a command an MTA runs."""
    import logging

    from gm.cli.logs import LOG_FORMAT
    from gm.core.logformat import clean_handler

    state["config"] = config
    state["verbose"] = verbose
    if command not in QUIET_ON_STDERR:
        logging.basicConfig(level=logging.INFO if verbose else logging.WARNING,
                            handlers=[clean_handler(logging.StreamHandler(), LOG_FORMAT)])


def load_config(prepare: bool = True) -> Config:
    """The config; a mistake ends the command.  ``prepare``: made ready for a store to be made
    (its group's folder, before the store, so that the store is made for the group)."""
    from gm.core import config as config_module
    from gm.core import filemodes

    try:
        conf = config_module.load(state["config"])
        if prepare and conf.group:
            filemodes.prepare(conf.data_dir, conf.group)
        return conf
    except (config_module.ConfigError, filemodes.GroupError) as exc:
        fail(str(exc))


def log_to_config_file(conf: Config) -> None:
    """Log to the config's ``log_file`` too (once a process), at INFO with -v."""
    import logging

    from gm.cli.logs import log_to_file

    if conf.log_file is not None and state.get("config_logs") is None:
        level = logging.INFO if state.get("verbose") else logging.WARNING
        state["config_logs"] = log_to_file(conf.log_file, level)


def configured_store(create: bool) -> tuple[Store, Config]:
    """The configured store (opening it runs any pending migrations) and the config; a store
    that cannot be opened ends the command.  ``create=False``: a store that does not exist yet
    is an error, never made."""
    from gm.store import Store, StoreError

    conf = load_config(prepare=create)
    try:
        return Store(conf.database, create=create), conf
    except StoreError as exc:
        fail(str(exc))


def open_store(create: bool = True) -> Store:
    """The configured store alone, for a command that only reads it (no service loaded)."""
    store, conf = configured_store(create)
    log_to_config_file(conf)
    return store


def open_engine(create: bool = True) -> Engine:
    """The service on the configured database (opening it runs any pending migrations).

    ``create=False``: a store that does not exist yet is an error, never made.
    """
    from gm.service.engine import Engine

    store, conf = configured_store(create)
    engine = Engine(store, conf)
    log_to_config_file(conf)
    return engine


def echo(message: str = "", **kwargs) -> None:
    """typer.echo for text that may hold what mail brought in (stored subjects, press, bounce
    words): control characters are printed as escapes, never sent to the terminal raw."""
    typer.echo(for_terminal(str(message)), **kwargs)


def fail(message: str, code: int = 1):
    echo(f"gm: {message}", err=True)
    raise typer.Exit(code)


def parse_pairs(values: List[str], what: str) -> list[tuple[str, str]]:
    pairs = []
    for value in values:
        if "=" not in value:
            fail(f"{what} {value!r}: expected key=value")
        key, _, rest = value.partition("=")
        pairs.append((key.strip(), rest.strip()))
    return pairs


def run(action: Callable[..., T], *args, **kwargs) -> T:
    """Do a use case; a refusal is printed as ``gm: why`` with exit status 1."""
    from games.base import GameError
    from gm.core.model import ServiceError
    from gm.store import StoreError

    try:
        return action(*args, **kwargs)
    except (ServiceError, GameError, StoreError) as exc:
        fail(str(exc))


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

