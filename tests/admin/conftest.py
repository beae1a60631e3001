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
def config(tmp_path):
    return Config(data_dir=tmp_path / "data", gm_address="boss@example.org")
