"""Fixtures shared by the service tests: a gm instance in a temp dir."""

from __future__ import annotations

import pytest

import pgserver

from gm.core.config import Config
from gm.mail import inbound as mail_in
from gm.service.engine import Engine
from gm.store import Store
from support import BACKENDS, EXAMPLE_LAYOUT, Clock


@pytest.fixture(scope="session")
def pg_server():
    """One PostgreSQL server for the session (tests/pgserver.py); skips where none is installed."""
    server = pgserver.start_postgres()
    yield server
    pgserver.stop_postgres(server)


@pytest.fixture
def pg_url(pg_server):
    """A postgresql:// URL of a new, empty schema of this test's own."""
    return pg_server.fresh_url()


@pytest.fixture(params=BACKENDS)
def store_target(request, tmp_path):
    """What Store() opens, once per back end: a SQLite file, then a PostgreSQL schema."""
    if request.param == "sqlite":
        return tmp_path / "gm.sqlite"
    return request.getfixturevalue("pg_url")


@pytest.fixture
def clock():
    return Clock()


def pytest_generate_tests(metafunc):
    """A module with ``ON_BOTH_BACKENDS = True`` runs each test that uses ``config`` (through the engine
    too) once on SQLite and once on PostgreSQL."""
    if getattr(metafunc.module, "ON_BOTH_BACKENDS", False) and "config" in metafunc.fixturenames:
        metafunc.parametrize("config", BACKENDS, indirect=True)


@pytest.fixture
def config(tmp_path, request):
    """The service's config; on SQLite, or on each back end in a module ON_BOTH_BACKENDS."""
    backend = getattr(request, "param", "sqlite")
    store = request.getfixturevalue("pg_url") if backend == "postgresql" else None
    return Config(data_dir=tmp_path / "gm-data", address="gm@localhost", store=store)


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


@pytest.fixture
def breaking_reader(monkeypatch):
    """The mail reader raises on a message with the header ``X-Trigger: BOOM``: such a message
    must be set aside, not stop the mailbox.  Gives the real reader, to mend the fault with."""
    real = mail_in.parse

    def parse(raw, *args, **kwargs):
        if b"X-Trigger: BOOM" in raw:
            raise RuntimeError("the reader broke")
        return real(raw, *args, **kwargs)

    monkeypatch.setattr(mail_in, "parse", parse)
    return real
