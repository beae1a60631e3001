"""gm doctor: a set-up checked line by line before the first player writes (exit 1 on any FAIL)."""

from __future__ import annotations

import os
import time
from email.message import EmailMessage
from pathlib import Path
from typing import Optional

import typer

from gm.cli.common import app, echo, state
from gm.core import config as config_module
from gm.core import filemodes, times
from gm.mail import dkim as dkim_keys
from gm.mail import verp
from gm.runtime import doctor
from gm.runtime.doctor import FAIL, OK, WARN, Check
from gm.store import Store

CLOCK_FLOOR = 1_700_000_000  # 2023-11-14: a clock before this was never set
BACKLOG_WARN_SECONDS = 3600


def folder_writable(name: str, path: Path) -> Check:
    """Whether gm can make a file in ``path`` (made if missing, as gm would)."""
    if path.exists() and not path.is_dir():
        return Check(name, FAIL, f"{path}: not a folder", "name a folder gm's user may write in")
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / f".gm-doctor-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        return Check(name, FAIL, f"{path}: {exc.strerror or exc}", "make it writable by gm's user")
    return Check(name, OK, str(path))


def store_checks(conf: config_module.Config) -> list[Check]:
    """Reachable and migrated (opening migrates), writable, the outbox and bouncing addresses."""
    try:
        store = Store(conf.database, create=False)
    except Exception as exc:
        return [Check("store", FAIL, str(exc), "gm init makes it; check store: and its permissions")]
    checks = [Check("store reachable, migrated", OK, config_module.masked(conf.database))]
    try:
        checks.append(clock_against_store(store, time.time()))
        try:
            with store.write(scoped=True):  # it changes no row: no daemon need wait for it
                store.prove_writable()
            checks.append(Check("store writable", OK))
        except Exception as exc:
            checks.append(Check("store writable", FAIL, str(exc), "give gm's user write access to the store"))
        queued, oldest = store.metrics.outbox_counts().get("queued", 0), store.metrics.oldest_queued()
        if not queued or oldest is None:  # (None: sent between the two reads)
            checks.append(Check("outbox", OK, "nothing waiting"))
        else:
            age = time.time() - oldest
            verdict = WARN if age > BACKLOG_WARN_SECONDS else OK
            checks.append(Check("outbox", verdict, f"{queued} queued, oldest {times.format_span(age)} old",
                                "see gm deliveries and gm players" if verdict == WARN else ""))
        bouncing = [r.address for r in store.delivery.addresses_in_state("bouncing")]
        checks.append(Check("bouncing addresses", WARN if bouncing else OK,
                            ", ".join(bouncing) or "none", "gm players shows them" if bouncing else ""))
    finally:
        store.close()
    return checks


def clock_against_store(store: Store, now: float) -> Check:
    """The clock did not go back behind the newest time in the store (a game's last change, mail
    queued or read, a daemon's beat): deadlines and heartbeats would be read wrong."""
    newest = store.metrics.newest_time()
    if newest is None:
        return Check("clock vs store", OK, "the store holds no times yet")
    at, column = newest
    ahead = at - now
    if ahead <= doctor.CLOCK_OK:
        return Check("clock vs store", OK, f"newest time in the store {times.format_stamp(at)} ({column})")
    return Check("clock vs store", FAIL, f"{column} holds {times.format_stamp(at)}, {times.format_span(ahead)} "
                 "ahead of this clock: the clock went back, or was ahead when that was written", doctor.CLOCK_ADVICE)


def dkim_check(conf: config_module.Config, use_dns: bool) -> Check | None:
    if not conf.dkim_key_file:
        return None
    try:
        pem = Path(conf.dkim_key_file).read_bytes()
    except OSError as exc:
        return Check("DKIM key", FAIL, f"{conf.dkim_key_file}: {exc.strerror or exc}", "gm dkim keygen makes one")
    selector = conf.dkim_selector or "gm"
    return doctor.dkim_check(pem, selector, conf.dkim_domain or dkim_keys.domain_of(conf.address),
                             doctor.dns_txt if use_dns else None)


