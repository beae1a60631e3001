"""Helpers shared by every test area and the benchmarks (imported as ``support``).

pytest puts ``tests/`` on sys.path (it holds the root conftest); a benchmark
puts it there itself.  Fixtures live in the conftest files, never here.
"""

from __future__ import annotations

import email
import email.message
import email.policy
import email.utils
import uuid
from pathlib import Path

from gm.store.packing import unpack_mail

EML = Path(__file__).parent / "fixtures" / "eml"

# The position of the Neighbors rule text's example, before Rb4xd4 (ada to move).
EXAMPLE_LAYOUT = "....F.." "...F..." ".R.N.B." "......." ".F.Q.Q." "......."

GM_ADDRESS = "gm@example.test"
PLAYERS = [("ada", "ada@example.org"), ("bob", "bob@example.org")]
PLAYERS3 = PLAYERS + [("cy", "cy@example.org")]


class Clock:
    """A clock the tests move by hand."""

    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


def order_mail(sender: str, text: str, *, game_id: str | None = None, password: str | None = None,
               to: str = GM_ADDRESS, subject: str = "orders", **headers: str) -> bytes:
    """A player's mail to the GM, as bytes: the one way the tests write an order mail.

    With ``game_id`` the body is ``GAME <game_id> PASSWORD <password>`` and then
    ``text`` on the lines after it; without, ``text`` is the whole body.  Extra
    headers are given as keywords, ``_`` standing for ``-`` (``In_Reply_To=...``).
    """
    msg = email.message.EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = email.utils.formatdate()
    msg["Message-ID"] = f"<{uuid.uuid4().hex}@example.org>"
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg.set_content(text if game_id is None else f"GAME {game_id} PASSWORD {password}\n{text}\n")
    return bytes(msg)


def eml(name: str, **values: str) -> bytes:
    """A mail from tests/fixtures/eml with its {GAME}, {PASSWORD}, ... filled in."""
    raw = (EML / name).read_bytes()
    for key, value in values.items():
        raw = raw.replace(("{%s}" % key.upper()).encode(), value.encode())
    return raw


def outbox(engine, since_id: int = 0) -> list[email.message.EmailMessage]:
    rows = engine.store.all("SELECT raw FROM outbox WHERE id > ? ORDER BY id", since_id)
    return [email.message_from_bytes(unpack_mail(r["raw"]), policy=email.policy.default) for r in rows]


def last_outbox_id(engine) -> int:
    row = engine.store.one("SELECT COALESCE(MAX(id), 0) AS n FROM outbox")
    return row["n"]


def body(msg) -> str:
    return msg.get_body(("plain",)).get_content()
