"""The walk of an order's judging goes down the rooms once (scripts/walk_calls.py).

Under turns.apply_order, each gm.service module is returned to at most the
times named below, and the play and table rooms, reports, reportmail, the
outbox and its reply tokens are never called again once left: only returns
from a callee remain.  The reports hand the outbox one batch of mails.
"""

from __future__ import annotations

import importlib.util
import io
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "walk_calls.py"
spec = importlib.util.spec_from_file_location("walk_calls", SCRIPT)
walk_calls = sys.modules.setdefault("walk_calls", importlib.util.module_from_spec(spec))
spec.loader.exec_module(walk_calls)

S = "gm.service."
# Returns under apply_order, two players.  Sequential (Neighbors): turns is back from the table
# (games.advance) and from outgoing (reports.order_taken); games is back from deadlines inside
# advance; reports is back from reportmail (the batch made at once), observers, the calendar
# (the readers' events put on the batch), the pace (the batch's held letters taken out) and the
# outbox (its one batch); the outbox is back from its reply tokens, holding and the reader's
# thread (once each, for the batch).
SEQUENTIAL = {S + "play.turns": 2, S + "table.games": 1, S + "outgoing.reports": 5,
              S + "outgoing.outbox": 3}
# Simultaneous (Fuzzy Borders), an order that leaves the turn open: the confirmation, one outbox
# call (reply_rendered).
SIMULTANEOUS = {S + "play.turns": 2, S + "table.games": 1, S + "outgoing.reports": 1}
ONE_WAY = [S + "play.turns", S + "table.games", S + "table.deadlines", S + "outgoing.reports",
           S + "outgoing.reportmail", S + "outgoing.outbox", S + "outgoing.replies",
           S + "outgoing.holding", S + "outgoing.observers", S + "outgoing.calendar", S + "outgoing.pace",
           S + "outgoing.threads"]


@pytest.mark.parametrize("game, necessary", [("neighbors", SEQUENTIAL), ("fuzzy_borders", SIMULTANEOUS)])
def test_an_order_goes_down_the_rooms_once(tmp_path, game, necessary):
    outcome, walk = walk_calls.judged_walk(tmp_path, game)
    assert outcome.outcome in {"applied", "sealed"}
    under = walk.under(walk_calls.APPLY_ORDER)
    returns = under.returns_per_module()
    shown = io.StringIO()
    walk_calls.show(under, "under apply_order", shown)
    over = {m: n for m, n in returns.items() if n > necessary.get(m, 0)}
    assert not over, f"returns beyond those named: {over}\n{shown.getvalue()}"
    again = under.returns_per_module("call")
    assert not [m for m in ONE_WAY if again[m]], shown.getvalue()
