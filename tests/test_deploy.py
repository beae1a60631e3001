"""deploy/: the systemd unit parses and is hardened; the image runs as a non-root user with a health check."""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from gm.core import config as config_module

REPO = Path(__file__).resolve().parents[1]
UNIT = REPO / "deploy" / "systemd" / "gm.service"
CONTAINER = REPO / "deploy" / "container"
SERVER_PAGE = REPO / "docs" / "operators" / "server.md"  # its "### Run it on a server" section
INSTALLED_GM = "/opt/gm/venv/bin/gm"  # where the README's steps put gm


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=True, interpolation=None, delimiters=("=",))
    parser.optionxform = str  # systemd's keys are case-sensitive
    parser.read_string(UNIT.read_text())
    return parser


def test_the_unit_is_hardened_and_runs_gm_as_its_own_user():
    service = unit()["Service"]
    assert service["User"] == "gm"
    assert service["NoNewPrivileges"] == "yes"
    assert service["ProtectSystem"] == "strict"
    assert service["ReadWritePaths"] == "/var/lib/gm"
    assert service["PrivateTmp"] == "yes"
    assert service["Restart"] == "on-failure"
    assert service["ExecStart"].split()[:3] == [INSTALLED_GM, "--config", "/etc/gm/gm.yaml"]
    assert service["ExecStart"].split()[-1] == "run"
    assert unit()["Install"]["WantedBy"] == "multi-user.target"


def test_systemd_accepts_the_unit(tmp_path):
    """systemd-analyze verify, with ExecStart pointing at this checkout's gm (it checks the program exists)."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("no systemd-analyze here (the structural check above still runs)")
    copy = tmp_path / "gm.service"
    copy.write_text(UNIT.read_text().replace(INSTALLED_GM, str(Path(sys.executable).with_name("gm"))))
    result = subprocess.run([analyze, "verify", str(copy)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "Unknown key" not in result.stderr and "Unknown section" not in result.stderr, result.stderr


def dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions, (WORD, rest), continuation lines joined."""
    text = re.sub(r"\\\n", " ", (CONTAINER / "Dockerfile").read_text())
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def test_the_image_runs_gm_as_a_non_root_user_with_a_health_check():
    steps = dockerfile()
    words = [word for word, _ in steps]
    users = [rest.strip() for word, rest in steps if word == "USER"]
    assert users and users[-1].split(":")[0] not in {"root", "0"}
    assert words.index("USER") < words.index("ENTRYPOINT")  # the daemon starts as that user
    health = [rest for word, rest in steps if word == "HEALTHCHECK"]
    # gm status alone: it exits non-zero when unhealthy; a fallback to gm list would hide that.
    assert len(health) == 1 and health[0].split("CMD", 1)[1].strip() == '["gm", "status"]'
    assert "gm list" not in health[0] and "sh" not in health[0].split("CMD", 1)[1]
    assert ("VOLUME", '["/var/lib/gm"]') in steps


def test_compose_adds_postgresql_and_keeps_the_data_on_volumes():
    compose = yaml.safe_load((CONTAINER / "compose.yaml").read_text())
    services = compose["services"]
    assert services["db"]["image"].startswith("postgres")
    assert "ports" not in services["db"] and "ports" not in services["gm"]  # nothing published
    assert services["gm"]["depends_on"]["db"]["condition"] == "service_healthy"
    assert "gm-data:/var/lib/gm" in services["gm"]["volumes"]
    assert set(compose["volumes"]) == {"db-data", "gm-data"}
    conf = config_module.load(CONTAINER / "gm.yaml")  # the config it mounts is one gm takes
    assert conf.store == "postgresql://gm@db:5432/gm"
    assert conf.data_dir == Path("/var/lib/gm")


def test_the_readme_runs_the_files_and_says_how_the_gm_reaches_the_store():
    readme = SERVER_PAGE.read_text()
    section = readme.split("### Run it on a server", 1)[1].split("\n### ", 1)[0]
    assert "cp /opt/gm/src/deploy/systemd/gm.service /etc/systemd/system/gm.service" in section
    assert "systemd-analyze verify /etc/systemd/system/gm.service" in section
    assert "docker compose up -d --build" in section
    assert "sudo -u gm " + INSTALLED_GM in section
    assert "group: gm" in section
    assert "pg_dump" in section and "gm restore" in section


# --- the README's server section, run as written --------------------------------------------
# Its commands that need root, systemd, docker or the network, by their exact words (a trailing
# comment dropped), and what this test does instead.  A command not here runs as written, under
# a temporary folder standing for /etc/gm, /var/lib/gm and /opt/gm, as the test's user.
NEEDS_ROOT = {
    "apt-get install python3-venv python3-build git": "packages: this machine has them",
    "useradd --system --user-group --home-dir /var/lib/gm --shell /usr/sbin/nologin gm": "the test's user is gm",
    "install -d -o gm -g gm -m 0700 /var/lib/gm": "made 0700, owned by the test's user",
    "git clone https://example.org/gm.git /opt/gm/src": "/opt/gm/src: a link to this checkout",
    "python3 -m build --outdir /opt/gm/dist /opt/gm/src": "scripts/test-installed builds and tests the wheel",
    "python3 -m venv /opt/gm/venv": "/opt/gm/venv: a link to the test's venv",
    '/opt/gm/venv/bin/pip install "$(ls /opt/gm/dist/gm-*.whl)[dns]"': "installed there already",
    "cp /opt/gm/src/deploy/systemd/gm.service /etc/systemd/system/gm.service": "the unit stays in deploy/",
    "systemd-analyze verify /etc/systemd/system/gm.service": "test_systemd_accepts_the_unit",
    "systemctl daemon-reload": "nothing to reload",
    "systemctl enable --now gm": "the unit's ExecStart, started in the background",
    "journalctl -u gm -f": "the daemon's output is read at the end",
    "cd deploy/container": "the container: test_compose_adds_postgresql_and_keeps_the_data_on_volumes",
    'echo "GM_DB_PASSWORD=$(openssl rand -hex 16)" > .env': "(compose)",
    "$EDITOR gm.yaml": "(compose)",
    "docker compose up -d --build": "(compose)",
    "docker compose exec gm gm list": "(compose)",
    "docker compose ps": "(compose)",
}
PREFIXED = ("/etc/gm", "/var/lib/gm", "/opt/gm")


