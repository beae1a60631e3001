"""Helpers shared by the admin tests."""

from __future__ import annotations

import email
import email.policy
import uuid

import pytest

from gm.core.config import Config
from support import Clock

T0 = 1_741_000_000.0  # Mon 2025-03-03 11:06:40 UTC


class FakeClock(Clock):
    """The shared test clock, starting on a Monday the deadline tests count from."""

    def __init__(self, now: float = T0):
        super().__init__(now)


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def config(tmp_path):
    return Config(data_dir=tmp_path / "data", gm_address="boss@example.org")


# The engine fixture is tests/conftest.py's, built on the clock and config above.


PLAYERS = [("ada", "ada@example.org"), ("bob", "bob@example.org")]
PLAYERS3 = PLAYERS + [("cy", "cy@example.org")]


def order_mail(sender: str, game_id: str, password: str, text: str, subject: str = "orders") -> bytes:
    msg = email.message.EmailMessage()
    msg["From"] = sender
    msg["To"] = "gm@localhost"
    msg["Subject"] = subject
    msg["Message-ID"] = f"<{uuid.uuid4().hex}@example.org>"
    msg.set_content(f"GAME {game_id} PASSWORD {password}\n{text}\n")
    return bytes(msg)


def outbox(engine, recipient: str | None = None, kind: str | None = None, since: int = 0):
    rows = engine.store.all("SELECT * FROM outbox WHERE id > ? ORDER BY id", since)
    return [r for r in rows if (recipient is None or r["recipient"] == recipient)
            and (kind is None or r["kind"] == kind)]


def body_of(row) -> str:
    msg = email.message_from_bytes(row["raw"], policy=email.policy.default)
    return msg.get_content()


def last_outbox_id(engine) -> int:
    return engine.store.one("SELECT COALESCE(MAX(id), 0) AS n FROM outbox")["n"]


def history(engine, game_id: str, action: str | None = None):
    rows = engine.store.all("SELECT * FROM history WHERE game_id = ? ORDER BY id", game_id)
    return [r for r in rows if action is None or r["action"] == action]


def neighbors_move(engine, game_id: str) -> tuple[str, str]:
    loaded = engine.load(game_id)
    (mover,) = loaded.rules.to_move(loaded.state)
    return mover, loaded.rules.legal_orders(loaded.state, mover)[0]