def kept_files(conf: config_module.Config) -> list[tuple[str, Path]]:
    """The files that hold what only gm may read: the store (its -wal and -shm), the secret and
    key files, the servers' password files; those that exist."""
    files = []
    if not config_module.is_server_store(conf.database):
        database = Path(conf.database)
        files += [("store", database), ("store", Path(f"{database}-wal")), ("store", Path(f"{database}-shm"))]
    files += [("reply token secret", conf.reply_token_secret_file), ("code secret", conf.code_secret_file),
              ("VERP secret", conf.verp_secret_file), ("DKIM key", conf.dkim_key_file)]
    for server, section in ((conf.imap, "IMAP"), (conf.smtp, "SMTP")):
        if server is not None:
            files.append((f"{section} password file", server.password_file))
    return [(name, Path(path)) for name, path in files if path is not None and Path(path).is_file()]


def file_mode_checks(conf: config_module.Config) -> list[Check]:
    """A warning for each kept file other users may read (with group:, others than its group), and
    for a config file they may change (it holds no password: gm refuses one there)."""
    wanted = "660" if conf.group else "600"
    checks = [Check(f"{name} file mode", WARN, f"{path}: {why}", f"chmod {wanted} {path}")
              for name, path in kept_files(conf) if (why := filemodes.too_open(path, bool(conf.group)))]
    if conf.source != "embedded default" and (why := filemodes.too_open(Path(conf.source), bool(conf.group),
                                                                        read=False)):
        checks.append(Check("config file mode", WARN, f"{conf.source}: {why}", f"chmod go-w {conf.source}"))
    who = "gm's user and its group" if conf.group else "gm's user"
    return checks or [Check("file modes", OK, f"the store and secret files: only {who} may read them")]


def test_mail(conf: config_module.Config, to: str) -> bytes:
    message = EmailMessage()
    message["From"] = conf.address
    message["To"] = to
    message["Subject"] = "gm doctor: a test mail"
    message.set_content("gm doctor sent this to check the SMTP relay.\n")
    return bytes(message)


def all_checks(send_test: str | None, use_dns: bool = True) -> list[Check]:
    try:
        conf = config_module.load(state["config"])
    except config_module.ConfigError as exc:
        return [Check("config", FAIL, str(exc).replace("\n", "; "), "gm config check shows it whole")]
    checks = [Check("config", OK, str(conf.source))]
    now = time.time()
    checks.append(Check("clock", OK if now > CLOCK_FLOOR else FAIL, times.format_stamp(now),
                        "" if now > CLOCK_FLOOR else "set the system clock (NTP)"))
    checks.extend(store_checks(conf))
    checks.extend(file_mode_checks(conf))
    if conf.imap is not None:
        checks.extend(doctor.imap_checks(conf.imap, conf.imap_folder, conf.imap_processed, conf.imap_idle))
    if conf.smtp is not None:
        sender = verp.from_config(conf).envelope(1)
        raw = test_mail(conf, send_test) if send_test else None
        checks.extend(doctor.smtp_checks(conf.smtp, sender, send_test, raw))
    dkim = dkim_check(conf, use_dns)
    if dkim is not None:
        checks.append(dkim)
    if conf.archive_dir is not None:
        checks.append(folder_writable("archive folder", Path(conf.archive_dir)))
    return checks


@app.command("doctor")
def doctor_command(send_test: Optional[str] = typer.Option(None, "--send-test", metavar="ADDRESS",
                                                           help="also send one test mail to ADDRESS"),
                   no_dns: bool = typer.Option(False, "--no-dns", help="do not look up the DKIM record; "
                                               "print the record to publish")):
    """Check the set-up, one line a check (ok / warn / FAIL with advice); exit 1 on any FAIL."""
    checks = all_checks(send_test, use_dns=not no_dns)
    width = max(len(c.name) for c in checks)
    for check in checks:
        line = f"{check.verdict:<4}  {check.name:<{width}}  {check.detail}".rstrip()
        echo(line)
        if check.advice and check.verdict != OK:
            echo(f"{'':<4}  {'':<{width}}  -> {check.advice}")
    failed = sum(c.verdict == FAIL for c in checks)
    warned = sum(c.verdict == WARN for c in checks)
    echo(f"\n{failed} failed, {warned} warning{'' if warned == 1 else 's'}")
    if failed:
        raise typer.Exit(1)
