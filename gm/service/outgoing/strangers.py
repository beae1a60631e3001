"""What gm sends to senders without a password: hourly caps, the notice of the last answer
allowed, the cut of a long answer at STRANGER_BYTES, and the GM's alert when a cap is reached.

Replies anyone can make gm send (LIMITED_KINDS) are capped per address and in
all per hour (config error_replies_per_hour, unauthenticated_replies_per_hour).
The functions take the Outbox whose reply they limit.
"""

from __future__ import annotations

import logging
import textwrap
from typing import TYPE_CHECKING

from gm.present import reports
from gm.store.locks import HOURLY_CAPS

if TYPE_CHECKING:
    from gm.core.config import Config

log = logging.getLogger(__name__)

HOUR = 3600.0
LIMITED_KINDS = ("error", "help")  # replies anyone can make gm send, with or without a password
STRANGER_BYTES = 64 * 1024  # the most text one answer to a sender who gave no password carries
LIMITS = "mail/limits.txt.j2"  # the notes on what is sent to senders without a password


def with_notice(body: str, notice: str) -> str:
    """``body`` with ``notice`` (prose, wrapped) above its "--" footer, not under it."""
    if not notice:
        return body
    text = body.rstrip("\n")
    head, rule, tail = text.rpartition("\n--\n")
    wrapped = textwrap.fill(notice.strip(), reports.MAX_WIDTH)
    if not rule:
        return f"{text}\n\n{wrapped}\n"
    head = head.rstrip("\n")
    return f"{head}\n\n{wrapped}\n\n--\n{tail}\n"


def cut(config: Config, body: str, most: int = STRANGER_BYTES) -> str:
    """``body`` within ``most`` bytes, cut at a line and saying where to read the rest."""
    from gm.present.templates import sentence  # Jinja, when a reply is written

    url = config.archive_url
    where = " " + sentence(LIMITS, "pages", url=url) if url else ""
    note = "\n" + sentence(LIMITS, "cut", where=where) + "\n"
    if len(body.encode("utf-8")) <= most:
        return body
    kept = body.encode("utf-8")[:most - len(note.encode("utf-8"))].decode("utf-8", errors="ignore")
    head, newline, _ = kept.rpartition("\n")
    return (head + newline if newline else kept) + note


def sent_this_hour(outbox, to: str) -> tuple[int, int]:
    """The replies anyone can make gm send (LIMITED_KINDS) queued in the last hour: to ``to``, to all."""
    since = outbox.clock() - HOUR
    return (outbox.store.outbox.replies_since(LIMITED_KINDS, since, to),
            outbox.store.outbox.replies_since(LIMITED_KINDS, since))


def past_cap(outbox, to: str) -> bool:
    """A reply anyone can make gm send to ``to`` would be past an hourly cap now (limit_notice
    would send none): asked before costly work for a sender without a password."""
    sent_to, sent_all = sent_this_hour(outbox, to)
    return sent_to >= outbox.config.error_replies_per_hour or sent_all >= outbox.config.unauthenticated_replies_per_hour


def limit_notice(outbox, to: str) -> str | None:
    """None if a limit is reached (past_cap); else "" or, for the last reply allowed, a note
    saying so (the templates, and Jinja, loaded only for a note)."""
    per_address = outbox.config.error_replies_per_hour
    total = outbox.config.unauthenticated_replies_per_hour
    outbox.store.locks.lock_shared(HOURLY_CAPS)  # until this reply is queued (or not) and committed
    sent_to, sent_all = sent_this_hour(outbox, to)
    if sent_to >= per_address:
        log.warning("reply to %s suppressed: %d this hour", to, sent_to)
        return None
    if sent_all >= total:
        log.warning("reply to %s suppressed: %d replies to strangers this hour", to, sent_all)
        return None
    if sent_to + 1 < per_address and sent_all + 1 < total:
        return ""
    from gm.present.templates import sentence

    if sent_to + 1 == per_address:
        return sentence(LIMITS, "last_answer", to=to, per_address=per_address)
    if sent_all + 1 == total:
        log.warning("the hourly limit of %d replies to strangers is reached", total)
        alert_gm(outbox, "Too many mails from strangers", [
            sentence(LIMITS, "flood_answered", total=total), "", sentence(LIMITS, "flood_kept")])
        return sentence(LIMITS, "too_many")
    return ""


def alert_gm(outbox, subject: str, lines: list[str]) -> bool:
    """Tell the game master that a cap on what strangers make gm send is reached: one such mail
    an hour, whichever cap (a flood fills them in turn; the log names every one).  False if
    none was sent (one went within the hour, or there is no gm_address)."""
    to, now = outbox.config.gm_address, outbox.clock()
    if not to:
        log.info("%s; no gm_address to tell", subject)
        return False
    if outbox.store.outbox.replies_since(("alert",), now - HOUR, to):
        return False
    log.warning("%s; telling %s", subject, to)
    outbox.queue(to.lower(), f"[gm] {subject}", "\n".join(
        lines + ["", "This is the only such mail this hour."]) + "\n", kind="alert")
    return True
