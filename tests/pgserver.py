"""A real PostgreSQL server for the tests and benchmarks, on 127.0.0.1 (Debian's ``postgresql``).

Plain functions and a class (the pytest fixtures are in tests/conftest.py),
like tests/harness.py for Dovecot.  start_postgres() runs initdb and pg_ctl
in a fresh temporary directory, on a free loopback port, with no Unix socket
and trust authentication for its own superuser ``gm`` (it listens on
127.0.0.1 only and lives as long as the test session).  The server binaries
are found in /usr/lib/postgresql/<version>/bin (the newest), or on PATH.
initdb refuses to run as root, so as root the server runs as ``nobody`` (the
way the Dovecot fixture runs its mail processes), through runuser.  Without a
server binary start_postgres raises unittest.SkipTest (a skip in pytest).

fsync is off unless ``durable``: a test server's data need not survive a
power cut, and CREATE SCHEMA / CREATE DATABASE are then quick.  Each test gets a schema of
its own (Postgres.fresh_url): a URL whose search_path is that schema.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import unittest
from pathlib import Path
from urllib.parse import quote, unquote

SUPERUSER = "gm"


def server_bin_dir() -> Path | None:
    """The directory of Debian's newest PostgreSQL server binaries, or of initdb on PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: [int(x) if x.isdigit() else 0 for x in Path(p).parts[-3].split(".")])
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    return Path(on_path).resolve().parent if on_path else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Postgres:
    """One running server; ``url(schema)`` is how gm reaches it."""

    def __init__(self, root: Path, bin_dir: Path, durable: bool = False):
        self.root = root
        self.durable = durable
        self.bin_dir = bin_dir
        self.data = root / "data"
        self.port = _free_port()
        self.schemas = 0
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # initdb and postgres refuse root
            os.chmod(root, 0o755)
            shutil.chown(root, "nobody", "nogroup")
            self.as_user = ["runuser", "-u", "nobody", "--"]

    def run(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
        return subprocess.run([*self.as_user, *args], capture_output=True, text=True, timeout=timeout,
                              cwd=self.root)

    def start(self) -> None:
        init = self.run(str(self.bin_dir / "initdb"), "-D", str(self.data), "-U", SUPERUSER,
                        "--auth=trust", "--encoding=UTF8", "--no-sync", "--locale=C")
        if init.returncode != 0:
            raise RuntimeError(f"initdb failed: {init.stderr or init.stdout}")
        self.start_again()

    def start_again(self) -> None:
        """Start the server on its data folder (after stop(): a restart, as an outage ends)."""
        options = (f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories='' "
                   "-c max_connections=200")
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        started = self.run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-l", str(self.root / "log"),
                           "-o", options, "-w", "-t", "60", "start")
        if started.returncode != 0:
            raise RuntimeError(f"pg_ctl start failed: {started.stderr}\n{self.log()}")
        deadline = time.time() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                if time.time() > deadline:
                    raise RuntimeError(f"PostgreSQL did not listen on {self.port}:\n{self.log()}")
                time.sleep(0.1)

    def stop(self) -> None:
        self.run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def log(self) -> str:
        try:
            return (self.root / "log").read_text()[-4000:]
        except OSError:
            return ""

    def url(self, schema: str | None = None, database: str = "postgres") -> str:
        """A postgresql:// URL of this server; with ``schema``, tables live there (search_path)."""
        base = f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"
        if schema is None:
            return base
        return base + "?options=" + quote(f"-c search_path={schema}", safe="")

    def fresh_url(self) -> str:
        """A URL of a new, empty schema of its own (one per test: isolation without a new database)."""
        import psycopg

        self.schemas += 1
        schema = f"t{os.getpid()}_{self.schemas}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        return self.url(schema)


def start_postgres(durable: bool = False) -> Postgres:
    """A fresh server in a temporary directory; unittest.SkipTest where none is installed.

    ``durable``: fsync and synchronous commit on, as a production server (the benchmarks)."""
    bin_dir = server_bin_dir()
    if bin_dir is None or not (bin_dir / "pg_ctl").exists():
        raise unittest.SkipTest("PostgreSQL is not installed (no initdb/pg_ctl in /usr/lib/postgresql/*/bin "
                                "or on PATH): apt-get install postgresql, as .ci/run does")
    root = Path(tempfile.mkdtemp(prefix="gm-pg-"))
    server = Postgres(root, bin_dir, durable)
    try:
        server.start()
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise
    return server


def stop_postgres(server: Postgres) -> None:
    server.stop()
    shutil.rmtree(server.root, ignore_errors=True)


# --- the statements a session sends, as the server logs them (tests/store/test_statements.py) --------
LOGGED = re.compile(r"LOG:  (?:statement|execute [^:]*): (.*)")


def statement_logging_url(url: str) -> str:
    """The URL with the server's statement log on for its sessions (log_statement=all: a
    per-session setting the test server's superuser may make): only they log."""
    head, _, options = url.partition("?options=")
    return f"{head}?options=" + quote(f"{unquote(options)} -c log_statement=all".strip(), safe="")


def logged_statements(server: Postgres, start: int, end: int) -> list[str]:
    """The statements the server logged between two sizes of its log (``statement:`` for the simple
    protocol, ``execute <name>:`` for the extended one)."""
    with open(server.root / "log", "rb") as log:
        log.seek(start)
        text = log.read(end - start).decode("utf-8", "replace")
    return [m.group(1).strip() for m in LOGGED.finditer(text)]
