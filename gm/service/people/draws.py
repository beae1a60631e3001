"""Draws by agreement (RULINGS G6): DRAW and DRAW WITHDRAW by mail, and the end of a game drawn.

A proposal is a row of ``draw_proposals`` (the turn it was made in); it stands until the end
of the turn after that one, or until its player withdraws it, and only a player still in the
game counts.  When every remaining player has a standing proposal the game ends drawn: the
rules' ``end_drawn`` makes the final state, recorded as an orders row with action "draw" so
that a replay (gm verify, gm.service.records.audit) makes it again (G1).  The players are told
that a draw was proposed, never by whom; only the game's own history (gm history, for the GM)
names the proposers.
"""

from __future__ import annotations

from games.text import Text
from gm.core.model import GameView, Status
from gm.mail.inbound import Inbound
from gm.service.context import Context
from gm.service.outgoing import reports
from gm.service.outgoing.answers import done, refuse
from gm.service.table import deadlines, games

DRAWN = "Drawn by agreement (RULINGS G6): no winner."  # the result's reason (archive, LIST)


def standing(ctx: Context, view: GameView) -> set[str]:
    """The players still in the game whose draw proposal stands now: made in this turn or the
    one before (a turn number that went back, by a rollback, to before it does not count)."""
    remaining = set(view.rules.remaining(view.state)) & set(view.seated_names)
    return {name for name, turn in ctx.store.results.draw_proposals(view.id).items()
            if name in remaining and view.turn - 1 <= turn <= view.turn}


def agreed(ctx: Context, view: GameView) -> bool:
    """Every remaining player has a standing proposal (and someone remains, and the game runs)."""
    if view.status == Status.FINISHED or view.rules.is_over(view.state):
        return False
    remaining = set(view.rules.remaining(view.state)) & set(view.seated_names)
    return bool(remaining) and remaining <= standing(ctx, view)


def end_drawn(ctx: Context, view: GameView, who: str, origin: str, reason: str) -> GameView:
    """End the game drawn, inside a write: the rules' final state (recorded for replay), the
    result, the history line (``reason``, which may name the proposers: the GM's record only)
    and the final report to everyone, standings first.  Returns the game after."""
    now = ctx.clock()
    result = view.rules.end_drawn(view.state, now)
    after = games.save_state(ctx.store, view, result.state, now)
    ctx.store.turns.add_order(view.id, "draw", None, view.turn, "", accepted=True, origin=origin, at=now,
                              seq=after.seq)
    ctx.store.results.set_result(view.id, DRAWN, None, now)
    ctx.store.results.withdraw_draw(view.id)  # spent: a rollback starts without them
    ctx.store.history.log(view.id, view.turn, who, "draw", reason, now)
    deadlines.open_turn(ctx.store, after)  # over: nothing ahead of it
    reports.queue_reports(ctx, after, result.events)
    return after


def settle(ctx: Context, view: GameView, who: str) -> bool:
    """End the game drawn if every remaining player now has a standing proposal (after a
    proposal, or after a player left); True if it ended."""
    if not agreed(ctx, view):
        return False
    names = ", ".join(sorted(standing(ctx, view)))
    end_drawn(ctx, view, who, "mail", f"every remaining player has a standing draw proposal ({names})")
    return True


def draw(ctx: Context, view: GameView, player, args: str, inbound: Inbound) -> None:
    """DRAW (propose a draw, or renew one's proposal) and DRAW WITHDRAW."""
    name = player.name
    words = args.upper().split()
    if words not in ([], ["WITHDRAW"]):
        refuse(ctx, inbound, view, Text("Not done"), Text(
            "DRAW {args}: write DRAW to propose a draw (alone or with your orders), or DRAW WITHDRAW "
            "to take your proposal back.", args=args[:40]))
        return
    if view.status == Status.FINISHED or view.rules.is_over(view.state):
        refuse(ctx, inbound, view, Text("Not done"), Text(
            "Game {game} is over: there is no draw to propose or withdraw.", game=view.id))
        return
    others = [n for n in view.seated_names if n != name]
    if words:
        _withdraw(ctx, view, name, others, inbound)
        return
    ctx.store.results.propose_draw(view.id, name, view.turn, ctx.clock())
    ctx.store.history.log(view.id, view.turn, name, "draw", f"{name} proposed a draw", ctx.clock())
    if settle(ctx, view, name):
        done(ctx, inbound, view, Text("Game drawn"), Text(
            "Every player still in game {game} has proposed a draw: the game ends drawn (RULINGS G6). "
            "The final report and standings follow.", game=view.id), archive_player=name)
        return
    until = view.turn + 1
    done(ctx, inbound, view, Text("Draw proposed"), Text(
        "Your draw proposal stands until the end of turn {turn}, unless you withdraw it (DRAW "
        "WITHDRAW). The game ends drawn when every player still in it has a standing proposal "
        "(RULINGS G6). The others are told that a draw was proposed, not by whom.", turn=until),
        archive_player=name)
    reports.notice(ctx, view, others, [
        Text("A draw has been proposed (RULINGS G6); who proposed it is not told."),
        Text("It stands until the end of turn {turn}. To agree, send DRAW (alone or with your "
             "orders): the game ends drawn when every player still in it has a standing proposal.",
             turn=until)],
        Text("Draw proposed"))


def _withdraw(ctx: Context, view: GameView, name: str, others: list[str], inbound: Inbound) -> None:
    if name not in standing(ctx, view):
        ctx.store.results.withdraw_draw(view.id, name)  # a lapsed one goes too
        refuse(ctx, inbound, view, Text("Not done"), Text(
            "You have no draw proposal standing: there is nothing to withdraw."))
        return
    ctx.store.results.withdraw_draw(view.id, name)
    ctx.store.history.log(view.id, view.turn, name, "draw", f"{name} withdrew a draw proposal", ctx.clock())
    done(ctx, inbound, view, Text("Draw withdrawn"), Text("Your draw proposal is withdrawn."),
         archive_player=name)
    reports.notice(ctx, view, others, [Text("A draw proposal has been withdrawn (RULINGS G6); who "
                                            "withdrew it is not told.")], Text("Draw withdrawn"))
