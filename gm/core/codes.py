"""Confirmation codes as stored: a keyed digest, never the code, and how a code finds its row.

A code (gm.service.people.credentials, gm.service.people.optin) is 10 letters of a 31-letter
alphabet, about 50 bits: a plain hash of it is brute-forced offline in hours
from a stolen database.  So the row keeps HMAC-SHA256 of the code under a
server secret kept outside the database (config ``code_secret_file``,
gm.core.secrets), as reply tokens (gm.core.tokens) are signed: the database
alone holds no way to test a guess.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Callable, TypeVar

T = TypeVar("T")


def normal(code: str) -> str:
    """A code as it is compared: typed in any case, with stray spaces."""
    return code.strip().lower()


def digest(secret: bytes, code: str) -> str:
    """What a row stores for ``code``."""
    return hmac.new(secret, normal(code).encode(), "sha256").hexdigest()


def find(secret: bytes, code: str, lookup: Callable[[str], T | None]) -> T | None:
    """The row ``lookup`` (a store query by digest) finds for ``code``, or None.

    The fallback: a store upgraded with codes still pending holds them as the plain sha256 they
    were stored under before codes were keyed.  They are honoured until they expire, then never
    match again (an expired row is refused by its caller anyway).  The fallback may go one
    release after the keyed digest shipped, once the longest-lived code then pending is
    past its time: a revert code's 7 days (gm.service.people.credentials.REVERT_DAYS).
    """
    row = lookup(digest(secret, code))
    if row is None:
        row = lookup(hashlib.sha256(normal(code).encode()).hexdigest())
    return row
