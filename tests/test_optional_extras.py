"""psycopg, prometheus-client and dnspython are optional extras (pip install 'gm[postgres,metrics,dns]'):
gm on SQLite imports and runs without them, and a postgresql:// store without psycopg is one clear error."""

from __future__ import annotations

import subprocess
import sys

# Run gm with the optional packages made unimportable, as on a machine where they were never installed.
WITHOUT_EXTRAS = """
import sys

class Absent:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {"psycopg", "psycopg_binary", "psycopg_c", "prometheus_client", "dns"}:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, Absent())
sys.argv = ["gm", *sys.argv[1:]]
from gm.cli import main
try:
    main()
finally:
    assert not {"psycopg", "prometheus_client", "dns"} & set(sys.modules), "an optional package was imported"
"""


def gm_without_extras(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", WITHOUT_EXTRAS, *map(str, args)], capture_output=True, text=True,
                          timeout=120)


def test_gm_on_sqlite_runs_without_the_optional_packages(tmp_path):
    config = tmp_path / "gm.yaml"
    config.write_text(f"data_dir: {tmp_path / 'data'}\naddress: gm@example.test\n")
    made = gm_without_extras("--config", config, "init")
    assert made.returncode == 0, made.stderr
    assert (tmp_path / "data" / "gm.sqlite").exists()
    new = gm_without_extras("--config", config, "new", "neighbors", "--id", "nb1", "--player", "ada=ada@example.org",
                            "--player", "bob=bob@example.org")
    assert new.returncode == 0, new.stderr
    listed = gm_without_extras("--config", config, "list")
    assert listed.returncode == 0, listed.stderr
    assert "nb1" in listed.stdout


def test_a_postgresql_store_without_psycopg_says_how_to_install_it(tmp_path):
    config = tmp_path / "gm.yaml"
    config.write_text(f"data_dir: {tmp_path / 'data'}\naddress: gm@example.test\nstore: postgresql://gm@127.0.0.1:1/gm\n")
    for command in (["init"], ["list"], ["store", "copy", "postgresql://gm@127.0.0.1:1/gm", tmp_path / "c.sqlite"]):
        result = gm_without_extras("--config", config, *command)
        assert result.returncode == 1, result.stderr
        assert "needs psycopg, which is not installed: pip install 'gm[postgres]'" in result.stderr
        assert "Traceback" not in result.stderr
