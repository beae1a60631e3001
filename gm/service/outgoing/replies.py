"""Replies without a password: the reply address of a seat's mail, and the seat a mail to one is from.

Every mail gm sends to a seat (reports, notices, the answers to its mail)
carries ``Reply-To: gm+<game>.<name>.<token>@host`` (gm.core.tokens), so that
the player can answer with orders and no PASSWORD line.  A mail that arrives
at such an address (the envelope recipient the server records in
Delivered-To or X-Original-To, else To: gm.mail.inbound) speaks for that
seat if its token is the seat's current one; an old token (the seat's
password or address has changed since) or a forged one speaks for nobody.
Config ``reply_tokens: false`` turns all of it off, for a mailbox that does
not take plus addresses.  The same secret signs an observer's unsubscribe
address, ``gm+unobserve-<game>-<token>@host`` (the token over the game and
the observer's address): a mail to it ends that one subscription.
"""

from __future__ import annotations

import hmac
from typing import TYPE_CHECKING

from gm.core import secrets, tokens
from gm.store import Store

if TYPE_CHECKING:
    from gm.core.config import Config

UNOBSERVE = "unobserve"  # gm+unobserve-<game>-<token>@host: an observer's List-Unsubscribe address
_HEX = frozenset("0123456789abcdef")
_GAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_.-")


class ReplyTokens:
    """The server secret (read from its file the first time it is needed) and what it signs."""

    def __init__(self, config: Config, store: Store):
        self.config = config
        self.store = store
        self._secret: bytes | None = None

    @property
    def enabled(self) -> bool:
        return bool(self.config.reply_tokens)

    def secret(self) -> bytes:
        if self._secret is None:
            self._secret = secrets.load_or_create(self.config.reply_token_secret_file)
        return self._secret

    def reply_to(self, game_id: str, address: str) -> str | None:
        """The reply address for mail about ``game_id`` to ``address``, when that address holds a
        seat still in the game (None: no token; replies go to our plain address)."""
        if not self.enabled:
            return None
        seat = next((p for p in self.store.seats.players_at(game_id, address) if p.active), None)
        if seat is None:
            return None
        token = tokens.make(self.secret(), game_id, seat.name, seat.generation, self.salt(game_id))
        reply = tokens.reply_address(self.config.address, game_id, seat.name, token)
        return reply if len(reply.rpartition("@")[0]) <= tokens.MAX_LOCAL else None

    def reply_to_all(self, game_id: str, addresses: list[str]) -> dict[str, str | None]:
        """reply_to of each of ``addresses``, for a batch of mails about ``game_id``."""
        return {address: self.reply_to(game_id, address) for address in dict.fromkeys(addresses)}

    def addressed(self, recipient: str) -> tuple[str, str, str] | None:
        """(game id, name, token) when a mail came to one of our reply addresses (tokens on)."""
        if not self.enabled or not recipient:
            return None
        return tokens.parse(self.config.address, recipient)

    def seat(self, game_id: str, name: str, token: str):
        """The seat whose current token this is, or None (old, forged, or no such seat)."""
        row = self.store.seats.player(game_id, name)
        if row is None or not tokens.matches(self.secret(), game_id, row.name, row.generation, token,
                                             self.salt(game_id)):
            return None
        return row

    def salt(self, game_id: str) -> str:
        """The game's token salt ("" for a game that has none)."""
        row = self.store.games.game(game_id)
        return (row.token_salt or "") if row is not None else ""

    # --- an observer's unsubscribe address ------------------------------------------------------
    def unsubscribe_token(self, game_id: str, address: str) -> str:
        """The token of ``address``'s unsubscribe address for ``game_id`` (the reply tokens'
        HMAC, over the game and the address, apart from any seat's by its name's form)."""
        return tokens.make(self.secret(), game_id, f"{UNOBSERVE}:{address.lower()}", 0, self.salt(game_id))

    def unsubscribe_address(self, game_id: str, address: str) -> str | None:
        """``gm+unobserve-<game>-<token>@host`` for ``address`` following ``game_id``; None with
        tokens off, or where it would be longer than a local part may be."""
        if not self.enabled:
            return None
        local, _, domain = self.config.address.rpartition("@")
        mine = f"{local}+{UNOBSERVE}-{game_id.lower()}-{self.unsubscribe_token(game_id, address)}"
        return f"{mine}@{domain}" if len(mine) <= tokens.MAX_LOCAL else None

    def unsubscribing(self, recipient: str) -> tuple[str, str] | None:
        """(game id, token) when a mail came to an unsubscribe address of ours (tokens on; the
        token not checked yet: unsubscriber)."""
        if not self.enabled or not recipient:
            return None
        local, _, domain = self.config.address.lower().rpartition("@")
        got_local, at, got_domain = recipient.lower().rpartition("@")
        prefix = f"{local}+{UNOBSERVE}-"
        if not at or got_domain != domain or len(got_local) > tokens.MAX_LOCAL or not got_local.startswith(prefix):
            return None
        game_id, dash, token = got_local[len(prefix):].rpartition("-")
        if not dash or not game_id or len(token) != tokens.TOKEN_CHARS or not set(token) <= _HEX \
                or not set(game_id) <= _GAME_CHARS:
            return None
        return game_id, token

    def unsubscriber(self, game_id: str, token: str, addresses: list[str]) -> str | None:
        """The one of ``addresses`` whose unsubscribe token for ``game_id`` ``token`` is, or None."""
        for address in addresses:
            if hmac.compare_digest(self.unsubscribe_token(game_id, address), token):
                return address
        return None
