"""Mail to the game master that players and strangers can cause, queued here and nowhere else.

Press to GM, a seat or a sender locked out for wrong passwords, a cap on
confirmations reached, an address that bounces, mail held by the server: each
is a mail to config ``gm_address`` that a mail from outside can set off, and
a forged From costs nothing.  So they are counted together, per hour: at most
config ``gm_alerts_per_hour`` of them; the next one is replaced by one short
mail saying the cap is reached, and nothing more goes to the GM that hour
(the log says what was not sent; ``gm inbox`` and ``gm players`` still show
everything).  The game's own notices to the GM (a late player past the grace
period, gm.service.play.timers) are the game's, not a stranger's, and are not
counted here.
"""

from __future__ import annotations

import logging

from gm.core.model import GameView
from gm.store.pglocks import HOURLY_CAPS

log = logging.getLogger(__name__)

WINDOW = 3600.0  # the cap counts the mails of the last hour
ALERT = "alert"  # the outbox kind of a mail queued here
CAP_REACHED = "alert-cap"  # the kind of an alert that one of gm's hourly caps is reached (once an hour)
KINDS = (ALERT, CAP_REACHED)  # what the cap counts


def send(ctx, subject: str, body: str, *, view: GameView | None = None,
         not_before: float | None = None, kind: str = ALERT) -> int | None:
    """Queue one mail to the GM, unless this hour's cap is reached; returns its outbox id, or None
    (no GM address, the cap reached, or the one mail that says so sent instead).  With ``view``
    it is a mail about that game (subject tagged ``[id Tn]``); else ``subject`` is used as given.
    ``kind``: one of KINDS."""
    to = ctx.config.gm_address
    if not to:
        log.info("no gm_address in the config: the GM is not told (%s)", subject)
        return None
    to = to.lower()
    now, cap = ctx.clock(), ctx.config.gm_alerts_per_hour
    ctx.store.lock_shared(HOURLY_CAPS)  # until this mail is queued (or not) and committed
    sent = ctx.store.replies_since(KINDS, now - WINDOW, to)
    if sent > cap:
        log.warning("not mailed to the GM (%d mails this hour, the cap): %s", sent, subject)
        return None
    if sent == cap:
        log.warning("the hourly cap of %d mails to the GM is reached; not mailed: %s", cap, subject)
        return ctx.outbox.queue(to, "[gm] The hourly cap on mail to the game master is reached", (
            f"gm has mailed you {cap} alerts in the last hour (config gm_alerts_per_hour), the most it "
            "sends; until the hour has passed it sends you no more (press to GM, lock-outs, bounces, "
            "held mail). gm.log names each one not sent; gm inbox lists the mails that caused them.\n"),
            kind=ALERT)
    if view is not None:
        return ctx.outbox.to_game(view, to, subject, body, kind=kind, not_before=not_before)
    return ctx.outbox.queue(to, subject, body, kind=kind, not_before=not_before)


def sent_this_hour(ctx, kind: str) -> bool:
    """A mail of ``kind`` went to the GM within the hour (for an alert sent once an hour)."""
    to = ctx.config.gm_address
    return bool(to) and bool(ctx.store.replies_since((kind,), ctx.clock() - WINDOW, to.lower()))


def room(ctx) -> bool:
    """Another mail to the GM goes this hour (the cap is not reached)."""
    to = ctx.config.gm_address
    if not to:
        return False
    ctx.store.lock_shared(HOURLY_CAPS)
    return ctx.store.replies_since(KINDS, ctx.clock() - WINDOW, to.lower()) < ctx.config.gm_alerts_per_hour
