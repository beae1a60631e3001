"""What every command shares, without the CLI framework: the root options, the config, the
store and the service opened, output, and ending with ``gm: why``.

gm.cli.plain's forms run on this alone, so a ``gm list`` pays nothing for Typer;
gm.cli.common adds the Typer app on top.  Nothing heavy is imported at the top:
the config, the store and the service load inside the functions that open them.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable, NoReturn, TypeVar

from gm.core.text import for_terminal

if TYPE_CHECKING:
    from gm.core.config import Config
    from gm.service.engine import Engine
    from gm.store import Store

T = TypeVar("T")

state: dict = {"config": None}

QUIET_ON_STDERR = {"ingest"}  # run by an MTA, which copies stderr into delivery reports: logs to a file


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


def echo(message: str = "", err: bool = False, nl: bool = True) -> None:
    """A line of output for text that may hold what mail brought in (stored subjects, press,
    bounce words): control characters are printed as escapes, never sent to the terminal raw."""
    stream = sys.stderr if err else sys.stdout
    stream.write(for_terminal(str(message)) + ("\n" if nl else ""))
    stream.flush()


def fail(message: str, code: int = 1) -> NoReturn:
    """End the command with ``gm: why`` on stderr and exit status ``code`` (Typer's commands and
    the plain forms alike: a SystemExit passes through Typer as its exit status)."""
    echo(f"gm: {message}", err=True)
    raise SystemExit(code)


def run(action: Callable[..., T], *args, **kwargs) -> T:
    """Do a use case; a refusal is printed as ``gm: why`` with exit status 1."""
    from games.base import GameError
    from gm.core.model import ServiceError
    from gm.store import StoreError

    try:
        return action(*args, **kwargs)
    except (ServiceError, GameError, StoreError) as exc:
        fail(str(exc))
