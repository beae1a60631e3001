"""Judging one stored mail: an ordered list of steps, each a small function taking the case.

A step returns None to go on, or the mail's Outcome; then the walk goes
straight to the last step, the reply, which every mail gets.  Each step
lives in its room of gm.service.intake, entered once on the mail's way,
and that room loads when a mail first reaches the step (``room``): a
robot's mail or a stranger's HELP, decided early, never loads the rule
engines and what only an order needs.  Everything runs in the mail's one
transaction (gm.service.intake.ingest).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from gm.core.later import later
from gm.core.model import Outcome, OutcomeKind
from gm.service.intake.case import MailCase

if TYPE_CHECKING:
    from gm.mail.inbound import Inbound
    from gm.service.context import Context
    from gm.service.intake.setaside import SeatAuth

Step = Callable[[MailCase], Outcome | None]


def room(module: str, name: str) -> Step:
    """The step ``name`` of gm.service.intake.``module``, imported when a mail first reaches it."""
    step: Step = later(f"gm.service.intake.{module}", name)
    return step


def reply(case: MailCase) -> None:
    """Every answer to the sender as one reply mail, the mail's requests as one code to confirm;
    then the held mails a CONFIRM in it released are judged, each as a mail of its own."""
    from gm.service.intake.belowquote import tell_unread
    from gm.service.people import optin

    if case.outcome.outcome != OutcomeKind.ROBOT:
        tell_unread(case, case.outcome.game_id)
    asked = optin.finish(case.ctx, case.inbound)
    case.ctx.outbox.send_answers()
    if case.released:  # held mails load only when there are some to judge
        from gm.service.intake import held

        held.release(case.service, case.released, judge_mail)
    if asked:
        case.outcome.detail = f"{case.outcome.detail}; {asked}"


STEPS = (
    room("gate", "refuse_robots"),          # a robot's mail is never answered; a bounce is recorded
    room("gate", "cap_size"),               # a mail too large or too strange to read is refused
    room("routing", "route_and_lock"),      # the game it is for; lock what it may change
    room("routing", "find_game"),           # the stored game (no game: help; not started: the lobby)
    room("arrival", "time_first"),          # a deadline that ran out before it came closes its turn first
    room("authenticate", "authenticate"),   # the seat it speaks for, or refused, or held
    room("commands", "run_commands"),       # its commands, once each
    room("commands", "send_press"),         # its press
    room("orders", "judge_orders"),         # its orders, for the open turn
    reply,                                  # judging: one reply; the held mails it released
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
