"""Pipe mode: gm ingest (one message from an MTA or procmail) and gm init (the store it needs).

An MTA runs ``gm ingest`` with an empty environment, from a folder of its own,
and copies what it prints on stderr into delivery reports and bounces.  So
ingest never makes a store (a fresh one would answer "no game called nb1" and
lose the order): without a usable config or store it exits 75 (EX_TEMPFAIL,
the MTA keeps the mail and tries again) with one line saying why.  stderr
gets one line per mail, the outcome; log lines and tracebacks go to the log
file (``log_file``, default <data_dir>/gm.log).  Replies are only queued:
``gm run`` (a daemon, or ``gm run --once`` from cron) sends them.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from pathlib import Path

import typer

from gm.cli.common import EX_TEMPFAIL, app, echo, log_to_file, open_engine, state
from gm.core import config as config_module
from gm.core.config import Config
from gm.service.engine import Engine
from gm.store import Store, StoreError

log = logging.getLogger(__name__)


def one_line(text: str, limit: int = 1000) -> str:
    return " ".join(str(text).split())[:limit]


def tempfail(why: str):
    """The MTA keeps the message and tries again later; ``why`` is the one line it reports."""
    echo(f"gm: {one_line(why)}", err=True)
    raise typer.Exit(EX_TEMPFAIL)


def load_config() -> Config:
    try:
        conf = config_module.load(state["config"])
    except config_module.ConfigError as exc:
        tempfail(f"config: {exc.one_line()}")
    return conf


def open_store(conf: Config) -> Store:
    try:
        return Store(conf.database, create=False)
    except StoreError as exc:
        if conf.source == "embedded default":
            tempfail(f"{exc}; no config given: pass --config /absolute/path/gm.yaml (an MTA runs gm "
                     "from its own folder, with an empty environment)")
        tempfail(f"{exc} (config {conf.source})")


def process_start() -> float:
    """When this process was started (the MTA's pipe), from /proc on Linux: the seconds Python
    takes to start before any of gm runs are the MTA's, not gm's.  Elsewhere: now."""
    now = time.time()
    try:
        stat = Path("/proc/self/stat").read_text()
        ticks = int(stat[stat.rindex(")") + 2:].split()[19])  # field 22, starttime (clock ticks after boot)
        boot = next(float(line.split()[1]) for line in Path("/proc/stat").read_text().splitlines()
                    if line.startswith("btime "))
        started = boot + ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration):
        return now
    return started if now - 600 < started <= now else now  # a boot time gone wrong: now


@app.command()
def ingest(source: str = typer.Argument("-", help="a file with one RFC 5322 message, or - for stdin")):
    """Process one message (for procmail or an MTA pipe).  Exit 0 once stored, 75 if not.

    Never makes a store; prints one line on stderr (the outcome); logs to log_file (default
    <data_dir>/gm.log).  The replies are queued: gm run (or gm run --once from cron) sends them.
    The mail is judged as of the moment the MTA piped it (RULINGS G4), however long the store
    then kept it waiting."""
    piped = process_start()
    root = logging.getLogger()
    quiet = logging.NullHandler()  # with no handler at all, logging would print warnings on stderr
    root.addHandler(quiet)
    logging.captureWarnings(True)
    handler = None
    try:
        try:
            raw = sys.stdin.buffer.read() if source == "-" else Path(source).read_bytes()
        except OSError as exc:
            tempfail(f"cannot read {source}: {exc}")
        conf = load_config()
        store = open_store(conf)
        level = logging.INFO if state.get("verbose") else logging.WARNING
        handler = log_to_file(conf.log_file or conf.data_dir / "gm.log", level)
        try:
            outcome = Engine(store, conf).ingest(raw, arrived=piped)
        except Exception as exc:  # could not store it: let the MTA try again later
            log.exception("gm ingest: message not stored")
            tempfail(f"message not stored, try again later: {exc}")
        finally:
            store.close()
        log.info("ingest: %s %s", outcome.outcome, one_line(outcome.detail, 200))
        echo(f"{outcome.outcome}: {one_line(outcome.detail, 200)}", err=True)
    finally:
        logging.captureWarnings(False)
        root.removeHandler(quiet)
        if handler is not None:
            root.removeHandler(handler)
            handler.close()


@app.command()
def init():
    """Make the store (and the data folder) the config names, if it is not there yet."""
    engine = open_engine(create=True)
    try:
        version = engine.store.schema_version
    finally:
        engine.store.close()
    echo(f"store ready: {config_module.masked(engine.config.database)} (schema step {version})")
