"""gm status shows the inbox backlog the daemon's last poll left, on the real Dovecot:
mail appended while no daemon runs is handled by `gm run --once` (0 left, 5 handled); a daemon
stopped after its first message leaves the rest, and mail left after every poll for longer than
status_inbox_seconds (600 s) makes gm status unhealthy."""

from __future__ import annotations

import json
import re
import threading

from typer.testing import CliRunner

from gm.cli import app
from gm.runtime.daemon import make_transport
from gm.runtime.imap import Daemon
from gm.service.engine import Engine
from gm.store import Store

HELLO = (b"From: someone%d@example.test\r\nTo: gm@example.test\r\nSubject: hi\r\n"
         b"Message-ID: <b%d@example.test>\r\n\r\nhello\r\n")


def gm_status(harness, *args):
    return CliRunner().invoke(app, ["--config", str(harness.config_path), "status", *args])


def test_the_backlog_a_poll_left_shows_in_gm_status(harness):
    harness.new_game()
    for n in range(5):
        harness.dovecot.append(HELLO % (n, n))
    assert "backlog:    not measured" in gm_status(harness).output
    harness.once()
    assert len(harness.outcomes()) == 5
    shown = gm_status(harness)
    print(shown.output)
    assert shown.exit_code == 0, shown.output
    assert "backlog:    0 left in the inbox after the last poll, which handled 5\n" in shown.output
    figures = json.loads(gm_status(harness, "--json").output)["inbox_backlog"]
    assert figures == {"left": 0, "handled": 5, "since": None}


def test_mail_left_after_every_poll_is_flagged_when_it_stays(harness):
    for n in range(4):
        harness.dovecot.append(HELLO % (n, n))
    stop = threading.Event()
    engine = Engine(Store(harness.config.database), harness.config)
    ingest = engine.ingest

    def one_then_stop(*args, **kwargs):  # SIGTERM after the first message: the rest wait
        outcome = ingest(*args, **kwargs)
        stop.set()
        return outcome

    engine.ingest = one_then_stop
    Daemon(engine, harness.config, make_transport(harness.config), stop=stop).run()
    assert len(harness.outcomes()) == 1 and len(harness.dovecot.folder("INBOX")) == 3

    shown = gm_status(harness)
    print(shown.output)
    assert shown.exit_code == 0, shown.output  # left, but not for long yet
    assert "backlog:    3 left in the inbox after the last poll, which handled 1; mail left after every poll since" \
        in shown.output
    with harness.engine.store.write():  # eleven minutes on, the mail still there (the daemon's beat kept fresh)
        harness.engine.store.db.execute("UPDATE daemons SET backlog_since = backlog_since - 660")
    stale = gm_status(harness)
    print(stale.output)
    assert stale.exit_code == 1
    assert re.search(r"mail has been left in the inbox after every poll for 66\d s \(limit 600 s\)", stale.output)
    assert json.loads(gm_status(harness, "--json").output)["inbox_backlog"]["left"] == 3

    harness.once()  # a poll that empties the inbox clears it
    assert len(harness.outcomes()) == 4
    cleared = gm_status(harness)
    assert cleared.exit_code == 0, cleared.output
    assert "backlog:    0 left in the inbox after the last poll, which handled 3\n" in cleared.output
