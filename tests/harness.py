"""The real servers the mail tests and the benchmarks run against, on 127.0.0.1.

Plain classes and functions (no pytest fixtures: those are in
tests/mail/conftest.py), imported as ``harness`` by tests/mail and by
benchmarks/turnaround.py, which puts ``tests/`` on sys.path.

- Dovecot (Debian's dovecot-imapd): start_dovecot() runs one from a config
  written to a fresh temporary directory (mail directory mode 1777 and its
  parents 755, because the mail processes run as an unprivileged user), with
  passwd-file users whose password is plain text, on a free port; it is ready
  when a connection succeeds.  Account is one user's mailbox on it.  Without
  dovecot installed, start_dovecot raises unittest.SkipTest (a skip in pytest).
- SmtpSink: an aiosmtpd Controller that keeps every message it accepts.
- Harness: the GM's side (config, database, `run --once`, the daemon in a
  thread (DaemonThread) or a subprocess).
"""

from __future__ import annotations

import asyncio
import email
import email.message
import email.policy
import getpass
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from pathlib import Path

from imapclient import IMAPClient

from gm.core import config as config_module
from gm.service.engine import Engine
from gm.store import Store
from support import GM_ADDRESS, PLAYERS

DOVECOT = shutil.which("dovecot") or "/usr/sbin/dovecot"
REPO = Path(__file__).resolve().parents[1]
MAX_USERS = 500

