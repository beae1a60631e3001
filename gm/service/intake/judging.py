"""Judging one stored mail: an ordered list of steps, each a small function taking the case.

A step returns None to go on, or the mail's Outcome; then the walk goes
straight to the last step, the reply, which every mail gets.  Each step
lives in its room of gm.service.intake, entered once on the mail's way.
Everything runs in the mail's one transaction (gm.service.intake.ingest).
"""

from __future__ import annotations

from gm.core.model import Outcome, OutcomeKind
from gm.mail.inbound import Inbound
from gm.service.context import Context
from gm.service.intake import held
from gm.service.intake.arrival import time_first
from gm.service.intake.authenticate import authenticate
from gm.service.intake.belowquote import tell_unread
from gm.service.intake.case import MailCase
from gm.service.intake.commands import run_commands, send_press
from gm.service.intake.gate import cap_size, refuse_robots
from gm.service.intake.orders import judge_orders
from gm.service.intake.routing import find_game, route_and_lock
from gm.service.intake.setaside import SeatAuth
from gm.service.people import optin


def reply(case: MailCase) -> None:
    """Every answer to the sender as one reply mail, the mail's requests as one code to confirm;
    then the held mails a CONFIRM in it released are judged, each as a mail of its own."""
    if case.outcome.outcome != OutcomeKind.ROBOT:
        tell_unread(case, case.outcome.game_id)
    asked = optin.finish(case.ctx, case.inbound)
    case.ctx.outbox.send_answers()
    held.release(case.service, case.released, judge_mail)
    if asked:
        case.outcome.detail = f"{case.outcome.detail}; {asked}"


STEPS = (
    refuse_robots,   # gate: a robot's mail is never answered; a bounce is recorded
    cap_size,        # gate: a mail too large or too strange to read is refused
    route_and_lock,  # routing: the game it is for; lock what it may change
    find_game,       # routing: the stored game (no game: help; not started: the lobby)
    time_first,      # arrival: a deadline that ran out before it came closes its turn first
    authenticate,    # authenticate: the seat it speaks for, or refused, or held
    run_commands,    # commands: its commands, once each
    send_press,      # commands: its press
    judge_orders,    # orders: its orders, for the open turn
    reply,           # judging: one reply; the held mails it released
)


def judge_mail(service: Context, inbound: Inbound, row_id: int, now: float,
               trusted: SeatAuth | None = None) -> Outcome:
    """Walk ``inbound`` (stored as ``row_id``) through STEPS as one case.  ``trusted``: a retried
    or held mail, masked, and whom it authenticated as when it came (intake.setaside)."""
    case = MailCase.open(service, inbound, row_id, now, trusted)
    for step in STEPS:
        if case.outcome is not None and step is not reply:
            continue  # decided: on to the reply
        decided = step(case)
        if decided is not None:
            case.outcome = decided
    return case.outcome
