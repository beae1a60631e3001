"""Helpers shared by the service tests (imported as ``support``)."""

from __future__ import annotations

import email
import email.policy
from pathlib import Path

EML = Path(__file__).parent / "fixtures" / "eml"

# The position of the Neighbors rule text's example, before Rb4xd4 (ada to move).
EXAMPLE_LAYOUT = "....F.." "...F..." ".R.N.B." "......." ".F.Q.Q." "......."


class Clock:
    """A clock the tests move by hand."""

    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now

def eml(name: str, **values: str) -> bytes:
    raw = (EML / name).read_bytes()
    for key, value in values.items():
        raw = raw.replace(("{%s}" % key.upper()).encode(), value.encode())
    return raw


def outbox(engine, since_id: int = 0) -> list[email.message.EmailMessage]:
    rows = engine.store.all("SELECT raw FROM outbox WHERE id > ? ORDER BY id", since_id)
    return [email.message_from_bytes(r["raw"], policy=email.policy.default) for r in rows]


def last_outbox_id(engine) -> int:
    row = engine.store.one("SELECT COALESCE(MAX(id), 0) AS n FROM outbox")
    return row["n"]


def body(msg) -> str:
    return msg.get_body(("plain",)).get_content()
