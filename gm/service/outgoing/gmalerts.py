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
from gm.store.locks import HOURLY_CAPS

log = logging.getLogger(__name__)

WINDOW = 3600.0  # the cap counts the mails of the last hour
ALERT = "gm-alert"  # the outbox kind of a mail queued here
CAP_REACHED = "alert"  # a cap on strangers reached: one such mail an hour (Outbox.alert_gm)
KINDS = (ALERT, CAP_REACHED)  # what the cap counts


def send(ctx, subject: str, body: str, *, view: GameView | None = None,
         not_before: float | None = None) -> int | None:
    """Queue one mail to the GM, unless this hour's cap is reached; returns its outbox id, or None
    (no GM address, or the cap reached: then the one mail that says so goes instead, once).  With
    ``view`` it is a mail about that game (subject tagged ``[gm id]``); else ``subject`` is used
    as given."""
    if not admit(ctx, subject):
        return None
    to = ctx.config.gm_address.lower()
    if view is not None:
        return ctx.outbox.to_game(view, to, subject, body, kind=ALERT, not_before=not_before)
    return ctx.outbox.queue(to, subject, body, kind=ALERT, not_before=not_before)


def admit(ctx, subject: str) -> bool:
    """One more mail to the GM may go now (``subject``: what it is, for the log).  The first one
    past the cap is refused, and the one mail saying the cap is reached goes in its place."""
    to = ctx.config.gm_address
    if not to:
        log.info("no gm_address in the config: the GM is not told (%s)", subject)
        return False
    to = to.lower()
    cap = ctx.config.gm_alerts_per_hour
    ctx.store.locks.lock_shared(HOURLY_CAPS)  # until this mail is queued (or not) and committed
    sent = ctx.store.outbox.replies_since(KINDS, ctx.clock() - WINDOW, to)
    if sent < cap:
        return True
    log.warning("not mailed to the GM (%d alerts this hour, the cap): %s", cap, subject)
    if sent == cap:
        ctx.outbox.queue(to, "[gm] The hourly cap on mail to the game master is reached", (
            f"gm has mailed you {cap} alerts in the last hour (config gm_alerts_per_hour), the most it "
            "sends; until the hour has passed it sends you no more (press to GM, lock-outs, bounces, "
            "held mail). gm.log names each one not sent; gm inbox lists the mails that caused them.\n"),
            kind=ALERT)
    return False
