"""What every use case is given: the store, the config, the clock and the outbox."""

from __future__ import annotations

import time
from typing import Callable

from gm.core import filemodes, secrets
from gm.core.config import Config
from gm.mail import verp
from gm.service.auth import PasswordChecker
from gm.service.outgoing.outbox import Outbox
from gm.store import Store


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
        self.outbox = Outbox(store, config, clock)
        self.passwords = PasswordChecker()
        self._verp: verp.Verp | None = None
        self._code_secret: bytes | None = None
        self.asked = None  # gm.service.people.optin.Asked: the OBSERVE/JOIN/CREATE of the mail being handled
        # (game, seat) -> when: the seats whose held mails the mail being handled released
        # (gm.service.people.holds), judged after its answer (gm.service.intake.held.release)
        self.released: dict[tuple[str, str], float] = {}

    @property
    def verp(self) -> verp.Verp:
        """Our VERP addresses (gm.mail.verp); its secret file is read, or made, on first use."""
        if self._verp is None:
            self._verp = verp.from_config(self.config)
        return self._verp

    def code_secret(self) -> bytes:
        """The key confirmation codes are stored under (gm.core.codes); its file is read, or
        made, on first use."""
        if self._code_secret is None:
            self._code_secret = secrets.load_or_create(self.config.code_secret_file)
        return self._code_secret

    def close(self) -> None:
        """Stop the password-check threads (the store stays open: it is the caller's)."""
        self.passwords.close()
