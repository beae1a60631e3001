"""Reply tokens: a report's Reply-To that lets a player answer with orders and no password.

A report to ada in game nb7 carries ``Reply-To: gm+nb7.ada.<token>@host``.  The
token is HMAC-SHA256 under a server secret, over the game id, the seat's name
and the seat's generation, cut to TOKEN_CHARS hex digits (80 bits): nobody
can make one without the secret, and a seat's new password (SET PASSWORD,
PASSWORD RESET), new address or new player bumps its generation, so every
token made before stops working.  The secret lives in a file outside the
database (a stolen database holds no way to make tokens), created 0600 the
first time a token is made.
"""

from __future__ import annotations

import hmac
import os
import secrets
from pathlib import Path

TOKEN_CHARS = 20  # hex digits: 80 bits, far beyond guessing by mail
SECRET_BYTES = 32
MAX_LOCAL = 64  # RFC 5321 4.5.3.1.1: the longest local part; a longer one is not ours


def load_secret(path: Path) -> bytes:
    """The server secret in ``path``, made (0600, never readable by others) if there is none."""
    path = Path(path).expanduser()
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process made it just now: read theirs
            return load_secret(path)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_hex(SECRET_BYTES) + "\n")
            out.flush()
            os.fsync(out.fileno())
        text = path.read_text().strip()
    try:
        secret = bytes.fromhex(text)
    except ValueError:
        secret = b""
    if len(secret) < 16:
        raise ValueError(f"{path}: not a reply-token secret (delete it and gm makes a new one)")
    return secret


def make(secret: bytes, game_id: str, name: str, generation: int) -> str:
    message = f"{game_id.lower()}\0{name.lower()}\0{int(generation)}".encode()
    return hmac.new(secret, message, "sha256").hexdigest()[:TOKEN_CHARS]


def matches(secret: bytes, game_id: str, name: str, generation: int, token: str) -> bool:
    """The token is the one for this seat now (compared in constant time)."""
    return hmac.compare_digest(make(secret, game_id, name, generation).encode(),
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
