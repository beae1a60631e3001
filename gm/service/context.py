"""What every use case is given: the store, the config, the clock and the outbox.

The service's Context lives as long as the process; a mail is judged with a
MailContext made for it (Context.for_mail), which shares all of that but
carries the mail's own outbox and requests, and is dropped with the mail.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Callable

from gm.core import filemodes
from gm.service.auth import PasswordChecker
from gm.service.outgoing.outbox import MailOutbox, Outbox
from gm.store import Store

if TYPE_CHECKING:
    from gm.core.config import Config
    from gm.mail import verp
    from gm.mail.inbound import Inbound


class Keys:
    """The service's secrets read from their files on first use, shared by every mail's context."""

    def __init__(self, config: Config):
        self.config = config
        self._verp: verp.Verp | None = None
        self._code_secret: bytes | None = None

    def verp(self) -> verp.Verp:
        """Our VERP addresses (gm.mail.verp); its secret file is read, or made, on first use."""
        if self._verp is None:
            from gm.mail import verp  # hashlib and hmac: read only for a mail that needs them

            self._verp = verp.from_config(self.config)
        return self._verp

    def code_secret(self) -> bytes:
        """The key confirmation codes are stored under (gm.core.codes); read, or made, on first use."""
        if self._code_secret is None:
            from gm.core import secrets  # hashlib and random: only for a mail that needs a code

            self._code_secret = secrets.load_or_create(self.config.code_secret_file)
        return self._code_secret


class Context:
    """The store, config and clock of one running service, with its outbox and password checks.

    Use cases are functions that take a Context first; the clock is the one
    thing they read the time from, so tests drive a fake one.
    """

    def __init__(self, store: Store, config: Config, clock: Callable[[], float] = time.time):
        self.store = store
        self.config = config
        if config.group:  # the data folder and its files go to the shared group (gm.core.filemodes)
            filemodes.prepare(config.data_dir, config.group)
        self.clock = clock
        self.outbox: Outbox = Outbox(store, config, clock)
        self.passwords = PasswordChecker()
        self.keys = Keys(config)

    @property
    def verp(self) -> verp.Verp:
        return self.keys.verp()

    def code_secret(self) -> bytes:
        return self.keys.code_secret()

    def for_mail(self, inbound: Inbound) -> MailContext:
        """A context for judging ``inbound``: this service's, with the mail's own outbox."""
        return MailContext(self, inbound)

    def close(self) -> None:
        """Stop the password-check threads (the store stays open: it is the caller's)."""
        self.passwords.close()


class MailContext(Context):
    """The context one mail is judged in: the service's store, config, clock, checks and keys,
    with the mail's outbox (its answers gathered into one reply), the OBSERVE/JOIN/CREATE lines
    it asks (gm.service.people.optin) and the held seats a CONFIRM in it releases
    (gm.service.people.holds: (game, seat) -> when).  Dropped with the mail."""

    def __init__(self, service: Context, inbound: Inbound):
        self.service = service.service if isinstance(service, MailContext) else service
        self.store, self.config, self.clock = service.store, service.config, service.clock
        self.passwords, self.keys = service.passwords, service.keys
        self.outbox: MailOutbox = self.service.outbox.for_mail(inbound)
        self.asked: Any = None  # gm.service.people.optin.Asked
        self.released: dict[tuple[str, str], float] = {}

    def close(self) -> None:
        """Nothing to stop: the checks are the service's."""


def reply_language(ctx: Context) -> str:
    """The language gm answers the mail being judged in: the sender's (their seat's or address's
    setting, else that of their command words, HILFE or AIDE), as the outbox knows it once the
    sender is known; English before, and outside a mail."""
    return getattr(ctx.outbox, "language", None) or "en"
