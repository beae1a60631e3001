"""Fixtures for the admin tests: a clock starting on a Monday and a config with
a GM address.  The engine fixture is tests/conftest.py's, built on these."""

from __future__ import annotations

import pytest

from admin_helpers import FakeClock
from gm.core.config import Config


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def config(tmp_path, request):
    """On SQLite, or on each back end where a module asks (as tests/conftest.py's config)."""
    backend = getattr(request, "param", "sqlite")
    store = request.getfixturevalue("pg_url") if backend == "postgresql" else None
    return Config(data_dir=tmp_path / "data", gm_address="boss@example.org", store=store)
