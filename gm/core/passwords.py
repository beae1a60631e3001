"""Player passwords: generated for the player, or chosen by them; stored only as a salted scrypt hash.

The cost is set for what a password is.  A generated one is 10 characters from 31 (49.5 bits),
already far past a human one, so scrypt at N=2^10, r=8 (1 MiB, about 2 ms) still puts an
offline search at some 10^4 core-years while the daemon checks hundreds of orders a second.
A chosen one (SET PASSWORD) is as guessable as people make them, so it is hashed at N=2^15
(32 MiB, some 50-100 ms; one check per order mail is the budget).  Each hash carries its own
parameters, so older ones still verify; a weak hash of a chosen password is made again at its
next successful use (``needs_rehash``).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

# A short password a player can type from a phone: no look-alike characters.
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
GENERATED_LENGTH = 10
N, R, P = 2**10, 8, 1  # generated passwords
CHOSEN_N = 2**15  # chosen passwords
MAX_MEMORY = 64 * 1024 * 1024  # scrypt needs 128*N*r bytes: 32 MiB at CHOSEN_N, over OpenSSL's default cap
MIN_CHOSEN, MAX_CHOSEN = 10, 64  # NIST SP 800-63B asks at least 8; 10 keeps the online-guessing margin
EDGE_SIGNS = "0123456789!@#$%^&*()-_=+.,;:?~ "



def common_file() -> Traversable:
    """The list of common passwords, package data (pyproject.toml); found when a password is
    chosen, not when a mail is read."""
    from importlib.resources import files

    return files("gm.core").joinpath("common_passwords.txt")

def generate(length: int = GENERATED_LENGTH) -> str:
    import secrets  # random and hmac: where a password is made, not where one is only named

    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def looks_generated(password: str) -> bool:
    """Shaped like a password gm made (it may still have been typed by a person, rarely)."""
    return len(password) == GENERATED_LENGTH and all(c in ALPHABET for c in password)


def hash_password(password: str, n: int = N) -> str:
    import secrets

    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=n, r=R, p=P, dklen=32, maxmem=MAX_MEMORY)
    return f"scrypt${n}${R}${P}${salt.hex()}${digest.hex()}"


def hash_chosen(password: str) -> str:
    """The hash of a password a person chose: at the cost fit for it."""
    return hash_password(password, CHOSEN_N)


def cost(stored: str) -> int:
    """The N of a stored hash (0 when it cannot be read)."""
    try:
        return int(stored.split("$")[1])
    except (IndexError, ValueError):
        return 0


def needs_rehash(password: str, stored: str) -> bool:
    """A chosen password under a hash made for generated ones (or older, weaker): hash it again
    now that its clear text is at hand (after a successful check)."""
    return not looks_generated(password) and cost(stored) < CHOSEN_N


def verify(password: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        got = hashlib.scrypt(password.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r),
                             p=int(p), dklen=32, maxmem=MAX_MEMORY)
    except (ValueError, TypeError):
        return False
    import hmac

    return hmac.compare_digest(got.hex(), digest)


@lru_cache(maxsize=1)
def common_passwords() -> frozenset[str]:
    """The deny list (lower case): passwords people choose most, from public top lists."""
    lines = common_file().read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip().lower() for line in lines if line.strip() and not line.startswith("#"))


def chosen_problem(password: str, avoid: tuple[str, ...] = ()) -> str | None:
    """Why ``password`` cannot be a chosen password, or None.  ``avoid``: words of the seat (its
    name, the game id, the local part of its address) that a guesser tries first."""
    if len(password.split()) != 1 or not password.isascii() or not password.isprintable():
        return "a password is one word of plain letters, digits and signs (no spaces)."
    if not MIN_CHOSEN <= len(password) <= MAX_CHOSEN:
        return f"a password is {MIN_CHOSEN} to {MAX_CHOSEN} characters long."
    low = password.lower()
    if low in common_passwords() or len(set(low)) < 4:
        return "that password is one of the most common ones, which guessers try first; choose another."
    bare = {low, low.strip(EDGE_SIGNS), low.strip(EDGE_SIGNS[10:])}  # "ada2024!" is "ada" to a guesser
    if any(word and word.lower() in bare for word in avoid):
        return "a password must not be your seat's name, the game id or your address."
    return None
