"""The Message-IDs gm gives its mail, and the turn a reply's answered mail was about.

A game's mail has a stable subject (``[gm nb7] Neighbors report``, one thread
in every client), so a reply's subject no longer says which turn it answers.
The Message-ID does: ``<time.random.GAME.tTURN@domain>``, short enough for
one header line, the game id with its dots written ``=`` (a Message-ID's local
part takes no empty dot-separated word).  A reply's In-Reply-To names it, and the turn it gives refuses an order
written for a turn that has passed, as the turn tag of older subjects did.  A
forged id can only get its own sender's orders refused.
"""

from __future__ import annotations

import time


DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
MAX_GAME_ID = 32  # a longer id is not named (the Message-ID stays within a header line)


def base36(number: int) -> str:
    out = ""
    while True:
        number, digit = divmod(number, 36)
        out = DIGITS[digit] + out
        if not number:
            return out


def new_message_id(domain: str, game_id: str | None = None, turn: int | None = None) -> str:
    """A new Message-ID at ``domain``, naming ``game_id`` and ``turn`` when the mail is of one.
    From the OS's randomness, not the random module's: a program (or a test tool) that seeds
    ``random`` must never make two messages with one."""
    about = ""
    if game_id and turn is not None and len(game_id) <= MAX_GAME_ID and "=" not in game_id:
        about = f".{game_id.replace('.', '=')}.t{turn}"
    import secrets  # random and hmac: only where a mail is written (reading one's id needs neither)

    return f"<{base36(time.time_ns())}.{secrets.token_hex(10)}{about}@{domain}>"


def answered_turn(message_id: str | None, game_id: str) -> int | None:
    """The turn of ``game_id`` a mail of gm's with ``message_id`` was about, or None (another
    game's, gm's older form, or not gm's)."""
    if not message_id or not message_id.startswith("<") or "@" not in message_id:
        return None
    local = message_id[1:].partition("@")[0]
    parts = local.split(".")
    if len(parts) != 4 or not parts[3].startswith("t") or not parts[3][1:].isdecimal() or len(parts[3]) > 10:
        return None
    named = parts[2].replace("=", ".")
    return int(parts[3][1:]) if named and named.lower() == game_id.lower() else None
