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
    readme = (REPO / "README.md").read_text()
    section = readme.split("### Run it on a server", 1)[1].split("\n### ", 1)[0]
    assert "cp /opt/gm/src/deploy/systemd/gm.service /etc/systemd/system/gm.service" in section
    assert "systemd-analyze verify /etc/systemd/system/gm.service" in section
    assert "docker compose up -d --build" in section
    assert "sudo -u gm " + INSTALLED_GM in section
    assert "group: gm" in section
    assert "pg_dump" in section and "gm restore" in section
