"""A player's own seat, by mail: RESIGN, SET PASSWORD, PASSWORD RESET, SET ADDRESS and CONFIRM.

Each needs the seat's password or reply token, except PASSWORD RESET and
CONFIRM, which prove themselves otherwise: a reset mails the new password
only to the address the seat is registered to, and only when asked from it;
an address moves only when the new address sends back the code gm mailed to
it.  A seat's new password or address bumps its generation, so every reply
address (gm.core.tokens) made before stops working.
"""

from __future__ import annotations


from gm.core.model import GameView, Status
from gm.mail.inbound import Inbound
from gm.service import deadlines, games, reports
from gm.service.answers import done, refuse
from gm.service.context import Context

MIN_PASSWORD, MAX_PASSWORD = 8, 64
CODE_LENGTH = 10
CODE_DAYS = 3  # an address code works this long, once


def remove(ctx: Context, view: GameView, name: str, who: str, why: str) -> tuple[GameView, int]:
    """Take a seat out of the game as its rules for leaving say (RULINGS G5): the rules' ``leave``
    gives the state without it; the others get a report.  Inside a write; returns (the game after,
    the seq of its new state).  When too few are left the one removed forfeits."""
    rules, now = view.rules, ctx.clock()
    ctx.store.deactivate_player(view.id, name)
    result = rules.leave(view.state, name, now)
    seq = games.save_gm_state(ctx.store, view, rules.dump(result.state), "edit", view.seq,
                              f"{name} left", now)
    after = games.load(ctx.store, view.id)
    if rules.is_over(after.state):  # too few left: the one removed forfeits
        reason = f"{name} forfeited: {why}"
        ctx.store.set_result(view.id, reason, rules.winners(after.state) or None, now)
        ctx.store.log(view.id, after.turn, who, "forfeit", reason, now)
    deadlines.open_turn(ctx.store, after)
    reports.queue_reports(ctx, after, result.events)
    return after, seq


# --- RESIGN -------------------------------------------------------------------------------
def resign(ctx: Context, view: GameView, player, args: str, inbound: Inbound) -> None:
    """RESIGN: the player leaves the game under way; the others are told (the GM can still
    give the seat to someone else with gm replace)."""
    name = player["name"]
    if view.status == Status.FINISHED or view.rules.is_over(view.state):
        refuse(ctx, inbound, view, "Not resigned", f"Game {view.id} is over; there is nothing to "
               "resign from.")
        return
    ctx.store.log(view.id, view.turn, name, "resign", f"{name} resigned by mail", ctx.clock())
    reports.notice(ctx, view, [n for n in view.seated_names if n != name],
                   [f"{name} has resigned from the game."], f"{name} resigned")
    after, _ = remove(ctx, view, name, name, "resigned")
    over = after.rules.is_over(after.state)
    done(ctx, inbound, view, "Resigned", f"You have resigned from game {view.id}. "
         + ("Too few players are left: the game is over." if over else
            "The game goes on without you; gm sends you no more of its mail, and orders from "
            "your seat are refused."), archive_player=name)
