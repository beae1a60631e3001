"""A mail as one case: what it carries through judging (gm.service.intake.judging).

A case is made for one mail and dropped with it.  Its context is the
service's with the mail's own outbox (gm.service.context.MailContext), so
the answers gathered, the requests asked and the seats released belong to
this mail alone: a mail that fails midway takes them with it, and the next
mail starts with none.
"""

from __future__ import annotations

from games.text import Text
from gm.core.value import valueclass
from typing import TYPE_CHECKING, Any

from gm.core.model import GameView, Outcome, OutcomeKind
from gm.mail import inbound as mail_in
from gm.mail.inbound import Inbound
from gm.mail.orders import OrderMail
from gm.service.context import Context, MailContext
from gm.service.outgoing.outbox import PendingReply
from gm.service.people import optin

if TYPE_CHECKING:
    from gm.service.intake.setaside import SeatAuth

NOT_DONE = Text("Not done")  # the subject of a refusal that names nothing more


def read(ctx: Context, raw: bytes) -> Inbound:
    """The mail ``raw`` as judging reads it (gm.mail.inbound)."""
    return mail_in.parse(raw, ctx.config.address, max_bytes=ctx.config.max_message_bytes)


@valueclass
class MailCase:
    """One stored mail being judged, and what the steps have found out about it so far."""

    ctx: MailContext  # the service's context, with this mail's outbox, requests and releases
    inbound: Inbound
    row_id: int  # its row in the messages table
    now: float  # when it counts as arrived (gm.service.intake.arrival)
    trusted: SeatAuth | None = None  # a retried or held mail: whom it authenticated as when it came
    mail: OrderMail | None = None  # its lines, read (route_and_lock)
    addressed: tuple[str, str, str] | None = None  # (game, seat, token) of the reply address it came to
    view: GameView | None = None  # its game (find_game), brought up to its time (time_first)
    turn_closed: int | None = None  # the turn time_first closed before it was judged
    player: Any = None  # the seat it speaks for (authenticate)
    refused: str | None = None  # why the password was not taken ("locked": a lock-out)
    by_token: bool = False  # the seat's reply address spoke for it, not a password
    outcome: Outcome | None = None  # what a step decided: the steps after it but the reply are skipped

    @classmethod
    def open(cls, service: Context, inbound: Inbound, row_id: int, now: float,
             trusted: SeatAuth | None = None) -> MailCase:
        """The case of ``inbound`` (stored as ``row_id``), judged as of ``now``: its OBSERVE/JOIN/
        CREATE lines gathered into one request to confirm (gm.service.people.optin)."""
        case = cls(service.for_mail(inbound), inbound, row_id, now, trusted)
        optin.begin(case.ctx, inbound)
        return case

    @property
    def service(self) -> Context:
        """The long-lived context the mail came to (what outlives it goes through this)."""
        return self.ctx.service

    @property
    def answers(self) -> PendingReply | None:
        """The answers gathered for the sender; None once sent."""
        return self.ctx.outbox.answers

    @property
    def asked(self) -> Any:
        """The OBSERVE/JOIN/CREATE lines the mail asks (gm.service.people.optin)."""
        return self.ctx.asked

    @property
    def released(self) -> dict[tuple[str, str], float]:
        """(game, seat) -> when: the seats whose held mails a CONFIRM in it released."""
        return self.ctx.released

    @property
    def game_id(self) -> str | None:
        return self.view.id if self.view is not None else None

    def refuse(self, message: str, label: str = NOT_DONE, view: GameView | None = None) -> Outcome:
        """Tell the sender why their mail did nothing (rate-limited: it needs no password)."""
        body = self.ctx.outbox.error_body(view, message)
        self.ctx.outbox.reply(self.inbound, view, label, body, kind="error")
        return Outcome(OutcomeKind.REJECTED, message, view.id if view else None, [body])

    def help(self, detail: str, game_id: str | None = None) -> Outcome:
        """The mail's commands were done (or its help sent), and no order judged."""
        return Outcome(OutcomeKind.HELP, detail, game_id)
