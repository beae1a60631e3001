"""Orders and turns: apply one player's orders, and the one rule that closes a simultaneous turn.

Everything runs inside the caller's write transaction, together with the
record of the mail that caused it and the mail it queues.
"""

from __future__ import annotations

from games.text import reason, Text
from games.base import NotYourTurnError, OrderError
from gm.core.model import GameView, Outcome, ServiceError, Status, Seat
from gm.mail.inbound import Inbound
from gm.service.outgoing import reports
from gm.service.table import deadlines, games
from gm.service.context import Context


def apply_order(ctx: Context, view: GameView, name: str, text: str, *, origin: str,
                inbound: Inbound | None = None, message_row: int | None = None,
                now: float | None = None, turn_closed: int | None = None,
                note: str | None = None, own_note: str | None = None) -> tuple[Outcome, GameView | None]:
    """Judge one player's orders (mail or GM override) and queue what they cause.

    It decides first, then goes down the rooms once: the state to the table (games.advance),
    the order to the store, the mail to outgoing (reports.order_taken).  ``turn_closed``: the
    turn the sender wrote for, closed by its clock before this (RULINGS G4); ``note``: a line
    opening everyone's report of the move, and ``own_note`` the mover's own (a move played from a
    conditional line, RULINGS G8: the lines its sender has left).  Returns the outcome and the
    game as the order left it (None when it was refused), for what follows the order in the same
    transaction (gm.service.play.moves)."""
    now = ctx.clock() if now is None else now
    player = seat(view, name)
    name = player.name
    try:
        check_open(view, player)
        order = view.rules.parse_order(view.state, name, text)
        result = view.rules.submit(view.state, name, order, now)
    except OrderError as exc:
        return _refuse(ctx, view, name, text, exc, refusal(view, exc, turn_closed), origin=origin,
                       inbound=inbound, message_row=message_row, now=now), None
    row = dict(action="order", player=name, turn=view.turn, text=text, accepted=True, origin=origin,
               at=now, canonical=str(order), message_row=message_row)
    after, table = games.advance(ctx.store, view, result.state, now, row, opened=ctx.clock())
    closing = view.rules.simultaneous and should_close(ctx, after, now, all_in=table.all_in)
    note = gm_note([name], str(order)) if origin == "gm" else note
    reply_to = reports.order_taken(ctx, view, after, table, player, inbound, text, result.events,
                                   note, closing, own_note=own_note)
    if closing:
        close_if_due(ctx, view.id, now=now, reply_to=reply_to)
    return Outcome("sealed" if view.rules.simultaneous else "applied", str(order), view.id), after


def seat(view: GameView, name: str) -> Seat:
    """The named player's row; ServiceError naming the players if there is none."""
    player = view.player(name)
    if player is None:
        known = ", ".join(p.name for p in view.players)
        raise ServiceError(Text("no player {name} in game {game} (players: {known})", name=repr(name),
                                game=view.id, known=known))
    return player


def check_open(view: GameView, player: Seat) -> None:
    """NotYourTurnError if the game takes no orders from ``player``, saying why."""
    if view.status == Status.FINISHED:
        raise NotYourTurnError(Text("the game is over"))
    if view.status == Status.PAUSED:
        raise NotYourTurnError(Text("the game is paused by the game master"))
    if not player.active:
        raise NotYourTurnError(Text("you have left this game"))


def refusal(view: GameView, exc: OrderError, turn_closed: int | None) -> str:
    """What a refused order's reply says: the rules' reason, and the turn that had closed."""
    if turn_closed is None:
        return reason(exc)
    return Text("turn {closed} had closed before your orders were judged (its timer or deadline "
                "had run out, RULINGS G4), and on turn {turn} they do not stand: {why}",
                closed=turn_closed, turn=view.turn, why=reason(exc))



def gm_note(names: list[str], order: str | None = None) -> str:
    """The line that tells the players the game master entered orders for them (gm order)."""
    if order is not None:
        return Text("The game master entered this order for {name}: {order}.", name=names[0], order=order)
    return Text("The game master entered the orders of {names} this turn.", names=", ".join(names))


def _refuse(ctx: Context, view: GameView, name: str, text: str, exc: OrderError, error: str, *,
            origin: str,
            inbound: Inbound | None, message_row: int | None, now: float) -> Outcome:
    """Record a refused order and tell the sender why (with the legal orders, if known)."""
    ctx.store.turns.add_order(view.id, "order", name, view.turn, text, accepted=False, origin=origin,
                              at=now, error=error, message_row=message_row)
    body = ctx.outbox.render("rejected", game_id=view.id, text=text, error=error,
                             kind=type(exc).__name__, legal=getattr(exc, "legal", None))
    if inbound is not None:
        ctx.outbox.reply(inbound, view, Text("Order refused"), body, kind="error")
    return Outcome("rejected", error, view.id, [body])


def should_close(ctx: Context, view: GameView, now: float, force: bool = False,
                 all_in: bool | None = None) -> bool:
    """The one rule for closing a turn: the GM or a deadline forces it, the rules say every
    order is in, a rules timer ran out, or every player still in the game has sent orders
    (``all_in``: deadlines.everyone_left_is_in, if the caller read it)."""
    rules, state = view.rules, view.state
    timer = rules.timer(state)
    if (not rules.simultaneous and timer is None) or rules.is_over(state) \
            or view.status != Status.ACTIVE:
        return False
    return (force or rules.ready(state, now) or (timer is not None and now >= timer)
            or (all_in if all_in is not None else deadlines.everyone_left_is_in(ctx.store, view)))


def close_if_due(ctx: Context, game_id: str, now: float | None = None, force: bool = False,
                 origin: str = "timer", reply_to: tuple[str, Inbound] | None = None,
                 own_notes: dict[str, str] | None = None) -> bool:
    """Close the open turn if should_close says so; queue the reports (``reply_to``: the player
    whose mail completed the turn, whose report is the reply to it; ``own_notes``: a line for
    some players, opening their report, e.g. that the deadline passed without their orders).
    True if it closed."""
    now = ctx.clock() if now is None else now
    with ctx.store.write(games=[game_id]):
        view = games.load(ctx.store, game_id)
        if not should_close(ctx, view, now, force):
            return False
        start_seq, _ = deadlines.turn_start(ctx.store, view.id)
        by_gm = [name for name, how in ctx.store.turns.order_origins_since(view.id, start_seq).items()
                 if how == "gm"]
        result = view.rules.close_turn(view.state, now)
        row = dict(action="close", player=None, turn=view.turn, text="", accepted=True,
                   origin="gm" if force and origin == "timer" else origin, at=now)
        after, table = games.advance(ctx.store, view, result.state, now, row, opened=ctx.clock())
        # orders the GM entered (gm order) are named in the report of their turn
        note = gm_note(by_gm) if by_gm else None
        reports.queue_reports(ctx, after, result.events, reply_to=reply_to, note=note,
                              own_notes=own_notes, table=table)
        return True
