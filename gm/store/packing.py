"""Long texts kept compressed: states' JSON, the archive of reports, and queued mail.

A packed text (``states.state``, ``reports.body``) is bytes, with its packing
in the column beside it (``state_packing``, ``body_packing``): UTF8 up to
COMPRESS_OVER characters, else ZLIB.  Reads go by that column, never by the
bytes.  A mail in the outbox is MAIL_MARK and its compressed bytes (a message
never starts with a NUL, so an uncompressed one reads back as it is).
legacy_packed reads the single-column texts of older stores (migration only).
Mail and reports use level 1 (on the path of every order), a mail with a
picture the Z_RLE strategy (base64 has no repeats to find); states level 6
(one per change, much smaller: benchmarks/storage.py).
"""

from __future__ import annotations

import zlib
from typing import Any, Protocol

COMPRESS_OVER = 1024  # characters; shorter texts stay readable text in the database
LEVEL = 1
STATE_LEVEL = 6
MAIL_MARK = b"\0z"


UTF8 = "utf8"  # the packing column's values
ZLIB = "zlib"


def pack_text(text: str, level: int = LEVEL) -> tuple[bytes, str]:
    """``text`` as stored, and its packing: its UTF-8 bytes, or zlib-compressed when long."""
    data = text.encode("utf-8")
    if len(text) <= COMPRESS_OVER:
        return data, UTF8
    return zlib.compress(data, level), ZLIB


def unpack_text(value: Any, packing: str) -> str:
    """A stored text as it was written, by the packing recorded beside it."""
    data = bytes(value)  # a str here is a row written without packing: refused, not guessed
    if packing == ZLIB:
        data = zlib.decompress(data)
    elif packing != UTF8:
        raise ValueError(f"unknown packing {packing!r}")
    return data.decode("utf-8")


def legacy_packed(value: Any) -> tuple[bytes, str]:
    """A value stored before step 21 in a column of text or bytes, as (bytes, packing).

    The one place that looks at the bytes to decide, once, in the migration:
    SQLite gave a text back as str and a compressed one as bytes; PostgreSQL
    held both as bytes, so a value is ZLIB only if it decompresses, to UTF-8
    (zlib's Adler-32 check makes a text that happens to pass unthinkable),
    not merely because it starts with zlib's header, as the reads once
    decided: a short report beginning "x^" was misread so.
    """
    if isinstance(value, str):
        return value.encode("utf-8"), UTF8
    data = bytes(value)
    try:
        zlib.decompress(data).decode("utf-8")
    except (zlib.error, UnicodeDecodeError):
        data.decode("utf-8")  # neither zlib nor text: fail the migration, never store a guess
        return data, UTF8
    return data, ZLIB


BASE64_PART = b"\nContent-Transfer-Encoding: base64"


def has_pictures(raw: bytes) -> bool:
    """Does a composed message carry a base64 part (gm's mail: the pictures of a report)?"""
    return BASE64_PART in raw


def pack_mail(raw: bytes) -> bytes:
    """A composed message as the outbox stores it: one zlib stream, flushed in full after the
    header (see repack_mail)."""
    head = header_end(raw)
    packer = mail_packer(raw)
    return MAIL_MARK + packer.compress(raw[:head]) + packer.flush(zlib.Z_FULL_FLUSH) + packer.compress(
        raw[head:]) + packer.flush()


class Packer(Protocol):
    """A zlib compressor (zlib.compressobj)."""

    def compress(self, data: bytes, /) -> bytes: ...

    def flush(self, mode: int = ..., /) -> bytes: ...


def mail_packer(raw: bytes) -> Packer:  # Z_RLE for a mail with pictures (see the module's note)
    strategy = zlib.Z_RLE if has_pictures(raw) else zlib.Z_DEFAULT_STRATEGY
    return zlib.compressobj(LEVEL, zlib.DEFLATED, zlib.MAX_WBITS, 8, strategy)


def header_end(raw: bytes) -> int:
    """Where a message's header ends (before its blank line), as gm.mail.redact.masked_header splits it."""
    end = raw.find(b"\r\n\r\n")
    end = raw.find(b"\n\n") if end < 0 else end
    return len(raw) if end < 0 else end


def repack_mail(packed: bytes, raw: bytes, new_raw: bytes) -> bytes:
    """pack_mail(new_raw) for a mail whose header alone differs from ``raw``, packed as ``packed``
    (a sent mail's copy, its reply token masked): its body's compressed bytes are reused.

    A full flush leaves the deflate stream byte-aligned with nothing after it referring back,
    so the new header's compressed bytes, flushed in full, may stand before the old body's
    bytes; zlib's trailer (Adler-32 of the whole) is computed again.  The old header's bytes
    are made again to find where the body's begin: when they differ (a row packed before the
    flush, another zlib), or the bodies differ, new_raw is packed whole."""
    head, new_head = header_end(raw), header_end(new_raw)
    packed = bytes(packed)
    old_packer, new_packer = mail_packer(raw), mail_packer(new_raw)
    old_prefix = MAIL_MARK + old_packer.compress(raw[:head]) + old_packer.flush(zlib.Z_FULL_FLUSH)
    if (raw[head:] != new_raw[new_head:] or has_pictures(raw) != has_pictures(new_raw)
            or not packed.startswith(old_prefix) or len(packed) < len(old_prefix) + 4):
        return pack_mail(new_raw)
    body = packed[len(old_prefix):-4]  # the body's deflate blocks, the last one final
    return (MAIL_MARK + new_packer.compress(new_raw[:new_head]) + new_packer.flush(zlib.Z_FULL_FLUSH) + body
            + zlib.adler32(new_raw).to_bytes(4, "big"))


def unpack_mail(value: Any) -> bytes:
    """The message bytes of an outbox row's ``raw`` (compressed, or as queued before)."""
    value = bytes(value)
    return zlib.decompress(value[len(MAIL_MARK):]) if value.startswith(MAIL_MARK) else value
