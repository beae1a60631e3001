"""Mail whose pictures its sender draws: the process that judges a mail queues the report with
each picture's spec (Outbox.draw_later, gm.present.pictures.specs_for), and the sending pass
finishes it before the transport sees it (finish_due): the pictures drawn, the page given their
size, the mail signed (DKIM) and stored as sent, in the row's one write.  So ``gm ingest``,
which an MTA starts once per mail, never loads Pillow, and every reader of the outbox after the
sending pass (resend, retention, the sent copy) reads the mail as it was sent.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gm.store import Store
    from gm.store.mailrows import DueMail

log = logging.getLogger(__name__)


def sign_with(raw: bytes, named: tuple[str, str, str]) -> bytes:
    """``raw`` signed by the DKIM selector, domain and key file ``named`` (gm.mail.dkim.Signer.named)."""
    from gm.mail.dkim import Signer

    selector, domain, key_file = named
    return Signer(selector, domain, Path(key_file).read_bytes()).sign(raw)


def finished(raw: bytes) -> bytes:
    """``raw`` as it is sent: its pictures drawn and the mail signed, if it waited for that."""
    from gm.mail.outbound import finish, is_later
    from gm.present.pictures import drawn_later

    return finish(raw, drawn_later, sign_with) if is_later(raw) else raw


def finish_due(store: Store, rows: list[DueMail]) -> list[DueMail]:
    """The claimed ``rows`` with each one that waited for its pictures finished and stored so; a
    row that cannot be finished (its key file unreadable) is logged and left out, unclaimed, to
    be tried again at the next pass."""
    from gm.mail.outbound import is_later
    from gm.store.mailrows import DueMail

    waiting = [row for row in rows if is_later(row.raw)]
    if not waiting:
        return rows
    raws: dict[int, bytes] = {}
    for row in waiting:
        try:
            raws[row.id] = finished(row.raw)
        except Exception as exc:  # one mail that cannot be finished stops no other
            log.error("outbox #%s not sent: its mail could not be finished: %s", row.id, exc)
    done: dict[int, DueMail] = {}
    with store.write(scoped=True):  # rows this sender claimed
        for row in waiting:
            if row.id in raws:
                packed = store.outbox.keep_finished(row.id, raws[row.id])
                done[row.id] = DueMail(row.id, row.recipient, raws[row.id], packed, row.attempts, row.secret)
    store.outbox.release_outbox([row for row in waiting if row.id not in done])
    return [done.get(row.id, row) for row in rows if row.id in done or not is_later(row.raw)]
