"""Reading inbound mail: who sent it, whether a robot did, and its text.

Real mail is messy.  This module never raises on bad input: unknown or
missing charsets decode with replacement characters, HTML-only mail is
turned into text, and quoted replies and signatures are cut off so that old
orders in a quote are never applied.
"""

from __future__ import annotations

import codecs
import email
import email.message
import email.utils
import re
from dataclasses import dataclass, field
from email.header import decode_header, make_header

OUR_HEADER = "X-GM-Instance"

# Lines that start the quoted part of a reply; everything from there on is old.
_QUOTE_STARTS = [
    re.compile(r"^\s*On\b.*\bwrote:\s*$", re.I),
    re.compile(r"^\s*Am\b.*\bschrieb\b.*:\s*$", re.I),
    re.compile(r"^\s*Le\b.*\ba écrit\s*:\s*$", re.I),
    re.compile(r"^\s*-+\s*Original Message\s*-+\s*$", re.I),
    re.compile(r"^\s*-+\s*Forwarded message\s*-+\s*$", re.I),
    re.compile(r"^_{10,}\s*$"),  # Outlook's rule above the quoted header block
    re.compile(r"^\s*From:\s.*<?\S+@\S+>?\s*$", re.I),  # a quoted header block
]
_SIGNATURE = re.compile(r"^(--|-- |__)\s*$")
_ROBOT_SENDERS = re.compile(r"^(mailer-daemon|postmaster|no-?reply|bounces?)([+-].*)?@", re.I)


@dataclass
class Inbound:
    raw: bytes
    sender: str = ""  # the bare address, lower-cased
    sender_name: str = ""
    reply_to: str = ""
    subject: str = ""
    message_id: str | None = None
    references: list[str] = field(default_factory=list)
    text: str = ""  # the new text, quotes and signature removed
    full_text: str = ""  # the decoded body before stripping
    html_only: bool = False
    robot: str | None = None  # why this is a robot's mail, or None
    problems: list[str] = field(default_factory=list)

    @property
    def reply_address(self) -> str:
        return self.reply_to or self.sender


def header_text(value: object) -> str:
    """A header as text, RFC 2047 words decoded, never raising."""
    if value is None:
        return ""
    try:
        return str(make_header(decode_header(str(value))))
    except (LookupError, UnicodeError, ValueError, email.errors.HeaderParseError):
        return str(value).encode("ascii", "replace").decode("ascii")


def decode_bytes(data: bytes, charset: str | None) -> tuple[str, str | None]:
    """Decode with the declared charset; a bad or unknown one gives replacement characters."""
    problem = None
    name = (charset or "").strip().strip('"').lower() or None
    if name:
        try:
            codecs.lookup(name)
        except LookupError:
            problem = f"unknown charset {charset!r}"
            name = None
    if name is None:
        try:
            return data.decode("utf-8"), problem
        except UnicodeDecodeError:
            return data.decode("utf-8", "replace"), problem or "undeclared charset, not UTF-8"
    try:
        return data.decode(name), problem
    except UnicodeDecodeError:
        return data.decode(name, "replace"), f"text not valid in {name}"


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


def html_to_text(html: str) -> str:
    import html2text  # imported here: only HTML-only mail needs it

    converter = html2text.HTML2Text()
    converter.body_width = 0  # keep order lines whole
    converter.ignore_images = True
    converter.ignore_links = True
    converter.ignore_emphasis = True  # "**b4xd4**" is not an order
    return converter.handle(html)


def _part_text(part: email.message.Message, problems: list[str]) -> str:
    payload = part.get_payload(decode=True)
    if payload is None:
        payload = str(part.get_payload() or "").encode("utf-8", "replace")
    text, problem = decode_bytes(payload, part.get_content_charset())
    if problem:
        problems.append(problem)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if part.get_content_type() == "text/plain" and part.get_param("format", "").lower() == "flowed":
        text = unflow(text, part.get_param("delsp", "").lower() == "yes")
    return text


