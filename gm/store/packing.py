"""Long texts kept compressed: states' JSON, the archive of reports, and queued mail.

A text longer than COMPRESS_OVER is stored as its zlib-compressed UTF-8 (a
BLOB), a shorter one as the text itself, so small rows stay readable in the
database.  A mail in the outbox is stored as MAIL_MARK and its compressed
bytes; a message never starts with a NUL, so rows queued before compression
read back as they are.  What was stored either way reads back exactly.

Mail and reports use level 1: a few tens of microseconds each, on the path of
every order, for nearly the size level 6 gives on text this repetitive.  A
mail with a picture is mostly base64 of PNG, where zlib's search for repeats
finds nothing: it is packed with the Z_RLE strategy, a third of the time of
level 1 (0.3 against 0.84 ms for a 51 KB report) for 12% more bytes.
States use level 6: one per change, and Proximity's long trail shrinks to
0.14 of its JSON at level 6 against 0.19 at level 1 (benchmarks/storage.py).
"""

from __future__ import annotations

import zlib
from typing import Any

COMPRESS_OVER = 1024  # characters; shorter texts stay readable text in the database
LEVEL = 1
STATE_LEVEL = 6
MAIL_MARK = b"\0z"


def pack_text(text: str, level: int = LEVEL) -> str | bytes:
    """``text`` as stored: itself, or zlib-compressed when long."""
    if len(text) <= COMPRESS_OVER:
        return text
    return zlib.compress(text.encode("utf-8"), level)


def unpack_text(value: Any) -> str:
    """A stored text (text, or compressed bytes) as it was written."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return zlib.decompress(bytes(value)).decode("utf-8")
    return value


BASE64_PART = b"\nContent-Transfer-Encoding: base64"


def has_pictures(raw: bytes) -> bool:
    """Does a composed message carry a base64 part (gm's mail: the pictures of a report)?"""
    return BASE64_PART in raw


def pack_mail(raw: bytes) -> bytes:
    """A composed message as the outbox stores it."""
    if has_pictures(raw):
        packer = zlib.compressobj(LEVEL, zlib.DEFLATED, zlib.MAX_WBITS, 8, zlib.Z_RLE)
        return MAIL_MARK + packer.compress(raw) + packer.flush()
    return MAIL_MARK + zlib.compress(raw, LEVEL)


def unpack_mail(value: Any) -> bytes:
    """The message bytes of an outbox row's ``raw`` (compressed, or as queued before)."""
    value = bytes(value)
    return zlib.decompress(value[len(MAIL_MARK):]) if value.startswith(MAIL_MARK) else value
