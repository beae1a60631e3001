"""What a mail set aside with an error keeps of its credentials: whom it authenticated as, never how.

The copy of a mail gm keeps has its password and reply token masked
(gm.mail.redact), so ``gm inbox --retry`` cannot check them again.  When a
mail is set aside, its authentication is decided once, while the password is
still in hand, and kept in ``messages.auth``: ``password <game> <seat>``,
``token <game> <seat>`` or ``none`` (a mail held during a lock-out keeps
``password <game> <seat> <turn>``, the turn it was for: gm.service.intake.held).
A retry plays the mail as that seat (or as nobody); a row with no auth kept
(NULL) still holds its password, and it is checked as a new mail's is.

A mail the reader itself failed on is read for this plainly
(gm.mail.redact.plain_reading: From, Subject and its first text part).
"""

from __future__ import annotations

import logging
from gm.core.value import valueclass
from typing import Any

from gm.core.model import NotStarted, ServiceError
from gm.mail import orders as order_mail
from gm.mail import rawmail
from gm.mail.inbound import Inbound, plus_recipient
from gm.mail.quotes import strip_reply
from gm.mail.redact import plain_reading
from gm.service.context import Context

log = logging.getLogger(__name__)

METHODS = ("password", "token", "none")


@valueclass(frozen=True)
class SeatAuth:
    """The result of a mail's authentication: ``method`` password, token or none; ``turn``: of a
    held mail, the turn it was for."""

    method: str
    game_id: str | None = None
    seat: str | None = None
    turn: int | None = None

    def dump(self) -> str:
        if self.method == "none":
            return "none"
        return f"{self.method} {self.game_id} {self.seat}" + ("" if self.turn is None else f" {self.turn}")

    @classmethod
    def load(cls, text: str | None) -> "SeatAuth | None":
        """The stored result, or None where none was stored (auth NULL: the row keeps its password)."""
        words = (text or "").split()
        if len(words) in (3, 4) and words[0] in METHODS[:2] and all(w.isdigit() for w in words[3:]):
            return cls(words[0], words[1], words[2], int(words[3]) if len(words) == 4 else None)
        return cls("none") if words == ["none"] else None

    def player(self, view):
        """The seat's row in ``view``, if this authenticated one of its seats."""
        if self.method == "none" or self.game_id != view.id:
            return None
        return view.player(self.seat)


NOBODY = SeatAuth("none")


def speaks_for(ctx: Context, view, sender: str, password: str | None,
               addressed: tuple[str, str, str] | None) -> tuple[Any, bool, str | None]:
    """(the seat of ``view`` a mail speaks for or None; whether its reply address was to speak for
    it, even where its token is not current; why its password was refused).  The password
    (throttled: gm.service.people.guessing), else the seat reply address ``addressed`` it came to,
    when no password came or a lock-out refused it (only the token passes a lock-out)."""
    from gm.service.people import guessing  # a mail with a password alone

    player, refused = guessing.check_password(ctx, view, sender, password)
    if player is not None or addressed is None or addressed[0] != view.id \
            or (password and refused != "locked"):
        return player, False, refused
    return ctx.outbox.tokens.seat(view.id, addressed[1], addressed[2]), True, refused


def seat_auth(ctx: Context, inbound: Inbound | None, raw: bytes) -> SeatAuth:
    """Whom the mail authenticates as, decided now (its password is about to be masked), by the
    rule judging follows too (speaks_for).  Never raises: a fault here means nobody."""
    try:
        if inbound is None or (not inbound.text and not inbound.subject):
            reading = plain_reading(raw)
            sender, subject, text = reading.sender, reading.subject, strip_reply(reading.text)
            fields = rawmail.Fields(rawmail.read_header(raw)[0])
            recipient = inbound.recipient if inbound is not None else plus_recipient(fields, ctx.config.address)
        else:
            sender, subject, text, recipient = inbound.sender, inbound.subject, inbound.text, inbound.recipient
        mail = order_mail.read(subject, text, inbound.answered if inbound is not None else None)
        addressed = ctx.outbox.tokens.addressed(recipient)
        game_id = mail.game_id or (addressed[0] if addressed else None)
        if game_id is None:
            return NOBODY
        from gm.service.table import games  # a mail naming a game alone

        view = games.load(ctx.store, game_id)
        player, by_token, _ = speaks_for(ctx, view, sender, mail.password, addressed)
        if player is not None:
            return SeatAuth("token" if by_token else "password", view.id, player.name)
    except (NotStarted, ServiceError):
        return NOBODY
    except Exception:  # the mail is set aside for a fault already; its credentials count for nothing
        log.exception("checking the credentials of a mail set aside")
    return NOBODY
