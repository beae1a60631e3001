"""Helpers shared by the admin tests (no fixtures: those are in tests/admin/conftest.py).

PLAYERS, PLAYERS3, order_mail and last_outbox_id are tests/support.py's.
"""

from __future__ import annotations

import email
import email.policy

from gm.store.packing import unpack_mail
from support import Clock

T0 = 1_741_000_000.0  # Mon 2025-03-03 11:06:40 UTC


class FakeClock(Clock):
    """The shared test clock, starting on a Monday the deadline tests count from."""

    def __init__(self, now: float = T0):
        super().__init__(now)


def outbox(engine, recipient: str | None = None, kind: str | None = None, since: int = 0):
    rows = engine.store.all("SELECT * FROM outbox WHERE id > :since ORDER BY id", since=since)
    return [r for r in rows if (recipient is None or r["recipient"] == recipient)
            and (kind is None or r["kind"] == kind)]


def body_of(row) -> str:
    msg = email.message_from_bytes(unpack_mail(row["raw"]), policy=email.policy.default)
    return msg.get_body(("plain",)).get_content()  # the text part (reports may have HTML too)


def history(engine, game_id: str, action: str | None = None):
    rows = engine.store.all("SELECT * FROM history WHERE game_id = :game ORDER BY id", game=game_id)
    return [r for r in rows if action is None or r["action"] == action]


def neighbors_move(engine, game_id: str) -> tuple[str, str]:
    loaded = engine.load(game_id)
    (mover,) = loaded.rules.to_move(loaded.state)
    return mover, loaded.rules.legal_orders(loaded.state, mover)[0]


def run_gm(conf, *args, env=None):
    """`gm --config CONF ARGS...` as the GM "tester" runs it; a crash (not an exit) is raised."""
    from typer.testing import CliRunner

    from gm.cli import app

    result = CliRunner().invoke(app, ["--config", str(conf), *args],
                                env={"GM_USER": "tester", **(env or {})})
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result
