"""The Typer app every command registers on, and what the commands share.

Heavy modules (jinja2, mail, the rule modules) load when a command first
needs the service, so that `gm list` starts quickly.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Callable, List, Optional, TypeVar

import typer

from games.base import GameError
from gm.core import config as config_module
from gm.core import filemodes
from gm.core.logformat import clean_handler
from gm.core.text import for_terminal
from gm.core import times
from gm.core.version import gm_version
from gm.core.model import ServiceError
from gm.service.outgoing import holding
from gm.service.engine import Engine
from gm.store import Store, StoreError

T = TypeVar("T")

# rich_markup_mode=None: the plain help, where a boolean flag is shown as a bare flag (the rich
# panels of typer 0.29 label every flag, --help too, with a value type "<bool>" it never takes).
HELP_STYLE = None
app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode=HELP_STYLE, help="gm: a play-by-email game master.")
state = {"config": None}

EX_TEMPFAIL = 75


LOG_FORMAT = "%(asctime)s %(name)s %(levelname)s %(message)s"
QUIET_ON_STDERR = {"ingest"}  # run by an MTA, which copies stderr into delivery reports: logs to a file


def show_version(value: bool) -> None:
    if value:
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
    state["config"] = config
    state["verbose"] = verbose
    if ctx.invoked_subcommand not in QUIET_ON_STDERR:
        logging.basicConfig(level=logging.INFO if verbose else logging.WARNING,
                            handlers=[clean_handler(logging.StreamHandler(), LOG_FORMAT)])


def log_to_file(path: Path, level: int = logging.WARNING) -> logging.Handler | None:
    """Send log lines (and tracebacks) to ``path`` as well; None if it cannot be opened.

    The file is made 0600 (0660 in a shared data folder), never its folder."""
    try:
        if not Path(path).parent.is_dir():
            return None
        filemodes.create_file(Path(path))
        handler = logging.FileHandler(path, encoding="utf-8")
    except OSError:
        return None
    clean_handler(handler, LOG_FORMAT)
    handler.setLevel(level)
    root = logging.getLogger()
    root.addHandler(handler)
    if root.level > level or root.level == logging.NOTSET:
        root.setLevel(level)
    return handler


def load_config(prepare: bool = True) -> config_module.Config:
    """The config; a mistake ends the command.  ``prepare``: made ready for a store to be made
    (its group's folder, before the store, so that the store is made for the group)."""
    try:
        conf = config_module.load(state["config"])
        if prepare and conf.group:
            filemodes.prepare(conf.data_dir, conf.group)
        return conf
    except (config_module.ConfigError, filemodes.GroupError) as exc:
        fail(str(exc))


def log_to_config_file(conf: config_module.Config) -> None:
    """Log to the config's ``log_file`` too (once a process), at INFO with -v."""
    if conf.log_file is not None and state.get("config_logs") is None:
        level = logging.INFO if state.get("verbose") else logging.WARNING
        state["config_logs"] = log_to_file(conf.log_file, level)


def open_engine(create: bool = True) -> Engine:
    """The service on the configured database (opening it runs any pending migrations).

    ``create=False``: a store that does not exist yet is an error, never made (gm ingest).
    """
    conf = load_config(prepare=create)
    try:
        engine = Engine(Store(conf.database, create=create), conf)
    except StoreError as exc:
        fail(str(exc))
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
    try:
        return action(*args, **kwargs)
    except (ServiceError, GameError, StoreError) as exc:
        fail(str(exc))


WHY = typer.Option(None, "--why", "-m", help="the reason, recorded in the history and told to the players")
BY = typer.Option(None, "--by", help="who does this (default gm:$GM_USER or your login name)")


def show_holds(engine) -> None:
    """The holds first: while one lasts, the players' mail is waiting and it is not their fault."""
    now = engine.clock()
    for row in engine.store.outbox.holds():
        target = "sender" if row.scope == "sender" else "@" + row.scope[7:]
        echo(f"HELD: {holding.described(row)} (since {times.format_stamp(row.since)}, "
             f"{times.format_span(now - row.since)} ago; nobody is marked for it)")
        echo(f"    the server said: {row.words}")
        echo(f"    next try {times.format_stamp(row.next_probe)}; now: gm players --clear {target} -m WHY")

