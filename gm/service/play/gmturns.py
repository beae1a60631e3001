"""The game master's hand in a turn: `gm order` and `gm process`, each after the clock.

RULINGS G4 (time is checked before orders) holds here as on the mail path:
the open turn's timers and deadline are settled first (gm.service.play.timers.settle),
so an order the GM enters after a timer ran out is judged on the next turn,
and `gm process` after a deadline closes the turn the deadline closed, once.
"""

from __future__ import annotations

from gm.core.model import Outcome, ServiceError
from gm.service.play import moves, timers, turns
from gm.service.table import games
from gm.service.context import Context
from gm.store.locks import retried


@retried
def gm_order(ctx: Context, game_id: str, name: str, text: str, who: str | None = None,
             why: str | None = None) -> Outcome:
    """`gm order`: the GM enters a player's orders, through the same path as mail.

    The players are told the game master entered them (see turns.gm_note); ``why`` goes into
    the history with them.
    """
    with ctx.store.write(games=[game_id]):
        view, turn_closed, _ = timers.settle(ctx, game_id)
        detail = f"as {name}: {text}" + (f"; why: {why}" if why else "")
        ctx.store.history.log(view.id, view.turn, who or "gm", "order", detail, ctx.clock())
        return moves.play_order(ctx, view, name, text, origin="gm", turn_closed=turn_closed)


@retried
def process(ctx: Context, game_id: str, who: str | None = None, why: str | None = None) -> bool:
    """`gm process`: adjudicate a simultaneous turn now; ``why`` goes into the history.

    If its timer or deadline had already run out, settling the clock closes it (as the timer or
    the late policy says, G4) and the turn that follows is left open: the GM asked for one turn.
    """
    view = games.load(ctx.store, game_id)
    if not view.rules.simultaneous:
        raise ServiceError(f"{view.rules.title} is sequential: there is no turn to close")
    with ctx.store.write(games=[game_id]):
        view, turn_closed, _ = timers.settle(ctx, game_id)
        detail = "" if turn_closed is None else f"turn {turn_closed} had closed by its clock"
        detail += ("; " if detail and why else "") + (f"why: {why}" if why else "")
        ctx.store.history.log(view.id, view.turn, who or "gm", "process", detail, ctx.clock())
        if turn_closed is not None:
            return True
        return turns.close_if_due(ctx, game_id, force=True)
