"""Reading a bounce: which addresses failed, for good or for now, and which message it returns.

The failing addresses come from flufl.bounce (GNU Mailman's detectors for RFC 3464 DSNs and
the private formats of Postfix, Exim, qmail, Exchange and more): ``all_failures``.  What
names gm's message is read here, with string methods in linear time: the addresses the
bounce was delivered to (a VERP return address, gm.mail.verp, names the outbox row), the
Message-IDs of the original it quotes (for mailboxes without plus addressing), and the
server's words.  ``read`` gives all of it in one ``Bounce``, its VERP tag checked, so the
service asks nothing more of the mail layer.  flufl.bounce's regular expressions can be
quadratic on a hostile line, so they see a copy cut to MAX_SCAN_BYTES and lines of MAX_LINE.
"""

from __future__ import annotations

import email
import email.message
import email.utils
import logging
from collections.abc import Callable
from gm.core.value import field, valueclass

from gm.core import addresses
from gm.mail import rawmail
from gm.mail.verp import Verp, VerpMatch, first_of_ours

log = logging.getLogger(__name__)
# flufl.bounce logs a line per detector it runs, and a traceback when one fails on strange input
# (read() catches that and says so in one line): too much for gm's log.
logging.getLogger("flufl.bounce").setLevel(logging.CRITICAL)

MAX_SCAN_BYTES = 64 * 1024  # what flufl.bounce reads of a bounce
MAX_LINE = 1000  # characters of a line flufl.bounce reads (RFC 5321 4.5.3.1.6)
MAX_ID_SCAN_BYTES = 256 * 1024  # how far into a bounce its quoted Message-IDs are looked for
MAX_WORDS = 300
RECIPIENT_FIELDS = ("delivered-to", "x-original-to", "envelope-to", "x-envelope-to", "to")
MAX_RECIPIENT_FIELD = 2000


@valueclass(frozen=True)
class Bounce:
    """A bounce as the service acts on it: what failed, which of gm's messages it returns, and how."""

    permanent: list[str] = field(default_factory=list)  # failing addresses, refused for good
    temporary: list[str] = field(default_factory=list)  # failing addresses, refused for now
    recipients: list[str] = field(default_factory=list)  # where the bounce was delivered (VERP)
    quoted_ids: list[str] = field(default_factory=list)  # Message-IDs of the returned original
    words: str = ""  # what the failing server said
    verp_address: str | None = None  # the first recipient of our VERP form, if any (read given our address)
    verp_match: VerpMatch | None = None  # the outbox row it names, and whether its tag checks

    @property
    def is_permanent(self) -> bool:
        return bool(self.permanent)

    @property
    def summary(self) -> str:
        """The server's words, else which addresses failed (or were delayed)."""
        failing = ", ".join(self.permanent or self.temporary)
        return self.words or f"{'failed' if self.is_permanent else 'delayed'}: {failing}"


def read(raw: bytes, our_address: str | None = None, our_verp: Callable[[], Verp] | None = None
         ) -> Bounce | None:
    """The bounce in ``raw``, or None if no failing address is found in it.

    Given ``our_address``, the first address the bounce was delivered to that has
    our VERP form is ``verp_address``; given ``our_verp`` too, its outbox id and
    whether its tag checks are ``verp_match``.  ``our_verp`` is called only for such an
    address: making our Verp reads the secret, which other bounces never need.
    """
    try:
        temporary, permanent = _failures(raw)
    except Exception as exc:  # a detector's fault on strange input: not a bounce gm can read
        log.warning("flufl.bounce could not read a message: %s: %s", type(exc).__name__, exc)
        return None
    if not temporary and not permanent:
        return None
    header, body_start = rawmail.read_header(raw)
    delivered_to = recipients(header)
    verp_address = first_of_ours(delivered_to, our_address) if our_address is not None else None
    match = our_verp().match(verp_address) if verp_address is not None and our_verp is not None else None
    return Bounce(permanent=sorted(permanent), temporary=sorted(temporary - permanent),
                  recipients=delivered_to, quoted_ids=quoted_message_ids(raw, body_start),
                  words=diagnostic(raw, body_start), verp_address=verp_address, verp_match=match)