def server_section() -> str:
    readme = SERVER_PAGE.read_text()
    return readme.split("### Run it on a server", 1)[1].split("\n### ", 1)[0]


def section_commands() -> list[str]:
    """The shell commands of the section's code blocks (indented four spaces), comments dropped."""
    lines = [line[4:] for line in server_section().splitlines() if line.startswith("    ") and line.strip()]
    return [re.sub(r"\s+#\s.*$", "", line).strip() for line in lines]


def test_the_readme_knows_no_root_command_the_test_does_not():
    commands = section_commands()
    assert set(NEEDS_ROOT) <= set(commands), set(NEEDS_ROOT) - set(commands)  # nothing stale here
    run_as_written = [c for c in commands if c not in NEEDS_ROOT]
    assert all(c.startswith(("sudo -u gm /opt/gm/venv/bin/gm ", "install -d -m", "cp /opt/gm/src/config."))
               for c in run_as_written), run_as_written
    for verb in ("config check", "init", "doctor", "status", "list", "backup"):
        assert any(c.endswith(f"gm.yaml {verb}") or f"gm.yaml {verb} " in c for c in run_as_written), verb


@pytest.fixture
def servers():
    from harness import SmtpSink, start_dovecot, stop_dovecot

    dovecot = start_dovecot()
    smtp = SmtpSink()
    smtp.start()
    yield dovecot.add_user(), smtp
    smtp.stop()
    stop_dovecot(dovecot)


def edit_config(path: Path, root: Path, account, smtp) -> None:
    """What the cp line's comment says to edit: data_dir, address, imap:, smtp: (the password in
    a file in /etc/gm, as the section says)."""
    (root / "etc/gm/imap-password").write_text(account.password + "\n")
    (root / "etc/gm/imap-password").chmod(0o640)
    data = yaml.safe_load(path.read_text())
    data.update({"data_dir": f"{root}/var/lib/gm", "address": "gm@example.org",
                 "imap": {"host": "127.0.0.1", "port": account.port, "user": account.user,
                          "password_file": f"{root}/etc/gm/imap-password", "tls": "none"},
                 "smtp": {"host": "127.0.0.1", "port": smtp.port, "tls": "none"}})
    path.write_text(yaml.safe_dump(data))


def test_the_readme_server_section_runs_as_written(tmp_path, servers):
    import os
    import signal
    import time

    account, smtp = servers
    root = tmp_path / "root"
    (root / "opt").mkdir(parents=True)
    (root / "var/lib").mkdir(parents=True)

    def rooted(command: str) -> str:
        command = command.removeprefix("sudo -u gm ")  # the test's user plays gm
        for path in PREFIXED:
            command = command.replace(path, f"{root}{path}")
        return command

    daemon = None
    outputs: dict[str, str] = {}
    try:
        for command in section_commands():
            if command == "install -d -o gm -g gm -m 0700 /var/lib/gm":
                (root / "var/lib/gm").mkdir(mode=0o700)
            elif command == "git clone https://example.org/gm.git /opt/gm/src":
                (root / "opt/gm/src").symlink_to(REPO)
            elif command == "python3 -m venv /opt/gm/venv":
                (root / "opt/gm/venv").symlink_to(Path(sys.executable).parent.parent)
            elif command == "systemctl enable --now gm":
                exec_start = rooted(unit()["Service"]["ExecStart"])
                daemon = subprocess.Popen(exec_start.split(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
                store = root / "var/lib/gm/gm.sqlite"
                for _ in range(200):  # systemctl returns once it started; gm beats right away
                    if subprocess.run(rooted("/opt/gm/venv/bin/gm --config /etc/gm/gm.yaml status").split(),
                                      capture_output=True).returncode == 0:
                        break
                    time.sleep(0.05)
                assert store.exists()
            elif command not in NEEDS_ROOT:
                done = subprocess.run(rooted(command), shell=True, capture_output=True, text=True, timeout=120)
                assert done.returncode == 0, (command, done.stdout, done.stderr)
                outputs[command.rsplit(" ", 1)[-1] if "gm.yaml" in command else command] = done.stdout
                if command.startswith("cp /opt/gm/src/config.example.yaml"):
                    edit_config(root / "etc/gm/gm.yaml", root, account, smtp)
        assert daemon is not None and daemon.poll() is None, "the daemon runs"
    finally:
        if daemon is not None:
            daemon.send_signal(signal.SIGTERM)  # systemctl stop gm
            log = daemon.communicate(timeout=60)[0].decode()
    print("\n".join(f"$ {k}\n{v}" for k, v in outputs.items()))
    assert daemon.returncode == 0, log
    assert "FAIL" not in outputs["doctor"] and "\n0 failed, 0 warnings\n" in outputs["doctor"], outputs["doctor"]
    assert "ok    clock vs IMAP" in outputs["doctor"]
    assert "health:     ok" in outputs["status"] and "1 alive of 1" in outputs["status"]
    assert "data_dir" in outputs["check"] and os.path.exists(root / "var/lib/gm/backup.sqlite")
