"""Reading inbound mail: who sent it, whether a robot did, and its text.

Real mail is messy, and some of it is hostile: parse() never raises and never stalls.  The
header is read from the raw bytes (gm.mail.rawmail), so no raw 8-bit byte reaches the email
package; the sender is the raw From's one valid addr-spec (UTF-8 and IDN allowed).  Size is
checked before anything is decoded (max_bytes), MIME nesting counted without recursion
(MAX_MIME_DEPTH); a body is decoded only with a charset of gm.mail.charsets (linear-time
decoders), else refused so its sender is told.  HTML-only mail becomes text, quotes and
signatures are cut by string methods (old orders in a quote are never applied), and the
text is cleaned once, here (clean_at_the_door): no control or bidi character reaches the
orders, the store, the GM's terminal or the feed.
"""

from __future__ import annotations

import email
import email.errors
import email.message
import email.utils
from gm.core.value import field, valueclass
from email.header import decode_header, make_header

from gm.core import text as safe_text
from gm.mail import rawmail
from gm.mail.bounces import recipients
from gm.mail.charsets import MAX_CHARSET_NAME, decode_bytes, readable_charset, text_codec
from gm.mail.orders import starts_with_command
from gm.mail.quotes import read_reply
from gm.mail.robots import away_reply, robot_reason
from gm.mail.verp import first_of_ours