__all__ = ["DOVECOT", "REPO", "MAX_USERS", "GM_ADDRESS", "PLAYERS", "free_port", "wait_until",
           "Dovecot", "Account", "start_dovecot", "stop_dovecot", "SmtpSink", "write_config",
           "Harness", "DaemonThread"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(predicate, timeout: float = 10.0, interval: float = 0.02, what: str = "condition"):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


# --- Dovecot ------------------------------------------------------------------------
class Dovecot:
    """One Dovecot server; each test gets its own user on it (see Account)."""

    password = "dovecot-test-secret"

    def __init__(self, root: Path, capabilities: str | None = None, tls: tuple[Path, Path] | None = None):
        self.root = root
        self.port = free_port()
        self.tls_port = free_port() if tls else 0  # implicit TLS (imaps); STARTTLS on self.port
        self.capabilities = capabilities
        self.proc: subprocess.Popen | None = None
        self.users = 0
        for sub in ("run", "state"):
            (root / sub).mkdir()
        self.mail = root / "mail"
        self.mail.mkdir()
        os.chmod(self.mail, 0o1777)
        if os.geteuid() == 0:
            self.uid, self.gid = 65534, 65534  # nobody: Dovecot will not run mail processes as root
            internal, login = "dovecot", "dovenull"
        else:
            self.uid, self.gid = os.getuid(), os.getgid()
            internal = login = getpass.getuser()
        # Every user a session could need, written once: no reliance on re-reading.
        (root / "passwd").write_text("".join(
            f"gm{n}:{{PLAIN}}{self.password}:{self.uid}:{self.gid}::{self.mail}/gm{n}::\n"
            for n in range(1, MAX_USERS + 1)))
        extra = f"imap_capability = {capabilities}\n" if capabilities else ""
        ssl = f"ssl = yes\nssl_cert = <{tls[0]}\nssl_key = <{tls[1]}" if tls else "ssl = no"
        (root / "dovecot.conf").write_text(f"""
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
protocols = imap
listen = 127.0.0.1
{ssl}
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = {internal}
default_login_user = {login}
mail_location = maildir:~/Maildir
{extra}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/passwd
}}
userdb {{
  driver = passwd-file
  args = username_format=%u {root}/passwd
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {self.port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {self.tls_port}
  }}
}}
""")

    def add_user(self) -> "Account":
        """A fresh, empty mailbox."""
        self.users += 1
        assert self.users <= MAX_USERS, "raise MAX_USERS"
        user = f"gm{self.users}"
        return Account(self, user)

    def start(self) -> None:
        self.proc = subprocess.Popen([DOVECOT, "-F", "-c", str(self.root / "dovecot.conf")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

        def ready():
            if self.proc.poll() is not None:
                raise RuntimeError(f"dovecot exited: {self.proc.stderr.read().decode()} {self.log()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return True
            except OSError:
                return False

        wait_until(ready, 10, what="dovecot to listen")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def restart(self) -> None:
        """Stop and start again, ending the open sessions as a server restart does."""
        sessions = self.imap_pids()
        self.stop()
        for pid in sessions:  # orphaned session processes may outlive the master
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.start()

    def log(self) -> str:
        path = self.root / "dovecot.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def imap_pids(self) -> list[int]:
        """The imap session processes of this Dovecot (children of its master)."""
        pids = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            comm = stat[stat.index("(") + 1:stat.rindex(")")]
            ppid = int(stat[stat.rindex(")") + 2:].split()[1])
            if comm == "imap" and self.proc is not None and ppid == self.proc.pid:
                pids.append(int(entry.name))
        return pids

    def kill_sessions(self) -> int:
        pids = self.imap_pids()
        for pid in pids:
            os.kill(pid, signal.SIGKILL)
        return len(pids)



class Account:
    """One user's mailbox on a Dovecot, as the tests and the daemon see it."""

    def __init__(self, server: Dovecot, user: str):
        self.server = server
        self.user = user
        self.password = server.password
        self.port = server.port

    def restart(self) -> None:
        self.server.restart()

    def kill_sessions(self) -> int:
        return self.server.kill_sessions()

    def imap_pids(self) -> list[int]:
        return self.server.imap_pids()

    def client(self) -> IMAPClient:
        client = IMAPClient("127.0.0.1", port=self.port, ssl=False, timeout=10)
        client.login(self.user, self.password)
        return client

    def append(self, raw: bytes, folder: str = "INBOX") -> None:
        with self.client() as client:
            client.append(folder, raw)

    def folder(self, folder: str) -> dict[int, dict]:
        """uid -> {flags, raw} for a folder ({} if it does not exist)."""
        with self.client() as client:
            if not client.folder_exists(folder):
                return {}
            client.select_folder(folder, readonly=True)
            uids = client.search(["ALL"])
            if not uids:
                return {}
            data = client.fetch(uids, ["FLAGS", "BODY.PEEK[]"])
            return {uid: {"flags": d[b"FLAGS"], "raw": d[b"BODY[]"]} for uid, d in data.items()}


def start_dovecot(capabilities: str | None = None, tls: tuple[Path, Path] | None = None) -> Dovecot:
    """A Dovecot on 127.0.0.1 in a fresh temporary directory, started (see stop_dovecot)."""
    if not os.path.exists(DOVECOT):
        raise unittest.SkipTest("dovecot is not installed (apt-get install dovecot-imapd)")
    root = Path(tempfile.mkdtemp(prefix="gm-dovecot-"))
    os.chmod(root, 0o755)  # the unprivileged mail processes must reach the mail directory
    server = Dovecot(root, capabilities, tls)
    server.start()
    return server


def stop_dovecot(server: Dovecot) -> None:
    """Stop a Dovecot from start_dovecot and remove its directory."""
    server.stop()
    shutil.rmtree(server.root, ignore_errors=True)


# --- SMTP ---------------------------------------------------------------------------
class SmtpSink:
    """A real SMTP server (aiosmtpd) on 127.0.0.1 that keeps what it accepts."""

    def __init__(self, smtputf8: bool = True):
        self.port = free_port()
        self.smtputf8 = smtputf8  # offer SMTPUTF8 (RFC 6531) in the EHLO reply, as aiosmtpd does by default
        self.messages: list[tuple[list[str], email.message.Message]] = []
        self.refuse: set[str] = set()  # recipients refused with a 550
        self.defer: set[str] = set()  # recipients refused for now with a 452
        # A reply to MAIL FROM instead of 250 ("{sender}" is the envelope sender), as a relay that
        # did not authenticate gm gives it; and replies at RCPT by address or "@domain".
        self.sender_refusal: str | None = None
        self.refuse_with: dict[str, str] = {}
        self.envelope_senders: list[tuple[str, str]] = []  # (MAIL FROM, Message-ID) of each message kept
        # Cleared: each message is kept, but its 250 waits until it is set again (the instant
        # a client can die between the server's acceptance and hearing of it).
        self.answering = threading.Event()
        self.answering.set()
        self.lock = threading.Lock()
        self.controller = None
        self.ident: str | None = None  # the greeting's words after the host name (aiosmtpd's own if None)

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        if self.sender_refusal:
            return self.sender_refusal.format(sender=address)
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        reply = self.refuse_with.get(address) or self.refuse_with.get("@" + address.rpartition("@")[2])
        if reply:
            return reply.format(rcpt=address)
        if address in self.refuse:
            return "550 5.1.1 no such user"
        if address in self.defer:
            return "452 4.2.2 mailbox full"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        msg = email.message_from_bytes(envelope.original_content or envelope.content,
                                       policy=email.policy.default)
        with self.lock:
            self.messages.append((list(envelope.rcpt_tos), msg))
            self.envelope_senders.append((envelope.mail_from, msg["Message-ID"]))
        while not self.answering.is_set():
            await asyncio.sleep(0.01)
        return "250 OK"

    def start(self) -> None:
        from aiosmtpd.controller import Controller

        extra = {"ident": self.ident} if self.ident else {}
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port,
                                     enable_SMTPUTF8=self.smtputf8, **extra)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    def to(self, address: str) -> list[email.message.Message]:
        with self.lock:
            return [m for rcpt, m in self.messages if address in rcpt]

    def count(self) -> int:
        with self.lock:
            return len(self.messages)

    def message_ids(self) -> list[str]:
        with self.lock:
            return [m["Message-ID"] for _, m in self.messages]

    def wait_for(self, address: str, n: int, timeout: float = 10.0) -> list[email.message.Message]:
        return wait_until(lambda: len(self.to(address)) >= n and self.to(address), timeout,
                          what=f"{n} mails to {address}")


# --- gm -----------------------------------------------------------------------------
def write_config(tmp: Path, dovecot: "Account", sink: SmtpSink, **overrides) -> Path:
    import yaml

    (tmp / "imap-password").write_text(dovecot.password + "\n")
    (tmp / "imap-password").chmod(0o600)  # a secret file, as gm doctor wants it
    data = {
        "data_dir": str(tmp / "data"),
        "address": GM_ADDRESS,
        "poll_seconds": 0.3,
        "max_message_bytes": 50_000,
        "error_replies_per_hour": 3,
        "imap": {"host": "127.0.0.1", "port": dovecot.port, "user": dovecot.user,
                 "password_file": str(tmp / "imap-password"), "tls": "none",
                 "timeout": 10, "backoff": [0.2, 0.5, 1]},
        "smtp": {"host": "127.0.0.1", "port": sink.port, "tls": "none", "timeout": 5,
                 "backoff": [0.2, 0.5, 1]},
    }
    data.update(overrides)
    path = tmp / "gm.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


class Harness:
    """The GM's side: a config, a database connection, and the daemon to run."""

    def __init__(self, tmp: Path, dovecot: "Account", smtp: SmtpSink):
        self.tmp = tmp
        self.dovecot = dovecot
        self.smtp = smtp
        self.reconfigure()

    def reconfigure(self, **overrides) -> None:
        self.config_path = write_config(self.tmp, self.dovecot, self.smtp, **overrides)
        self.config = config_module.load(self.config_path)
        self.engine = Engine(Store(self.config.database), self.config)

    def new_game(self, game_id: str = "nb1", seed: int = 7, players=PLAYERS, **options) -> dict[str, str]:
        return self.engine.create_game("neighbors", game_id, players, seed=seed, options=options)

    def once(self) -> None:
        """`gm run --once` in this process."""
        from gm.runtime import daemon

        engine = Engine(Store(self.config.database), self.config)
        daemon.run(engine, self.config, once=True)
        engine.store.close()

    def start(self) -> "DaemonThread":
        return DaemonThread(self.config)

    def subprocess(self, *args: str, env: dict | None = None) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-m", "gm.cli", "--config", str(self.config_path), "-v", "run", *args],
            cwd=REPO, env={**os.environ, **(env or {})},
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        )

    def legal(self, game_id: str = "nb1") -> tuple[str, list[str]]:
        loaded = self.engine.load(game_id)
        (mover,) = loaded.rules.to_move(loaded.state)
        return mover, loaded.rules.legal_orders(loaded.state, mover)

    def states(self, game_id: str = "nb1") -> int:
        return self.engine.store.one("SELECT COUNT(*) AS n FROM states WHERE game_id = :game", game=game_id)["n"]

    def outcomes(self) -> list[str]:
        return [r["outcome"] for r in self.engine.store.all("SELECT outcome FROM messages ORDER BY id")]


class DaemonThread:
    """gm.imap's daemon in a thread, with its own database connection."""

    def __init__(self, config):
        from gm.runtime.daemon import make_transport
        from gm.runtime.imap import Daemon

        self.stop_event = threading.Event()
        self.error: BaseException | None = None
        self.daemon = None
        ready = threading.Event()

        def main():
            try:
                engine = Engine(Store(config.database), config)
                self.daemon = Daemon(engine, config, make_transport(config), stop=self.stop_event, wake=0.2)
                ready.set()
                self.daemon.run()
            except BaseException as exc:  # noqa: BLE001 - reported by stop()
                self.error = exc
                ready.set()

        self.thread = threading.Thread(target=main, daemon=True)
        self.thread.start()
        ready.wait(10)

    def stop(self) -> None:
        self.stop_event.set()
        self.thread.join(15)
        assert not self.thread.is_alive(), "daemon did not stop"
        if self.error is not None:
            raise self.error
