"""Sent mail kept as words: a day after a report with a picture went out, its stored copy keeps
its headers and its text.

A report with its picture is 30-40 KB, the picture most of it (a Proximity game of 975
moves sends 1,950 reports), yet the archive keeps the report's text, which ``gm verify``
compares, and a picture is drawn again at will from a stored state (gm.present.pictures).
So a day after sending, a mail's copy keeps its headers and text (gm.mail.outbound.words_only),
and only its headers where the archive keeps its words (``reports`` by outbox id).  Mail
not yet sent, held or bounced stays whole.  The daemon trims a few rows each tick, rewriting
the bytes outside the write lock; the short transaction that stores them leaves a row alone
if it changed meanwhile.
"""

from __future__ import annotations

import logging

from gm.mail import rawmail
from gm.mail.outbound import words_only
from gm.mail.redact import blank, mask_header, masked_header
from gm.service.outgoing.outbox import SECRET_NOTE
from gm.store import Store

log = logging.getLogger(__name__)

KEEP_PICTURES = 86400.0  # seconds a sent mail is kept whole
BATCH = 50  # rows trimmed per call: a few tens of milliseconds, once a tick
FREE_PAGES = 256  # pages (1 MB on SQLite) given back to the file system per call: 2 MB a minute


def trim_sent(store: Store, now: float, limit: int = BATCH) -> int:
    """Trim the mail sent more than KEEP_PICTURES ago to its words, then give back a few of the
    pages freed by trimming and blanking (Store.release_free_pages); returns how many rows."""
    rows = store.outbox.sent_untrimmed(now - KEEP_PICTURES, limit)
    if rows:
        trimmed = [(row.id, trimmed_copy(row.id, row.raw, row.archived)) for row in rows]  # no lock
        # store-wide on PostgreSQL, as retention is by nature; lost only in an OS crash, and then done again
        with store.write(durable=False):
            for outbox_id, raw in trimmed:
                store.outbox.keep_trimmed(outbox_id, raw)
    store.release_free_pages(FREE_PAGES)
    return len(rows)


def trimmed_copy(outbox_id: int, raw: bytes, archived: bool) -> bytes:
    """The copy to keep; a mail that cannot be read as MIME is kept as it is (and not tried again)."""
    try:
        return words_only(raw, keep_text=not archived)
    except Exception:  # never a reason to stop the daemon's housekeeping
        log.exception("outbox #%s could not be trimmed; kept whole", outbox_id)
        return raw


def blanked_copy(raw: bytes) -> tuple[bytes, str]:
    """(the copy kept, its subject) of a sent mail that carried a secret (outbox.secret): its
    header with any code or reply token masked, its body SECRET_NOTE.  Never raises."""
    kept = blank(raw, SECRET_NOTE)
    try:
        subject = rawmail.Fields(rawmail.read_header(kept)[0]).get("Subject") or ""
    except Exception:  # blank() wrote the header itself; this is only a guard
        subject = ""
    return kept, mask_header(subject)[:200]


def sent_copy(raw: bytes, secret: bool) -> tuple[bytes, str | None] | None:
    """What the store keeps of a mail just sent, if not the mail as it is: (raw, new subject or None).

    A mail that carried a secret is blanked (blanked_copy); any other keeps its words, with the
    reply token of its Reply-To masked (the token is a credential: the player has it now)."""
    if secret:
        return blanked_copy(raw)
    masked = masked_header(raw)
    return None if masked is None else (masked, None)