DEFAULT_MAX_BYTES = 256 * 1024  # a message larger than this is not decoded at all (the service passes its own)
MAX_MIME_DEPTH = 20  # deeper MIME trees are refused unread
# The email package checks every line against every enclosing boundary: lines x nesting levels
# beyond this are refused unread (a real 256 KiB mail has a few thousand lines in 2 or 3 levels).
MAX_LINE_LEVELS = 1_000_000
MAX_HEADER_SCAN = 4 * 1024 * 1024  # the header is looked for in at most this many bytes, however large the mail
MAX_SUBJECT = 2_000  # characters of the Subject that are RFC 2047-decoded and read
MAX_REFERENCES = 20  # the last Message-IDs of References/In-Reply-To that are kept
RECIPIENT_FIELDS = ("Delivered-To", "X-Original-To", "To")  # where the envelope recipient is read, in order
MAX_RECIPIENT_VALUES = 10  # of each of those fields (each hop adds a Delivered-To)
MAX_RECIPIENT_CHARS = 4_000  # of each value that is read
MAX_UNREAD_KEPT = 20  # lines below a quote kept in unread_after_quote (the reply names at most 10)
MAX_UNREAD_SCREENED = 50  # other lines below a stop kept for the game's notation to screen
MAX_UNREAD_CHARS = 200  # of each of them: an order is a short line
_ADDRESS_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+-/=?^_`{|}~.@")

@valueclass
class Inbound:
    raw: bytes
    sender: str = ""  # the From addr-spec in gm's form (gm.core.addresses); "" unless From holds exactly one
    sender_name: str = ""
    reply_to: str = ""  # the Reply-To addr-spec, parsed like From; never answered by itself (see reply_address)
    recipient: str = ""  # our plus address it came to (gm+...@host): Delivered-To, X-Original-To, else To
    bounce_address: str = ""  # one of our VERP return addresses it was delivered to (only bounces go there)
    subject: str = ""
    message_id: str | None = None
    references: list[str] = field(default_factory=list)  # the last MAX_REFERENCES well-formed ones
    text: str = ""  # the new text, quotes and signature removed
    # The lines below a quote or signature that hold commands (never read: the sender is told)
    unread_after_quote: list[str] = field(default_factory=list)
    # The other lines below a quote or signature and above gm's own marker line, which may be orders
    # the sender wrote there: the game's notation decides which to name (gm.service.intake.ingest)
    unread_may_be_orders: list[str] = field(default_factory=list)
    full_text: str = ""  # the decoded body before stripping
    html_only: bool = False
    robot: str | None = None  # why this is a robot's mail (or has nobody to answer), or None
    away: bool = False  # a person's out-of-office auto-reply (gm.mail.robots.away_reply): a robot's too
    problems: list[str] = field(default_factory=list)
    too_large: bool = False  # raw was over max_bytes: the body was not read at all
    refuse: str | None = None  # why the body was not read (too large, too deeply nested...): answer with it
    size: int = 0  # len(raw)

    @property
    def reply_address(self) -> str:
        """Where an answer goes: the address the mail came from, never Reply-To."""
        return self.sender

    @property
    def answered(self) -> str | None:
        """The Message-ID of the mail this one answers: its In-Reply-To, else the last of its
        References (read last into ``references``)."""
        return self.references[-1] if self.references else None


def plus_recipient(fields: rawmail.Fields, our_address: str) -> str:
    """The first of our plus addresses (``gm+anything@host`` for ``gm@host``) in Delivered-To,
    then X-Original-To, then To: the address a reply came to.  "" if none.

    Read with string methods in time linear in the (capped) fields: each candidate is scanned
    once from where the previous one ended.
    """
    local, at, domain = rawmail.ascii_lower(our_address).rpartition("@")
    if not at or not local:
        return ""
    prefix, suffix = local + "+", "@" + domain
    for name in RECIPIENT_FIELDS:
        for value in fields.all.get(name.lower(), [])[:MAX_RECIPIENT_VALUES]:
            low = rawmail.ascii_lower(value[:MAX_RECIPIENT_CHARS])
            start = low.find(prefix)
            while start != -1:
                end = start
                while end < len(low) and low[end] in _ADDRESS_CHARS:
                    end += 1
                candidate = low[start:end].rstrip(".")
                if (start == 0 or low[start - 1] not in _ADDRESS_CHARS) and candidate.endswith(suffix) \
                        and rawmail.valid_addr_spec(candidate):
                    return candidate
                start = low.find(prefix, max(end, start + 1))
    return ""


def header_text(value: object, limit: int = MAX_SUBJECT) -> str:
    """A header as text, RFC 2047 words decoded, never raising.

    An unknown charset in an encoded word gives replacement characters for
    that word only.  Only the first ``limit`` characters are read.
    """
    if value is None:
        return ""
    try:
        text = str(value)[:limit]
    except Exception:
        return ""
    if "=?" not in text:
        return text
    try:
        words = decode_header(text)
    except Exception:
        return text
    if all(charset is None or text_codec(charset) for _, charset in words):
        try:
            return str(make_header(words))
        except Exception:  # text not valid in its charset: decode word by word
            pass
    # Word by word: a charset that is not a text charset of ours reads as UTF-8, with
    # replacement characters (the email package would run any codec it is given).
    out: list[str] = []
    for chunk, charset in words:
        if isinstance(chunk, str):
            out.append(chunk)
            continue
        name = "raw-unicode-escape" if charset is None else (text_codec(charset) or "utf-8")
        try:
            out.append(chunk.decode(name, "replace"))
        except Exception:
            out.append(chunk.decode("utf-8", "replace"))
    return " ".join(out)


def header_reading(value: object, limit: int = MAX_SUBJECT) -> str:
    """A header as gm reads it (a subject, a sender's name): decoded, on one line, cleaned; what
    gm.mail.redact masks a kept header from."""
    return safe_text.clean(" ".join(header_text(value, limit).split()))


def unflow(text: str, delsp: bool) -> str:
    """RFC 3676 format=flowed: join soft-broken lines, undo space-stuffing."""
    out: list[str] = []
    buffer = ""
    for line in text.split("\n"):
        quote = len(line) - len(line.lstrip(">"))
        body = line[quote:]
        if body.startswith(" "):
            body = body[1:]
        if body.endswith(" ") and body != "-- ":
            buffer += body[:-1] if delsp else body
            continue
        out.append(">" * quote + buffer + body)
        buffer = ""
    if buffer:
        out.append(buffer)
    return "\n".join(out)


def _header_value(part: email.message.Message, name: str) -> str:
    """A part's header as plain text, never an email.header.Header (raw 8-bit bytes are replaced)."""
    for key, value in part.raw_items():
        if key.lower() == name.lower():
            return str(value).encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return ""


def _param(part: email.message.Message, name: str) -> str:
    try:
        value = part.get_param(name, "")
        return str(email.utils.collapse_rfc2231_value(value)).strip().lower()
    except Exception:
        return ""


def _charset(part: email.message.Message) -> str | None:
    try:
        return part.get_content_charset()
    except Exception:
        return _param(part, "charset") or None


def part_text(part: email.message.Message, problems: list[str]) -> str:
    """A text part's text as read: decoded from its transfer encoding and charset, and unflowed
    (format=flowed); HTML as it is.  What can be wrong goes to ``problems``."""
    try:
        payload = part.get_payload(decode=True)
    except Exception as exc:  # a bad transfer encoding: read the part as it stands
        problems.append(f"could not decode a part: {type(exc).__name__}")
        payload = None
    if payload is None:
        raw_payload = part.get_payload()
        payload = (raw_payload if isinstance(raw_payload, str) else "").encode("utf-8", "surrogateescape")
    text, problem = decode_bytes(payload, _charset(part))
    if problem:
        problems.append(problem)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if part.get_content_type() == "text/plain" and _param(part, "format") == "flowed":
        text = unflow(text, _param(part, "delsp") == "yes")
    return text


def walk(msg: email.message.Message):
    """msg.walk() without recursion: every part, depth first, in order."""
    stack = [msg]
    while stack:
        part = stack.pop()
        yield part
        payload = part.get_payload() if part.is_multipart() else None
        if isinstance(payload, list):
            stack.extend(reversed([p for p in payload if isinstance(p, email.message.Message)]))


def _attached(part: email.message.Message) -> bool:
    """A part that is not the sender's own text: an attachment, or a message inside this one."""
    disposition = _header_value(part, "Content-Disposition").split(";")[0].strip().lower()
    return disposition == "attachment" or part.get_content_maintype() == "message"


def own_parts(msg: email.message.Message):
    """The leaf parts of msg that its sender wrote, depth first, in order: nothing below an
    attachment or an attached message (message/rfc822 and the like) is visited."""
    stack = [msg]
    while stack:
        part = stack.pop()
        if _attached(part):
            continue
        payload = part.get_payload()
        if isinstance(payload, list):
            stack.extend(reversed([p for p in payload if isinstance(p, email.message.Message)]))
        else:
            yield part


def body_text(msg: email.message.Message, problems: list[str]) -> tuple[str, bool, str | None]:
    """The best text of a message: text/plain first, else HTML as text; attachments and
    attached messages ignored.
    The third value: the charset of that text's part when gm cannot read it (else None)."""
    plain = html = None
    plain_charset = html_charset = None
    for part in own_parts(msg):
        ctype = part.get_content_type()
        if ctype == "text/plain" and plain is None:
            plain, plain_charset = part_text(part, problems), _charset(part)
        elif ctype == "text/html" and html is None:
            html, html_charset = part_text(part, problems), _charset(part)
        if plain is not None and html is not None:
            break
    if plain is not None and plain.strip():
        return plain, False, None if readable_charset(plain_charset) else plain_charset
    if html is not None:
        from gm.mail.html import MAX_HTML_CHARS, html_to_text, trim_html  # for a mail of HTML alone

        html, cut = trim_html(html)
        if cut:
            problems.append(f"HTML body cut to its first {MAX_HTML_CHARS} characters")
        return html_to_text(html), True, None if readable_charset(html_charset) else html_charset
    return plain or "", False, None


def parse(raw: bytes, our_address: str = "", max_bytes: int = DEFAULT_MAX_BYTES) -> Inbound:
    """Read one inbound message; never raises.

    A message over max_bytes is not decoded at all: too_large is set, refuse
    says why, and only its header is read (for the sender and robot checks).
    A MIME tree deeper than MAX_MIME_DEPTH is refused the same way.
    """
    if not isinstance(raw, bytes):
        try:
            raw = raw.encode("utf-8", "surrogateescape") if isinstance(raw, str) else bytes(raw)
        except Exception:
            raw = b""
    inbound = Inbound(raw=raw, size=len(raw))
    try:
        _parse(inbound, raw, our_address, max_bytes)
    except Exception as exc:  # a last guard: no message may stop the mailbox
        inbound.problems.append(f"unreadable message: {type(exc).__name__}: {str(exc)[:200]}")
        if inbound.robot is None and inbound.refuse is None:
            inbound.refuse = "the message could not be read"
        inbound.text = inbound.full_text = ""
    clean_at_the_door(inbound)
    return inbound


def clean_at_the_door(inbound: Inbound) -> None:
    """The one place where the text of a mail is cleaned (gm.core.text.clean): its subject, its
    sender's name and its body, whence every order line and press text comes (header_reading
    cleans the headers as it reads them; cleaning twice changes nothing).  Addresses and
    Message-IDs are checked as ASCII without controls where they are read (gm.mail.rawmail)."""
    inbound.subject = safe_text.clean(inbound.subject)
    inbound.sender_name = safe_text.clean(inbound.sender_name)
    inbound.text = safe_text.clean(inbound.text)
    inbound.full_text = safe_text.clean(inbound.full_text)
    inbound.unread_after_quote = [safe_text.clean(line) for line in inbound.unread_after_quote]
    inbound.unread_may_be_orders = [safe_text.clean(line) for line in inbound.unread_may_be_orders]


def _parse(inbound: Inbound, raw: bytes, our_address: str, max_bytes: int) -> None:
    header, body_start = rawmail.read_header(raw, max(max_bytes, MAX_HEADER_SCAN))
    fields = rawmail.Fields(header)
    inbound.bounce_address = first_of_ours(recipients(header), our_address) or ""
    _read_addresses(inbound, fields, our_address)
    _read_threading(inbound, fields)
    top_type, _ = rawmail.content_type(fields.get("Content-Type"))
    content_types = {top_type, *top_type.split()[:1]}  # "multipart/report" even if junk follows it
    msg = _open_body(inbound, raw, body_start, header, max_bytes)
    if msg is not None:
        _read_body(inbound, msg, content_types)
    inbound.robot = robot_reason(fields, inbound.sender, our_address, inbound.subject, frozenset(content_types))
    inbound.away = bool(inbound.robot) and away_reply(fields, inbound.sender, our_address, inbound.subject,
                                                      frozenset(content_types))


def _read_addresses(inbound: Inbound, fields: rawmail.Fields, our_address: str) -> None:
    """The sender (exactly one From), the Reply-To and the plus address the mail came to."""
    if fields.count("From") > 1:
        inbound.problems.append("From: more than one From field")
    else:
        name, address, problem = rawmail.mailbox(fields.get("From"))
        if problem:
            inbound.problems.append(f"From: {problem}")
        inbound.sender = address
        inbound.sender_name = header_reading(name) if address else ""
    if "Reply-To" in fields:
        _, reply_to, problem = rawmail.mailbox(fields.get("Reply-To"))
        if problem:
            inbound.problems.append(f"Reply-To: {problem}")
        inbound.reply_to = reply_to
    inbound.recipient = plus_recipient(fields, our_address)


def _read_threading(inbound: Inbound, fields: rawmail.Fields) -> None:
    """The subject, the Message-ID and the ids the mail answers (References, In-Reply-To)."""
    inbound.subject = header_reading(fields.get("Subject"))
    inbound.message_id = rawmail.first_message_id(fields.get("Message-ID"))
    if fields.get("Message-ID") and inbound.message_id is None:
        inbound.problems.append("malformed Message-ID")
    refs = rawmail.message_ids(f"{fields.get('References') or ''} {fields.get('In-Reply-To') or ''}")
    inbound.references = refs[-MAX_REFERENCES:]


def _open_body(inbound: Inbound, raw: bytes, body_start: int, header: list[tuple[str, str]],
               max_bytes: int) -> email.message.Message | None:
    """The parsed message, or None with ``refuse`` set: too large, too deep, too complex or
    malformed, each checked on the raw bytes before the email package parses anything."""
    if len(raw) > max_bytes:
        inbound.too_large = True
        inbound.refuse = f"too large: {len(raw)} bytes, the limit is {max_bytes}"
        inbound.problems.append(inbound.refuse)
        return None
    msg = None
    depth, problem = rawmail.mime_scan(raw, body_start, header, MAX_MIME_DEPTH)
    line_count = max(raw.count(b"\n"), raw.count(b"\r"))
    if depth > MAX_MIME_DEPTH:
        inbound.refuse = f"too deeply nested: more than {MAX_MIME_DEPTH} MIME levels"
    elif line_count * max(depth, 1) > MAX_LINE_LEVELS:
        inbound.refuse = f"too complex: {line_count} lines inside {depth} nested MIME parts"
    elif problem:
        inbound.refuse = f"malformed MIME structure: {problem}"
    else:
        try:
            msg = email.message_from_bytes(raw)
        except RecursionError:
            inbound.refuse = f"too deeply nested: more than {MAX_MIME_DEPTH} MIME levels"
        except Exception as exc:  # the stdlib parser is lenient; this is a last guard
            inbound.refuse = "the message could not be read"
            inbound.problems.append(f"unparseable message: {type(exc).__name__}")
    if inbound.refuse:
        inbound.problems.append(inbound.refuse)
    return msg


def _read_body(inbound: Inbound, msg: email.message.Message, content_types: set[str]) -> None:
    """The body's text, its parts' content types, and the reply cut from its quote."""
    try:
        content_types.update(part.get_content_type() for part in walk(msg))
    except Exception as exc:
        inbound.problems.append(f"could not walk the MIME tree: {type(exc).__name__}")
    try:
        inbound.full_text, inbound.html_only, unreadable = body_text(msg, inbound.problems)
        if unreadable is not None:  # never guessed at: the sender is told, nothing is done
            inbound.refuse = (f"its character set {unreadable[:MAX_CHARSET_NAME]!r} is not one "
                              "gm can read; send it as UTF-8")
            inbound.problems.append(inbound.refuse)
    except Exception as exc:  # a broken MIME structure must not stop the mail being answered
        inbound.problems.append(f"could not read the body: {type(exc).__name__}: {str(exc)[:200]}")
    reply = read_reply(inbound.full_text, html=inbound.html_only)
    inbound.text = reply.text
    inbound.unread_after_quote = [line for line in reply.unread if starts_with_command(line)][:MAX_UNREAD_KEPT]
    inbound.unread_may_be_orders = [line for line in reply.unread[:reply.above_marker]
                                    if not starts_with_command(line)
                                    and len(line) <= MAX_UNREAD_CHARS][:MAX_UNREAD_SCREENED]
