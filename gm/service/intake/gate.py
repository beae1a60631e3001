"""The door of judging: mail that is never read past it.

A robot's mail (an auto-reply, a list, a bounce, anything sent to a VERP
return address) is never answered; a bounce among it is recorded
(gm.service.outgoing.bounces), and an out-of-office from a seat a game
waits for is kept for the GM (gm.service.intake.away).  A mail too large
or too strange to read is refused with why, under the sender's reply
throttle.
"""

from __future__ import annotations

import logging

from gm.core.model import Outcome, OutcomeKind
from gm.service.intake.case import MailCase
from gm.service.outgoing import bounces

log = logging.getLogger(__name__)


def refuse_robots(case: MailCase) -> Outcome | None:
    """A robot's mail: a bounce is read (it locks the address it returns and its games), an
    out-of-office kept (gm.service.intake.away); nothing is answered either way."""
    ctx, inbound = case.ctx, case.inbound
    robot = inbound.robot or bounces.to_bounce_address(ctx, inbound)
    if not robot:
        return None
    log.info("not answering %s: %s", inbound.sender or "?", robot)
    done = bounces.read(ctx, inbound, case.row_id, case.now)
    if done is None and inbound.away:  # an out-of-office, no bounce: loaded only for one
        from gm.service.intake import away

        done = away.note(case)
    return Outcome(OutcomeKind.ROBOT, robot + (f"; {done}" if done else ""))


def cap_size(case: MailCase) -> Outcome | None:
    """A mail whose body was not read (too large, checked on the raw bytes; or refused by the
    reader): refused, with why."""
    inbound = case.inbound
    if not (inbound.too_large or inbound.refuse):
        return None
    from gm.service.intake.words import say  # the refusals' templates: Jinja, for this mail only

    case.ctx.store.locks.lock_addresses(inbound.sender)  # its replies' throttle
    if inbound.too_large:
        return case.refuse(say("too_large", limit=case.ctx.config.max_message_bytes))
    return case.refuse(say("unreadable", why=inbound.refuse))