def _failures(raw: bytes) -> tuple[set[str], set[str]]:
    from flufl.bounce import all_failures  # imported where used: only robot mail pays for it

    msg = email.message_from_bytes(_bounded(raw), policy=email.message.compat32)
    if not (msg.get("from") or "").strip():
        msg["From"] = "<>"  # some detectors (Yale's) index the From address and fail without one
    temporary, permanent = all_failures(msg)
    return _addresses(temporary), _addresses(permanent)


def _addresses(found) -> set[str]:
    return {kept_form(a.decode("utf-8", "replace")) for a in found if a}


def kept_form(address: str) -> str:
    """An address a bounce names, in the form gm keeps (gm.core.addresses), so that a bounce
    naming zoë@bücher.example finds the seat at zoë@xn--bcher-kva.example; as written if it is
    not one."""
    address = address.strip()
    return addresses.normal(address) or address.lower()


def _bounded(raw: bytes) -> bytes:
    """The first MAX_SCAN_BYTES of ``raw``, each line cut to MAX_LINE characters."""
    head = raw[:MAX_SCAN_BYTES]
    if all(end - start <= MAX_LINE for _, start, end in rawmail.lines(head)):
        return head
    return b"\n".join(line[:MAX_LINE] for line, _, _ in rawmail.lines(head))


def recipients(header: list[tuple[str, str]]) -> list[str]:
    """The addresses a message was delivered to, lower-cased, as its header says."""
    found: list[str] = []
    for name, value in header:
        if name in RECIPIENT_FIELDS and len(value) <= MAX_RECIPIENT_FIELD:
            try:
                pairs = email.utils.getaddresses([value])
            except Exception:  # a malformed field names nobody
                continue
            found += [kept_form(addr) for _, addr in pairs if "@" in addr]
    return list(dict.fromkeys(found))


def _body_lines(raw: bytes, start: int, limit: int):
    """The body's lines as text, from ``start``, as far as ``limit`` bytes on."""
    for line, _, _ in rawmail.lines(raw, min(len(raw), start + limit), start):
        yield line.decode("utf-8", "replace")


def quoted_message_ids(raw: bytes, body_start: int) -> list[str]:
    """The Message-IDs written in ``Message-ID:`` lines of the body (the returned original's)."""
    found = []
    for line in _body_lines(raw, body_start, MAX_ID_SCAN_BYTES):
        text = line.lstrip(" \t>")
        if text[:11].lower() == "message-id:":
            mid = rawmail.first_message_id(text[11:])
            if mid and rawmail.valid_message_id(mid):
                found.append(mid)
    return list(dict.fromkeys(found))


def diagnostic(raw: bytes, body_start: int) -> str:
    """The failing server's words: a Diagnostic-Code (with its folded lines), else a line that
    starts like an SMTP reply."""
    reply, code = "", None
    for line in _body_lines(raw, body_start, MAX_SCAN_BYTES):
        if code is not None:
            if line[:1] not in (" ", "\t") or len(code) >= MAX_WORDS:
                break
            code += " " + line
            continue
        text = line.strip(" \t>")
        if text[:16].lower() == "diagnostic-code:":
            code = text[16:]
        elif not reply and _smtp_reply(text):
            reply = text
    return " ".join((code if code is not None else reply).split())[:MAX_WORDS]


def _smtp_reply(text: str) -> bool:
    """A line with a 4xx/5xx SMTP code in it, as most bounces quote the server ("... said: 550 5.1.1 ...")."""
    for word in text.split()[:40]:
        word = word.strip("():;,.'\"")
        if len(word) == 3 and word.isdigit() and word[0] in "45" and word[1] in "0123457":
            return True
    return False
