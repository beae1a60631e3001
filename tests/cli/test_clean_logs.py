"""Logs are as clean as the CLI: a hostile mail's terminal escapes reach no log line raw.

A robot's X-Auto-Response-Suppress is logged at INFO (``-v``), a bounce's Diagnostic-Code at
WARNING (so in gm.log in pipe mode, without -v).  Each mail here goes in through gm's own command
(`gm ingest` as Postfix's pipe runs it, `gm -v run --once` in Maildir mode) in a process of its
own, so the handlers are the ones gm's command line sets up, not pytest's."""

from __future__ import annotations

import email.utils
import subprocess
import uuid
from pathlib import Path

from bounce_fixtures import bounce, outbox_row
from test_pipe_mode import GM, REPO, game_with_known_password, recipe_argv
from gm.core import config as config_module
from gm.mail.verp import from_config
from gm.store import Store

HOSTILE = "\x1b]0;owned\x07\x1b[2J\x1b]52;c;ZXZpbA==\x07\x9b31m"
ALLOWED = {"\n", "\t"}


def as_postfix_runs(argv: list[str], mail: bytes | None = None) -> subprocess.CompletedProcess:
    """``argv`` run as pipe(8) runs gm (env -i, from /), with this tree's gm package first."""
    return subprocess.run(["env", "-i", f"PYTHONPATH={REPO}", *argv], input=mail, cwd="/",
                          capture_output=True, timeout=120)


def controls(text: str) -> list[str]:
    """The control characters of ``text`` but newline and tab."""
    return sorted({c for c in text if (ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0) and c not in ALLOWED})


def robot_mail() -> bytes:
    """An auto-reply (X-Auto-Response-Suppress: gm must not answer it) with escapes in that header."""
    return (f"From: ada@example.org\r\nTo: gm@localhost\r\nSubject: Out of office\r\n"
            f"Date: {email.utils.formatdate()}\r\nMessage-ID: <{uuid.uuid4().hex}@example.org>\r\n"
            f"X-Auto-Response-Suppress: All {HOSTILE}\r\n\r\nAway.\r\n").encode("utf-8")


def dsn_for_ada(conf: Path) -> bytes:
    """A Postfix DSN for the welcome mail to ada, its Diagnostic-Code carrying escapes."""
    config = config_module.load(conf)
    store = Store(config.database)
    try:
        row = outbox_row(store, "ada@example.org")
    finally:
        store.close()
    raw = bounce("postfix", row, from_config(config))
    old = b"Diagnostic-Code: smtp; 550 5.1.1 "
    assert old in raw
    return raw.replace(old, old + HOSTILE.encode("utf-8"))


def test_a_dsn_s_diagnostic_code_reaches_gm_log_escaped_in_pipe_mode(tmp_path):
    conf = game_with_known_password(tmp_path)
    done = as_postfix_runs(recipe_argv(conf), dsn_for_ada(conf))
    assert done.returncode == 0, done.stderr
    log = (tmp_path / "etc" / "data" / "gm.log").read_text("utf-8")
    assert "bounce of outbox #" in log and "\\x1b]0;owned\\x07" in log  # logged, escaped
    assert controls(log) == []
    assert controls(done.stderr.decode("utf-8")) == []


def test_x_auto_response_suppress_is_logged_escaped_at_verbose(tmp_path):
    conf = game_with_known_password(tmp_path)
    argv = recipe_argv(conf)
    done = as_postfix_runs([argv[0], "-v", *argv[1:]], robot_mail())  # pipe mode, -v: INFO to gm.log
    assert done.returncode == 0, done.stderr
    log = (tmp_path / "etc" / "data" / "gm.log").read_text("utf-8")
    assert "X-Auto-Response-Suppress" in log and "\\x1b" in log
    assert controls(log) == []

    inbox = tmp_path / "etc" / "data" / "inbox"  # Maildir mode, -v: INFO on stderr
    for folder in ("new", "cur", "tmp"):
        (inbox / folder).mkdir(parents=True, exist_ok=True)
    (inbox / "new" / "1.robot.host").write_bytes(robot_mail())
    ran = as_postfix_runs([str(GM), "-v", "--config", str(conf), "run", "--once"])
    assert ran.returncode == 0, ran.stderr
    stderr = ran.stderr.decode("utf-8")
    assert "X-Auto-Response-Suppress" in stderr and "\\x1b" in stderr
    assert controls(stderr) == []


def test_the_formatter_escapes_arguments_and_tracebacks():
    import logging
    import sys

    from gm.core.logformat import CleanFormatter
    try:
        raise ValueError(f"bad {HOSTILE}")
    except ValueError:
        record = logging.LogRecord("gm", logging.ERROR, __file__, 1, "subject %s", (HOSTILE,), sys.exc_info())
    line = CleanFormatter("%(levelname)s %(message)s").format(record)
    assert line.count("\\x1b]0;owned\\x07") == 2 and "Traceback" in line
    assert controls(line) == []
