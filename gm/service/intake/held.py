"""Mail held while its seat is locked against guessing: kept, then judged once its address confirms.

Authenticating (gm.service.intake.authenticate) comes here where a lock-out
refused a mail's password and no reply token spoke for it.  A mail from the
seat's registered address with the seat's right password is held: its row
keeps outcome ``held`` and whom it authenticated as, with the turn it was for
(gm.service.intake.setaside.SeatAuth); the address is mailed a code
(gm.service.people.holds).  When that address confirms, release() judges each
mail held for the seat as it came; one for a turn that has closed, or one a
later mail for its turn replaced, is not read.  Nothing waits for a
confirmation: a deadline passes as it would, so a lock lends nobody time.
"""

from __future__ import annotations

from typing import Callable

from gm.core import times
from gm.core.model import GameView, Outcome, OutcomeKind
from gm.mail.inbound import Inbound
from gm.service.context import Context
from games.text import Text
from gm.service.intake.case import NOT_DONE, read
from gm.service.intake.setaside import SeatAuth
from gm.service.intake.words import say
from gm.service.outgoing.answers import refuse
from gm.service.people import guessing, holds
from gm.service.play import timers
from gm.store.mailrows import MessageRow


def hold_or_refuse(ctx: Context, view: GameView, inbound: Inbound, row_id: int, password: str | None,
                   now: float) -> Outcome:
    """The answer to a mail whose password a lock-out refused: held where it is the right one from
    the seat's own address, else refused (a wrong one there counted: guessing.held_seat)."""
    seat = guessing.held_seat(ctx, view, inbound.sender, password)
    if seat is None:
        text = say("locked_out", limit=guessing.FAILURE_LIMIT, note=guessing.reply_note(ctx),
                   game=view.id)
        refuse(ctx, inbound, view, NOT_DONE, text)
        return Outcome(OutcomeKind.REJECTED, text, view.id)
    ctx.store.inbox.hold_message(row_id, SeatAuth("password", view.id, seat.name, view.turn).dump())
    holds.ask(ctx, view, seat, inbound, now)
    return Outcome(OutcomeKind.HELD, f"held for seat {seat.name} (turn {view.turn}) during a lock-out, until "
                   "its address confirms", view.id)


Judge = Callable[[Context, Inbound, int, float, SeatAuth], Outcome]


def release(ctx: Context, released: dict[tuple[str, str], float], judge: Judge) -> None:
    """Judge the mails held for the seats a confirmation in the mail just judged ``released``
    ((game, seat) -> when), oldest first, each with ``judge`` (judging.judge_mail) as a mail
    that came when it did; in the same transaction."""
    for (game_id, name), confirmed in released.items():
        for row in ctx.store.inbox.held_messages(game_id):
            auth = SeatAuth.load(row.auth)
            if auth is None or auth.seat != name or row.received > confirmed:
                continue
            outcome = _judge_held(ctx, read(ctx, bytes(row.raw)), row, auth, judge)
            ctx.store.inbox.set_message_outcome(row.id, outcome.outcome.value, outcome.detail[:2000],
                                                outcome.game_id)


def _judge_held(ctx: Context, inbound: Inbound, row: MessageRow, auth: SeatAuth, judge: Judge) -> Outcome:
    view, _, _ = timers.settle(ctx, auth.game_id)  # RULINGS G4: a deadline passed meanwhile is first
    received = times.format_stamp(row.received)
    if auth.turn is not None and view.turn != auth.turn:
        label = Text("Orders refused (old turn)")
        text = say("held_for_old_turn", received=received, turn=auth.turn, now=view.turn)
    elif auth.turn is not None and ctx.store.turns.accepted_orders_later(view.id, auth.seat, auth.turn,
                                                                         row.received):
        label = Text("Held mail not read (a later one was)")
        text = say("held_and_later", received=received, turn=auth.turn)
    else:
        return judge(ctx, inbound, row.id, row.received, auth)
    ctx.outbox.reply(inbound, view, label, ctx.outbox.error_body(view, text), kind="reply")
    return Outcome(OutcomeKind.REJECTED, text, view.id)
