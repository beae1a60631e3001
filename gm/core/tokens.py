"""Reply tokens: a report's Reply-To that lets a player answer with orders and no password.

A report to ada in game nb7 carries ``Reply-To: gm+nb7.ada.<token>@host``.  The token is
HMAC-SHA256 under a server secret over the game id, the seat's name and its generation, cut to
TOKEN_CHARS hex digits (80 bits).  A new password, address or player bumps the generation, so
older tokens stop working; the game's random ``token_salt`` keeps a game made again under the
same id from honouring the old game's tokens (a game with an empty salt keeps its tokens).  The
secret lives in a file outside the database, made 0600 on first use (gm.core.secrets).
"""

from __future__ import annotations

import hmac

TOKEN_CHARS = 20  # hex digits: 80 bits, far beyond guessing by mail
MAX_LOCAL = 64  # RFC 5321 4.5.3.1.1: the longest local part; a longer one is not ours


def make(secret: bytes, game_id: str, name: str, generation: int, salt: str = "") -> str:
    message = f"{game_id.lower()}\0{name.lower()}\0{int(generation)}" + (f"\0{salt}" if salt else "")
    return hmac.new(secret, message.encode(), "sha256").hexdigest()[:TOKEN_CHARS]


def matches(secret: bytes, game_id: str, name: str, generation: int, token: str, salt: str = "") -> bool:
    """The token is the one for this seat now (compared in constant time)."""
    return hmac.compare_digest(make(secret, game_id, name, generation, salt).encode(),
                               token.lower().encode("ascii", "replace"))


def reply_address(our_address: str, game_id: str, name: str, token: str) -> str:
    """``gm+nb7.ada.<token>@host`` for our address ``gm@host``."""
    local, _, domain = our_address.rpartition("@")
    return f"{local}+{game_id.lower()}.{name.lower()}.{token}@{domain}"


def parse(our_address: str, recipient: str) -> tuple[str, str, str] | None:
    """(game id, name, token) of a plus address of ours, or None (not ours, or not a token's shape).

    The name and token never hold a dot; the game id may, so both are taken from the right.
    """
    local, _, domain = our_address.lower().rpartition("@")
    got_local, at, got_domain = recipient.lower().rpartition("@")
    if not at or got_domain != domain or len(got_local) > MAX_LOCAL or not got_local.startswith(local + "+"):
        return None
    rest = got_local[len(local) + 1:]
    game_and_name, _, token = rest.rpartition(".")
    game_id, _, name = game_and_name.rpartition(".")
    if not game_id or not name or len(token) != TOKEN_CHARS \
            or not all(c in "0123456789abcdef" for c in token):
        return None
    return game_id, name, token
