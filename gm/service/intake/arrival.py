"""When a mail arrived (RULINGS G4): when gm's mail server delivered it, not when gm read it.

The time is the server's own record of the delivery (IMAP's INTERNALDATE, the Maildir file's
time, the moment the MTA piped it to `gm ingest`), never a header the sender wrote (Date:).
A time gm knows cannot be the delivery is not used: one in the future, or one before gm last
read that mailbox (what was there then was read then: an older time is a copy put back, a
message moved between folders keeping its date, or a clock set wrong).  Such a mail is judged
as of now: a wrong time lets no order in late.  And a mail counts as arriving no earlier than
the turn it is judged in opened.  Time is judged first (time_first): a deadline that passed
before the mail came closes its turn before the mail is read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gm.core.model import GameView
from gm.service.context import Context
from gm.service.play import timers
from gm.service.table import deadlines

if TYPE_CHECKING:
    from gm.service.intake.case import MailCase

WHOLE_SECOND = 1.0  # INTERNALDATE keeps whole seconds: a mail of the second gm looked is not before it


def judged_at(ctx: Context, arrived: float | None, since: float | None = None) -> float:
    """The moment a mail counts as arrived: ``arrived`` (the server's record, if known) if it
    lies between ``since`` (gm's last look at the mailbox, if known) and now; else now."""
    now = ctx.clock()
    if arrived is None or arrived > now or (since is not None and arrived < since - WHOLE_SECOND):
        return now
    return arrived


def within_turn(ctx: Context, view: GameView, at: float) -> float:
    """``at``, or the start of the game's open turn if it came before it.  The game's last change
    is never before its turn's start: a mail after it costs no read of the states."""
    if at >= view.row.updated:
        return at
    return max(at, deadlines.turn_start(ctx.store, view.id)[1])


def time_first(case: MailCase) -> None:
    """RULINGS G4: time is judged before orders.  A timer or deadline that ran out before this mail
    was judged closes its turn first (as it does for gm order and gm process)."""
    case.view, case.turn_closed, _ = timers.settle(case.ctx, case.view.id, case.view, now=case.now)
    case.now = within_turn(case.ctx, case.view, case.now)
