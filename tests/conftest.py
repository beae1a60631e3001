"""Fixtures shared by the service tests: a gm instance in a temp dir."""

from __future__ import annotations

import pytest

from gm.core.config import Config
from gm.service.engine import Engine
from gm.store import Store
from support import EXAMPLE_LAYOUT, Clock


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def config(tmp_path):
    return Config(data_dir=tmp_path / "gm-data", address="gm@localhost")


@pytest.fixture
def engine(config, clock):
    store = Store(config.database)
    yield Engine(store, config, clock=clock)
    store.close()


@pytest.fixture
def nb_game(engine):
    """A two-player Neighbors game on the rule text's example; returns the passwords."""
    secrets = engine.create_game(
        "neighbors", "nb1", [("ada", "ada@example.org"), ("bob", "bob@example.org")],
        seed=5, options={"layout": EXAMPLE_LAYOUT},
    )
    return secrets
