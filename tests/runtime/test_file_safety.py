"""Who may read gm's files, as gm doctor sees it, and how the archive writes its own.

gm doctor warns of a store or secret file that other users of the host may read (with
``group:`` in the config, 0660 is what gm makes and is fine) and of a config file they may
change.  The archive writes each file through a temporary file of a name nobody can guess,
made new (O_EXCL|O_NOFOLLOW): a symlink planted at the name it used to take (``.<file>.<pid>.tmp``)
is never followed, so gm writes no file it did not mean to."""

from __future__ import annotations

import grp
import os

import pytest
from typer.testing import CliRunner

from gm.cli import app
from gm.core import config as config_module
from gm.runtime.livearchive import STATE_FILE, LiveArchive
from support import PLAYERS

runner = CliRunner()


def setup(tmp_path, *extra: str):
    """A config (gm.yaml, mode 0600) and a game made with gm new: the store and secret files."""
    conf = tmp_path / "gm.yaml"
    conf.write_text("\n".join(["data_dir: data", "address: gm@localhost", *extra]) + "\n")
    conf.chmod(0o600)
    made = runner.invoke(app, ["--config", str(conf), "new", "neighbors", "--id", "nb1", "--player",
                               "ada=ada@example.org", "--player", "bob=bob@example.org"])
    assert made.exit_code == 0, made.output
    return conf


def doctor(conf) -> dict[str, tuple[str, str]]:
    """gm doctor's lines as check name -> (verdict, the rest of the line and its advice)."""
    done = runner.invoke(app, ["--config", str(conf), "doctor", "--no-dns"])
    lines, found, last = done.output.splitlines(), {}, None
    for line in lines:
        verdict, _, rest = line.partition("  ")
        if verdict.strip() in ("ok", "warn", "FAIL"):
            name, _, detail = rest.strip().partition("  ")
            found[name] = last = [verdict.strip(), detail.strip()]
        elif last is not None and line.strip().startswith("->"):
            last[1] += " " + line.strip()
    return {name: tuple(value) for name, value in found.items()}


def test_doctor_warns_of_a_world_readable_store_and_secret_file(tmp_path):
    conf = setup(tmp_path)
    data = tmp_path / "data"
    assert doctor(conf)["file modes"][0] == "ok"
    (data / "gm.sqlite").chmod(0o644)
    (data / "reply-token.secret").chmod(0o604)
    conf.chmod(0o666)
    seen = doctor(conf)
    verdict, detail = seen["store file mode"]
    assert verdict == "warn" and "every user of this host may read it" in detail
    assert f"chmod 600 {data / 'gm.sqlite'}" in detail
    assert seen["reply token secret file mode"][0] == "warn"
    verdict, detail = seen["config file mode"]
    assert verdict == "warn" and "may write it" in detail
    assert "file modes" not in seen


def test_doctor_takes_0660_under_group_and_warns_of_world_read(tmp_path):
    group = grp.getgrgid(os.getgid()).gr_name
    conf = setup(tmp_path, f"group: {group}")
    data = tmp_path / "data"
    assert oct((data / "gm.sqlite").stat().st_mode & 0o777) == oct(0o660)  # what gm made
    assert doctor(conf)["file modes"][0] == "ok"
    (data / "reply-token.secret").chmod(0o664)
    verdict, detail = doctor(conf)["reply token secret file mode"]
    assert verdict == "warn" and f"chmod 660 {data / 'reply-token.secret'}" in detail


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another group takes root")
def test_doctor_warns_of_a_group_with_other_users_without_group_setting(tmp_path):
    conf = setup(tmp_path)
    store = tmp_path / "data" / "gm.sqlite"
    store.chmod(0o640)
    assert doctor(conf)["file modes"][0] == "ok"  # root's own group: nobody else reads it
    os.chown(store, -1, grp.getgrnam("daemon").gr_gid)  # the daemon user's group
    verdict, detail = doctor(conf)["store file mode"]
    assert verdict == "warn" and "the users of its group may read it" in detail


def test_the_archive_never_follows_a_symlink_at_its_old_temporary_name(engine, tmp_path):
    engine.create_game("neighbors", "nb1", PLAYERS, seed=3)
    site, victim = tmp_path / "site", tmp_path / "victim"
    site.mkdir()
    victim.write_text("not gm's to write\n")
    planted = [site / f".{name}.{os.getpid()}.tmp" for name in ("index.html", "game-nb1.html", STATE_FILE)]
    for link in planted:
        link.symlink_to(victim)
    assert LiveArchive(engine, site).refresh() == ["nb1"]
    done = runner.invoke(app, ["--config", str(config_path(engine, tmp_path)), "archive", "build", str(site)])
    assert done.exit_code == 0, done.output
    assert victim.read_text() == "not gm's to write\n"
    for name in ("index.html", "game-nb1.html", STATE_FILE):
        assert not (site / name).is_symlink() and (site / name).stat().st_size > 0
    assert all(link.is_symlink() for link in planted)  # left as they were, never written through
    assert not [p for p in site.iterdir() if p.name.endswith(".tmp") and p not in planted]


def config_path(engine, tmp_path):
    """A config file naming the engine's store, for the command line."""
    path = tmp_path / "gm.yaml"
    database = engine.config.database
    assert not config_module.is_server_store(database)
    path.write_text(f"data_dir: {engine.config.data_dir}\ndatabase: {database}\naddress: {engine.config.address}\n")
    return path