def body_text(msg: email.message.Message, problems: list[str]) -> tuple[str, bool]:
    """The best text of a message: text/plain first, else HTML as text; attachments ignored."""
    plain = html = None
    for part in msg.walk():
        if part.is_multipart():
            continue
        disposition = (part.get("Content-Disposition") or "").split(";")[0].strip().lower()
        if disposition == "attachment":
            continue
        ctype = part.get_content_type()
        if ctype == "text/plain" and plain is None:
            plain = _part_text(part, problems)
        elif ctype == "text/html" and html is None:
            html = _part_text(part, problems)
    if plain is not None and plain.strip():
        return plain, False
    if html is not None:
        return html_to_text(html), True
    return plain or "", False


def strip_reply(text: str) -> str:
    """The new part of a reply: stop at a quote header or signature, drop '>' lines."""
    kept: list[str] = []
    for line in text.split("\n"):
        stripped = line.rstrip()
        if _SIGNATURE.match(stripped) or any(p.match(stripped) for p in _QUOTE_STARTS):
            break
        if stripped.lstrip().startswith(">"):
            continue
        kept.append(stripped)
    return "\n".join(kept).strip("\n")


def robot_reason(msg: email.message.Message, sender: str, our_address: str) -> str | None:
    """Why we must not answer this mail (RFC 3834), or None for a person."""
    if msg.get(OUR_HEADER) is not None or (our_address and sender == our_address.lower()):
        return "our own mail"
    auto = (msg.get("Auto-Submitted") or "").split(";")[0].strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = (msg.get("Precedence") or "").strip().lower()
    if precedence in {"bulk", "junk", "list"}:
        return f"Precedence: {precedence}"
    return_path = msg.get("Return-Path")
    if return_path is not None and return_path.strip() in {"<>", ""}:
        return "empty Return-Path (a bounce)"
    if msg.get_content_type() == "multipart/report" or any(
        p.get_content_type() in {"message/delivery-status", "message/disposition-notification"}
        for p in msg.walk()
    ):
        return "a delivery or disposition report"
    if _ROBOT_SENDERS.match(sender or ""):
        return f"robot sender {sender}"
    for name in msg.keys():
        if name.lower().startswith("list-"):
            return f"mailing list header {name}"
    if msg.get("X-Autoreply") or msg.get("X-Autorespond"):
        return "auto-reply header"
    if not sender:
        return "no sender address"
    return None


def parse(raw: bytes, our_address: str = "") -> Inbound:
    inbound = Inbound(raw=raw)
    try:
        msg = email.message_from_bytes(raw)
    except Exception as exc:  # the stdlib parser is lenient; this is a last guard
        inbound.problems.append(f"unparseable message: {exc}")
        inbound.robot = "unparseable message"
        return inbound
    name, address = email.utils.parseaddr(header_text(msg.get("From")))
    inbound.sender_name = name
    inbound.sender = address.strip().lower()
    _, reply_to = email.utils.parseaddr(header_text(msg.get("Reply-To")))
    inbound.reply_to = reply_to.strip().lower()
    inbound.subject = " ".join(header_text(msg.get("Subject")).split())
    mid = (msg.get("Message-ID") or "").strip()
    inbound.message_id = mid or None
    refs = f"{msg.get('References') or ''} {msg.get('In-Reply-To') or ''}"
    inbound.references = list(dict.fromkeys(re.findall(r"<[^<>\s]+>", refs)))
    try:
        inbound.full_text, inbound.html_only = body_text(msg, inbound.problems)
    except Exception as exc:  # a broken MIME structure must not stop the mail being answered
        inbound.problems.append(f"could not read the body: {exc}")
    inbound.text = strip_reply(inbound.full_text)
    inbound.robot = robot_reason(msg, inbound.sender, our_address)
    return inbound
