"""Player passwords: generated for the player, stored only as a salted scrypt hash.

The cost is set for what these passwords are: never chosen by a person, but
10 characters drawn at random from 31 (49.5 bits).  A slow hash exists to
stretch guessable human passwords; ours are already 2^20 times harder to
guess than a typical human one, so scrypt with N=2^10, r=8 (1 MiB, about
2 ms) still puts an offline search of a stolen database at some 10^4
core-years per password, while the daemon can check hundreds of orders a
second from players it has not seen since it started.  Hashes made with other
parameters (N=2^14 before) still verify: each hash carries its own.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

# A short password a player can type from a phone: no look-alike characters.
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
N, R, P = 2**10, 8, 1


def generate(length: int = 10) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=N, r=R, p=P, dklen=32)
    return f"scrypt${N}${R}${P}${salt.hex()}${digest.hex()}"


def verify(password: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        got = hashlib.scrypt(
            password.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), dklen=32
        )
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got.hex(), digest)
