"""A player's order as every ruling has it: the clock first, the order, then the lines.

The way in for an order from mail (gm.service.intake.orders), from the GM
(gm.service.play.gmturns) and from a conditional line (its next move, played
at once): the mover's stopped clock time is credited first (RULINGS G10), the
order is judged and its mail queued (gm.service.play.turns.apply_order, which
goes down the rooms once), then the game's conditional lines follow the move
and a line now due plays, in the same transaction (RULINGS G8).
"""

from __future__ import annotations

from gm.core.model import GameView, Outcome, OutcomeKind
from gm.mail.inbound import Inbound
from gm.service.context import Context
from gm.service.play import clocks, conditional, turns


def play_order(ctx: Context, view: GameView, name: str, text: str, *, origin: str,
               inbound: Inbound | None = None, message_row: int | None = None, now: float | None = None,
               turn_closed: int | None = None, note: str | None = None,
               own_note: str | None = None) -> Outcome:
    """Judge ``name``'s ``text`` on ``view`` (turns.apply_order says what each argument is), with
    the clock before it and the lines after it."""
    now = ctx.clock() if now is None else now
    view = clocks.before_order(ctx, view, name, now)  # G10: the mover's stopped time first
    outcome, after = turns.apply_order(ctx, view, name, text, origin=origin, inbound=inbound,
                                       message_row=message_row, now=now, turn_closed=turn_closed, note=note,
                                       own_note=own_note)
    if outcome.outcome == OutcomeKind.APPLIED and after is not None:
        conditional.follow(ctx, after, name, outcome.detail, origin=origin, inbound=inbound, play=play_order,
                           now=now)
    return outcome
