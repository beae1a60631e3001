"""When a mail arrived (RULINGS G4): when gm's mail server delivered it, not when gm read it.

The time is the server's own record of the delivery (IMAP's INTERNALDATE, the Maildir file's
time, the moment the MTA piped it to `gm ingest`), never a header the sender wrote (Date:).
It is still kept within what gm knows for sure, so that a wrong or forged server time lets no
order in late nor makes one early: never later than now, never before the last time gm read
that mailbox (what was there then was read then), and never before the turn it is judged in
opened.
"""

from __future__ import annotations

from gm.core.model import GameView
from gm.service.context import Context
from gm.service.table import deadlines


def judged_at(ctx: Context, arrived: float | None, since: float | None = None) -> float:
    """The moment a mail counts as arrived: ``arrived`` (the server's record, if known) kept
    between ``since`` (gm's last look at the mailbox, if known) and now."""
    now = ctx.clock()
    if arrived is None or arrived >= now:
        return now  # unknown, or in the future: now
    return arrived if since is None else max(arrived, min(since, now))


def within_turn(ctx: Context, view: GameView, at: float) -> float:
    """``at``, or the start of the game's open turn if it came before it."""
    return max(at, deadlines.turn_start(ctx.store, view.id)[1])
