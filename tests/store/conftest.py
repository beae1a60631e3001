"""Fixtures shared by the store tests (store_target, one per back end, is tests/conftest.py's).

`store` is a fresh, empty store on each back end, closed after its test.  A module that needs
rows in it overrides `store` with a fixture of the same name that asks for this one and writes
them, so opening and closing are written once."""

from __future__ import annotations

import pytest

from gm.store import Store


@pytest.fixture
def store(store_target):
    s = Store(store_target)
    yield s
    s.close()
