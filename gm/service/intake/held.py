"""Mail held while its seat is locked against guessing: kept, then judged once its address confirms.

handle() (gm.service.intake.ingest) comes here where a lock-out refused a
mail's password and no reply token spoke for it.  A mail from the seat's
registered address with the seat's right password is held, not refused: its
row keeps outcome ``held`` and whom it authenticated as, with the turn it was
for (gm.service.intake.setaside.SeatAuth), its password masked as in every kept
mail; the address is mailed a code (gm.service.people.holds).  When that
address confirms, release() judges each mail held for the seat as a retry is
judged, at the time it came; if the turn it was for has closed meanwhile, it is
refused as orders for an old turn, and if a later mail of the seat's for that
turn was judged meanwhile, it is not read (a later mail replaces an earlier one).  Nothing waits for a confirmation: a
deadline passes as it would, so a lock lends nobody time.
"""

from __future__ import annotations

from typing import Callable

from gm.core import times
from gm.core.model import GameView, Outcome
from gm.mail.inbound import Inbound
from gm.service.people import guessing, holds
from gm.service.play import timers
from gm.service.context import Context
from gm.service.intake.setaside import SeatAuth
from gm.service.outgoing.answers import refuse


def hold_or_refuse(ctx: Context, view: GameView, inbound: Inbound, row_id: int, password: str | None,
                   now: float) -> Outcome:
    """The answer to a mail whose password a lock-out refused: held where it is the right one from
    the seat's own address, else refused (a wrong one there counted: guessing.held_seat)."""
    seat = guessing.held_seat(ctx, view, inbound.sender, password)
    if seat is None:
        text = (f"Your mail was not read: after {guessing.FAILURE_LIMIT} wrong passwords within the "
                "hour, gm refuses passwords for this seat or from this address for an hour. Mail "
                "with the right password from the address a seat is registered to is held until "
                "that address confirms it. " + guessing.reply_note(ctx) + "If someone is guessing "
                f"your password, send PASSWORD RESET {view.id} from the address your seat is "
                "registered to.")
        refuse(ctx, inbound, view, "Not done", text)
        return Outcome("rejected", text, view.id)
    ctx.store.inbox.hold_message(row_id, SeatAuth("password", view.id, seat["name"], view.turn).dump())
    holds.ask(ctx, view, seat, inbound, now)
    return Outcome("held", f"held for seat {seat['name']} (turn {view.turn}) during a lock-out, until "
                   "its address confirms", view.id)


Judge = Callable[[Context, Inbound, int, float, SeatAuth], Outcome]


def release(ctx: Context, read: Callable[[Context, bytes], Inbound], judge: Judge) -> None:
    """Judge the mails held for the seats a confirmation in the mail just handled released
    (ctx.released), oldest first, each with ``judge`` (ingest.handle_with_one_reply) as a mail
    that came when it did; in the same transaction."""
    released, ctx.released = ctx.released, {}
    for (game_id, name), confirmed in released.items():
        for row in ctx.store.inbox.held_messages(game_id):
            auth = SeatAuth.load(row["auth"])
            if auth is None or auth.seat != name or row["received"] > confirmed:
                continue
            outcome = _judge_held(ctx, read(ctx, bytes(row["raw"])), row, auth, judge)
            ctx.store.inbox.set_message_outcome(row["id"], outcome.outcome, outcome.detail[:2000], outcome.game_id)


def _judge_held(ctx: Context, inbound: Inbound, row, auth: SeatAuth, judge: Judge) -> Outcome:
    view, _, _ = timers.settle(ctx, auth.game_id)  # RULINGS G4: a deadline passed meanwhile is first
    held = (f"Your mail of {times.format_stamp(row['received'])} was held while passwords for your "
            "seat were refused")
    if auth.turn is not None and view.turn != auth.turn:
        label, text = "Orders refused (old turn)", (
            f"{held}, and turn {auth.turn}, which it was for, closed before this address confirmed it "
            "(neither a deadline nor the other players wait for a confirmation). It was not read; the "
            f"game is at turn {view.turn}: send your orders for it again.")
    elif auth.turn is not None and ctx.store.turns.accepted_orders_later(view.id, auth.seat, auth.turn,
                                                                         row["received"]):
        label, text = "Held mail not read (a later one was)", (
            f"{held}, and a later mail of yours for turn {auth.turn} was judged before this address "
            "confirmed it; as a later mail replaces an earlier one, this one was not read.")
    else:
        return judge(ctx, inbound, row["id"], row["received"], auth)
    ctx.outbox.reply(inbound, view, label, ctx.outbox.error_body(view, text), kind="reply")
    return Outcome("rejected", text, view.id)
