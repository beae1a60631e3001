"""What the turn now open owes a correspondence clock (RULINGS G10): no deadline, a reminder.

A game with the option ``clock`` has no turn deadline (``deadlines.current``).
The reminder goes once per turn, when the mover's bank falls under a day
(gm.service.play.clocks sends it and records it in the history);
``deadlines.next_due`` wakes the tick for it.
"""

from __future__ import annotations

import json

from games.clock import DAY
from gm.core.model import GameView, Status
from gm.store import Store

REMINDER = "clock reminder"  # the history action of a reminder: one per player and turn


def mover_of(view: GameView) -> str | None:
    """The one player the rules wait for, if still in the game (sequential games)."""
    if view.rules.simultaneous or view.rules.is_over(view.state):
        return None
    seated = set(view.seated_names)
    waiting = [p for p in view.rules.to_move(view.state) if p in seated]
    return waiting[0] if len(waiting) == 1 else None


def replaces_deadline(view: GameView) -> bool:
    """With the option ``clock`` on, the turn deadline and grace are not used (G10).

    Proximity's older ``time_bank`` keeps its deadline, as it always did.
    """
    options = json.loads(view.row.options or "{}")
    return "clock" in options and view.rules.clock_of(view.state) is not None


def reminded(store: Store, view: GameView, mover: str) -> bool:
    return any(r.action == REMINDER and r.turn == view.turn and r.detail == mover
               for r in store.history.history_of(view.id))


def reminder_at(store: Store, view: GameView) -> float | None:
    """When the mover's bank falls under a day, unless they were reminded this turn or it was
    under a day as the turn opened (the report says so already)."""
    if view.status != Status.ACTIVE:
        return None
    clock, mover = view.rules.clock_of(view.state), mover_of(view)
    if clock is None or mover is None or clock.due(mover) is None:
        return None
    if clock.banks.get(mover, 0.0) <= DAY or reminded(store, view, mover):
        return None
    due: float = clock.due(mover)
    return due - DAY
