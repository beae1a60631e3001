"""Fixtures for the admin tests: a clock starting on a Monday and a config with
a GM address.  The engine fixture is tests/conftest.py's, built on these."""

from __future__ import annotations

import pytest

from admin_helpers import FakeClock, run_gm
from gm.core.config import Config
from gm.store import Store


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def config(tmp_path, request):
    """On SQLite, or on each back end where a module asks (as tests/conftest.py's config)."""
    backend = getattr(request, "param", "sqlite")
    store = request.getfixturevalue("pg_url") if backend == "postgresql" else None
    return Config(data_dir=tmp_path / "data", gm_address="boss@example.org", store=store)


@pytest.fixture
def conf(tmp_path):
    """A config file for the `gm` command line: a data folder and gm's address."""
    path = tmp_path / "gm.yaml"
    path.write_text(f"data_dir: {tmp_path / 'data'}\naddress: gm@localhost\n")
    return path


@pytest.fixture
def store(conf, tmp_path):
    """The store `gm` uses with ``conf``, opened beside it (gm list makes the database)."""
    run_gm(conf, "list")
    opened = Store(Config(data_dir=tmp_path / "data").database)
    yield opened
    opened.close()
