"""SQLAlchemy (gm.store.tables, gm.store.sql) is never imported on the daemon's way: not when gm starts,
and not by `gm ingest`, which an MTA runs once per mail (its start-up is paid per mail)."""

from __future__ import annotations

import subprocess
import sys

# Run gm's entry point, then say whether SQLAlchemy was imported on the way.
PROBE = """
import sys
sys.argv = ["gm", *sys.argv[1:]]
from gm.cli import main
try:
    main()
except SystemExit as exc:
    code = exc.code
else:
    code = 0
print("SQLALCHEMY" if "sqlalchemy" in sys.modules else "NONE", code, file=sys.stderr)
"""


def probe(*args: object, mail: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", PROBE, *map(str, args)], input=mail, capture_output=True,
                          timeout=120)


def test_importing_gm_cli_does_not_import_sqlalchemy():
    done = subprocess.run([sys.executable, "-c", "import sys, gm.cli, gm.store, gm.service.engine; "
                           "print('sqlalchemy' in sys.modules)"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_gm_ingest_of_an_order_mail_does_not_import_sqlalchemy(tmp_path):
    config = tmp_path / "gm.yaml"
    config.write_text(f"data_dir: {tmp_path / 'data'}\naddress: gm@example.test\n")
    made = probe("--config", config, "new", "neighbors", "--id", "nb1", "--player", "ada=ada@example.org",
                 "--player", "bob=bob@example.org")
    assert made.returncode == 0, made.stderr
    mail = (b"From: ada@example.org\nTo: gm@example.test\nMessage-ID: <o1@example.org>\n"
            b"Subject: nb1 orders\n\nGAME nb1\nPASSWORD sesame\nPASS\n")
    done = probe("--config", config, "ingest", "-", mail=mail)
    assert done.returncode == 0, done.stderr
    assert done.stderr.decode().strip().splitlines()[-1] == "NONE 0"
