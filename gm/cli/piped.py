"""Pipe mode's work: one message from an MTA or procmail, read, judged and queued (gm ingest).

An MTA runs ``gm ingest`` with an empty environment, from a folder of its own,
and copies what it prints on stderr into delivery reports and bounces.  So
ingest never makes a store (a fresh one would answer "no game called nb1" and
lose the order): without a usable config or store it exits 75 (EX_TEMPFAIL,
the MTA keeps the mail and tries again) with one line saying why.  stderr
gets one line per mail, the outcome; log lines and tracebacks go to the log
file (``log_file``, default <data_dir>/gm.log).  Replies are only queued:
``gm run`` (a daemon, or ``gm run --once`` from cron) sends them.  This
module imports no Typer: ``gm ingest`` as an MTA runs it comes straight here
(gm.cli.plain), and what judging needs is imported as the mail needs it.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from gm.cli.logs import log_to_file
from gm.core.text import for_terminal

if TYPE_CHECKING:
    from gm.core.config import Config
    from gm.store import Store

log = logging.getLogger("gm.cli.pipe")  # the name its log lines have always had

EX_TEMPFAIL = 75


class TempFail(Exception):
    """The MTA keeps the message and tries again later; the message is the one line it reports."""


def one_line(text: str, limit: int = 1000) -> str:
    return " ".join(str(text).split())[:limit]


def to_stderr(line: str) -> None:
    """One line on stderr, as the MTA reads it (control characters escaped; never an encoding error)."""
    stream = sys.stderr
    text = for_terminal(line) + "\n"
    buffer = getattr(stream, "buffer", None)
    if buffer is None:
        stream.write(text)
    else:
        stream.flush()
        buffer.write(text.encode(stream.encoding or "utf-8", "replace"))
    stream.flush()


def ingest_from_mta(source: str, config: str | None, verbose: bool) -> int:
    """``gm ingest`` without Typer: its exit status (0 stored, 75 not)."""
    return ingest(source, Path(config) if config else None, verbose, to_stderr)


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


def ingest(source: str, config: Path | None, verbose: bool, say: Callable[[str], None]) -> int:
    """Store and judge the message in ``source`` (- for stdin); say its outcome in one line.
    Returns the exit status: 0 once stored, 75 (TempFail's line said) if not."""
    piped = process_start()
    root = logging.getLogger()
    quiet = logging.NullHandler()  # with no handler at all, logging would print warnings on stderr
    root.addHandler(quiet)
    logging.captureWarnings(True)
    handlers: list[logging.Handler] = []
    try:
        say(judged(source, config, verbose, piped, handlers))
        return 0
    except TempFail as why:
        say(f"gm: {one_line(str(why))}")
        return EX_TEMPFAIL
    finally:
        logging.captureWarnings(False)
        root.removeHandler(quiet)
        for handler in handlers:
            root.removeHandler(handler)
            handler.close()


def judged(source: str, config: Path | None, verbose: bool, piped: float, handlers: list[logging.Handler]) -> str:
    """The outcome line of the message, stored and judged as of ``piped``; the log file's
    handler, once opened, is added to ``handlers`` (for the caller to close)."""
    try:
        raw = sys.stdin.buffer.read() if source == "-" else Path(source).read_bytes()
    except OSError as exc:
        raise TempFail(f"cannot read {source}: {exc}") from None
    conf = load_config(config)
    store = open_store(conf)
    handler = log_to_file(conf.log_file or conf.data_dir / "gm.log", logging.INFO if verbose else logging.WARNING)
    if handler is not None:
        handlers.append(handler)
    try:
        from gm.service.engine import Engine

        engine = Engine(store, conf)
        engine.outbox.draw_later = True  # the sender draws the pictures: no Pillow per mail
        outcome = engine.ingest(raw, arrived=piped)
    except Exception as exc:  # could not store it: let the MTA try again later
        log.exception("gm ingest: message not stored")
        raise TempFail(f"message not stored, try again later: {exc}") from None
    finally:
        store.close()
    log.info("ingest: %s %s", outcome.outcome, one_line(outcome.detail, 200))
    return f"{outcome.outcome}: {one_line(outcome.detail, 200)}"


def load_config(path: Path | None) -> Config:
    from gm.core import config as config_module

    try:
        return config_module.load(path)
    except config_module.ConfigError as exc:
        raise TempFail(f"config: {exc.one_line()}") from None


def open_store(conf: Config) -> Store:
    from gm.store import Store, StoreError

    try:
        return Store(conf.database, create=False)
    except StoreError as exc:
        if conf.source == "embedded default":
            raise TempFail(f"{exc}; no config given: pass --config /absolute/path/gm.yaml (an MTA runs gm "
                           "from its own folder, with an empty environment)") from None
        raise TempFail(f"{exc} (config {conf.source})") from None
