"""Masking secrets in stored mail: what a player sent, and what gm sent that carried a secret.

Passwords, reply tokens (``gm+nb1.ada.<token>@``) and address codes (``CONFIRM <code>``)
are masked in the copy gm keeps (``messages.raw``): every header, and every text part
whatever its encoding, written again as UTF-8, masked as the order parser reads it
(gm.mail.inbound), so no soft break or control hides a password the parser finds.  An HTML
part is kept as its text in a <pre>; other parts lose their bytes (gm never reads them).
On each line, in linear time: the rest of the line after PASS/PASSWORD/PASSWD/PASSPHRASE
(not PASSWORD RESET), the word after CONFIRM, a plus address's hex token.  redact() never
raises: what it cannot parse is kept as its masked header and a note; blank() does that
for gm's own mail that carried a secret.
"""

from __future__ import annotations

import email
import email.message
import quopri
from gm.core.value import valueclass
from email.header import Header, decode_header, make_header
from email.message import compat32  # email.policy's compat32, without its header registry

from gm.core import text as safe_text
from gm.mail import rawmail
from gm.mail.inbound import header_reading, own_parts, part_text, walk
from gm.mail.orders import password_start

MASK = "[redacted]"
TOKEN_MASK = "redacted"  # in an address: no brackets, so the address still reads as one
SECRET_WORDS = frozenset({"pass", "password", "passwd", "passphrase"})
MAX_BYTES = 8 * 1024 * 1024  # a mail larger than this keeps only its header
MAX_MIME_DEPTH = 20  # as gm.mail.inbound: deeper trees keep only their header
MAX_LINE_LEVELS = 1_000_000
MAX_HEADER_SCAN = 4 * 1024 * 1024
MAX_KEPT_FIELD = 8000  # characters of a field kept when only the header is kept
MIN_CODE = 6  # a word after CONFIRM this long is taken for a code ("confirm your ..." is not)
MIN_TOKEN_HEX = 16  # a reply token is 20 hex digits (gm.core.tokens); a VERP tag 16
MAX_TOKEN_SCAN = 64  # characters looked at before an @ for a token
CONFIRM_LOCAL = "confirm"  # gm+confirm.<code>@host: the reply-to-confirm address of a code (gm.service.people.optin)
CONFIRM_PREFIX = f"+{CONFIRM_LOCAL}."
_HEX = frozenset("0123456789abcdefABCDEF")
# Charsets are decoded as declared only when gm.mail.charsets reads them (text codecs, each
# linear in its input); anything else (punycode, base64, unknown names) as UTF-8 with
# replacement characters.
_DROPPED_PART_NOTE = "(this part was not kept: gm keeps only the text of the mail it receives)\n"


# --- text -----------------------------------------------------------------------------------
def mask_text(text: str, passwords: bool = True) -> str:
    """``text`` with every password, code and reply token masked (line by line); ``passwords``
    False: codes and tokens only (a subject whose passwords are already shown as ***)."""
    if not text:
        return text
    return "\n".join(mask_line(line, passwords) for line in text.split("\n"))


def _word_char(c: str) -> bool:
    return c.isalnum() or c == "_"


def _word_end(text: str, i: int) -> int:
    while i < len(text) and _word_char(text[i]):
        i += 1
    return i


def _skip(text: str, i: int, chars: str) -> int:
    while i < len(text) and (text[i].isspace() or text[i] in chars):
        i += 1
    return i


def mask_line(line: str, passwords: bool = True) -> str:
    """One line with its secrets masked; linear in its length."""
    if "@" in line:
        line = mask_tokens(line)
    low = rawmail.ascii_lower(line)
    if "pass" not in low and "confirm" not in low:
        return line
    out: list[str] = []
    i = start = 0
    while i < len(low):
        if not _word_char(low[i]) or (i > 0 and _word_char(low[i - 1])):
            i += 1
            continue
        end = _word_end(low, i)
        word = low[i:end]
        if word in SECRET_WORDS and passwords:
            value = password_start(line, end)  # where gm.mail.orders reads the password
            if value is not None and low.startswith("reset", value) \
                    and not _word_char(low[value + 5:value + 6] or " "):
                i = value + 5  # PASSWORD RESET <game>: a command, no secret
                continue
            if value is not None and line[value:].strip(":= \t"):  # "Password:" alone hides nothing
                out.append(line[start:value] + MASK)
                return "".join(out)
        elif word == "confirm":
            value = _skip(line, end, ":=")
            after = _word_end(line, value)
            if after - value >= MIN_CODE:
                out.append(line[start:value] + MASK)
                start = i = after
                continue
        i = end
    out.append(line[start:])
    return "".join(out)


def mask_tokens(text: str) -> str:
    """Reply tokens and confirmation codes in plus addresses masked: ``gm+nb1.ada.<hex>@host`` ->
    ``gm+nb1.ada.redacted@host``, ``gm+confirm.<code>@host`` -> ``gm+confirm.redacted@host``."""
    out: list[str] = []
    start = 0
    at = text.find("@")
    while at != -1:
        k = at
        floor = max(start, at - MAX_TOKEN_SCAN)
        while k > floor and text[k - 1] in _HEX:
            k -= 1
        if at - k >= MIN_TOKEN_HEX and k > 0 and text[k - 1] in ".-" \
                and "+" in text[max(start, k - MAX_TOKEN_SCAN):k]:
            out.append(text[start:k] + TOKEN_MASK)
            start = at
        else:  # a reply-to-confirm address, gm+confirm.<code>@host (gm.service.people.optin): its code
            k = at
            while k > floor and text[k - 1].isalnum():
                k -= 1
            if k < at and text[max(start, k - len(CONFIRM_PREFIX)):k].lower() == CONFIRM_PREFIX:
                out.append(text[start:k] + TOKEN_MASK)
                start = at
        at = text.find("@", at + 1)
    out.append(text[start:])
    return "".join(out)


# --- headers -----------------------------------------------------------------------------------
def _decoded_header(value: str) -> str | None:
    try:
        return str(make_header(decode_header(value)))
    except Exception:  # a bad charset or encoded word: masked as written
        return None


def mask_header(value: str) -> str:
    """A header value with its secrets masked: as written, unless what gm reads of it (decoded,
    unfolded, cleaned: gm.mail.inbound.header_reading) holds a secret; then as read, masked.  A
    header whose encoded words cannot be decoded as declared (an unknown charset, bytes not of
    it) is masked after PASS or PASSWORD, whatever follows."""
    text = str(value)
    reading = header_reading(text.encode("utf-8", "surrogateescape").decode("utf-8", "replace"),
                             len(text))
    hidden = mask_text(reading)
    undecodable = "=?" in text and _decoded_header(text) is None
    if hidden == reading:
        masked = mask_text(text)
        return mask_after_pass(masked) if undecodable else masked
    if undecodable:
        hidden = mask_after_pass(hidden)
    if hidden.isascii() and hidden.isprintable() and "=?" not in hidden:
        return hidden
    return Header(hidden, "utf-8").encode()


def mask_after_pass(text: str) -> str:
    """``text`` masked after its first PASS or PASSWORD, word or not (it may stand inside an
    encoded word nobody can read): for a header gm could not decode as declared."""
    low = rawmail.ascii_lower(text)
    at = low.find("pass")
    if at == -1:
        return text
    end = at + 8 if low.startswith("word", at + 4) else at + 4
    return text[:end] + MASK if text[end:].strip() else text


def _mask_part_headers(part: email.message.Message) -> None:
    items = list(part.raw_items())  # as received: 8-bit bytes as surrogates, read as gm.mail.rawmail reads them
    new = [(name, mask_header(value)) for name, value in items]
    if all(str(value) == masked for (_, value), (_, masked) in zip(items, new)):
        return
    for name in dict.fromkeys(name.lower() for name, _ in items):
        del part[name]
    for name, value in new:
        part[name] = value


# --- the whole mail -------------------------------------------------------------------------------
class KeptCopyPolicy(type(compat32)):  # type: ignore[misc]  # email.policy.Compat32
    """compat32, as the kept copy is parsed and written, writing a short plain header line as it is.

    compat32 folds every header line through email.header.Header, a fifth of what reading and
    keeping an order mail cost; a line that is printable ASCII, with no space at either end and
    within max_line_length, is one Header leaves as it is (tests/mail/test_redact.py compares the
    two over such lines and their edges), so it is written directly."""

    def fold_binary(self, name: str, value) -> bytes:
        if (isinstance(value, str) and name.isascii() and value.isascii() and value.isprintable()
                and value == value.strip()
                and len(name) + 2 + len(value) <= (self.max_line_length or 0)):
            return f"{name}: {value}{self.linesep}".encode("ascii")
        return super().fold_binary(name, value)


KEPT_COPY = KeptCopyPolicy()


def redact(raw: bytes, max_bytes: int = MAX_BYTES) -> bytes:
    """The mail ``raw`` as kept once read: re-serialised with every secret masked.  Never raises.
    A mail over ``max_bytes`` (one gm did not read past its header) keeps its header alone."""
    try:
        msg, why = _message(raw, max_bytes)
        if msg is None:
            return headers_only(raw, f"Its body was not kept: {why}.")
        for part in walk(msg):
            _mask_part_headers(part)
            if part.is_multipart():
                continue
            if part.get_content_maintype() == "text":
                _set_text(part, mask_text(_text_of(part)))
            else:
                _drop_payload(part)
        return msg.as_bytes(policy=KEPT_COPY)
    except Exception as exc:  # never a reason to keep the secrets: keep less
        return headers_only(raw, f"Its body was not kept: it could not be written again "
                                 f"({type(exc).__name__}).")


def _message(raw: bytes, max_bytes: int = MAX_BYTES) -> tuple[email.message.Message | None, str]:
    """The parsed mail, or (None, why it is not parsed): the same limits as gm.mail.inbound."""
    limit = min(max_bytes, MAX_BYTES)
    if len(raw) > limit:
        return None, f"{len(raw)} bytes, more than {limit}"
    header, body_start = rawmail.read_header(raw, MAX_HEADER_SCAN)
    depth, problem = rawmail.mime_scan(raw, body_start, header, MAX_MIME_DEPTH)
    if depth > MAX_MIME_DEPTH:
        return None, f"more than {MAX_MIME_DEPTH} MIME levels"
    if max(raw.count(b"\n"), raw.count(b"\r")) * max(depth, 1) > MAX_LINE_LEVELS:
        return None, "too many lines in nested MIME parts"
    if problem:
        return None, f"malformed MIME structure ({problem})"
    return email.message_from_bytes(raw, policy=compat32), ""


def _text_of(part: email.message.Message) -> str:
    """A text part's words as gm.mail.inbound reads them: decoded from its transfer encoding and
    charset, unflowed, HTML as its text, cleaned (gm.core.text.clean), so that what is masked is
    what the order parser reads."""
    text = part_text(part, [])
    if part.get_content_subtype() == "html":
        from gm.mail.html import html_to_text, trim_html  # the HTML reader: for an HTML part only

        text = html_to_text(trim_html(text)[0])
    return safe_text.clean(text)


def _set_text(part: email.message.Message, text: str) -> None:
    html_part = part.get_content_subtype() == "html"
    if html_part:
        import html  # its entities table: for an HTML part only

        text = "<pre>" + html.escape(text) + "</pre>\n"
    data = text.encode("utf-8")
    del part["Content-Transfer-Encoding"]
    if data.isascii() and all(len(line) <= 998 for line in data.split(b"\n")):
        part.set_payload(text)
        part["Content-Transfer-Encoding"] = "7bit"
    else:
        part.set_payload(quopri.encodestring(data).decode("ascii"))
        part["Content-Transfer-Encoding"] = "quoted-printable"
    del part["Content-Type"]
    part["Content-Type"] = f'text/{"html" if html_part else "plain"}; charset="utf-8"'


def _drop_payload(part: email.message.Message) -> None:
    if part.get_content_maintype() == "message":
        return  # its inner message is walked
    del part["Content-Transfer-Encoding"]
    del part["Content-Type"]
    part["Content-Type"] = 'text/plain; charset="us-ascii"'
    part["Content-Transfer-Encoding"] = "7bit"
    part.set_payload(_DROPPED_PART_NOTE)


# --- header only ---------------------------------------------------------------------------------
_BODY_FIELDS = frozenset({"content-type", "content-transfer-encoding", "mime-version"})


def _field_name(name: str) -> str:
    return "-".join(word[:1].upper() + word[1:] for word in name.split("-"))


def headers_only(raw: bytes, note: str) -> bytes:
    """The header fields of ``raw`` that can be read, masked, and ``note`` as the body.  Never raises."""
    lines: list[bytes] = []
    try:
        header, _ = rawmail.read_header(raw, MAX_HEADER_SCAN)
        for name, value in header:
            if name in _BODY_FIELDS:
                continue
            clean = " ".join(mask_header(value[:MAX_KEPT_FIELD]).split())
            lines.append(f"{_field_name(name)}: {clean}".encode("utf-8", "replace"))
    except Exception:  # keep what was read so far
        pass
    lines += [b"MIME-Version: 1.0", b'Content-Type: text/plain; charset="utf-8"',
              b"Content-Transfer-Encoding: 8bit", b"X-GM-Redacted: yes", b""]
    return b"\r\n".join(lines) + b"\r\n" + note.rstrip("\n").encode("utf-8", "replace") + b"\r\n"


def masked_header(raw: bytes) -> bytes | None:
    """``raw`` with the reply tokens in its header masked (a sent mail's Reply-To); None if it has none."""
    end = raw.find(b"\r\n\r\n")
    end = raw.find(b"\n\n") if end < 0 else end
    head = raw[:end] if end >= 0 else raw
    if b"+" not in head or b"@" not in head:
        return None
    masked = mask_tokens(head.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape")
    return None if masked == head else masked + raw[len(head):]


def blank(raw: bytes, note: str) -> bytes:
    """gm's own mail that carried a secret, as kept once sent: its header (masked), then ``note``."""
    return headers_only(raw, note)


# --- a plain reading, for a mail the reader could not read -------------------------------------
@valueclass
class Reading:
    sender: str = ""
    subject: str = ""
    text: str = ""


def plain_reading(raw: bytes) -> Reading:
    """From, Subject and the first text part of ``raw``, read without gm.mail.inbound: what a mail
    the reader failed on is authenticated with, before its password is masked.  Never raises."""
    reading = Reading()
    try:
        header, _ = rawmail.read_header(raw, MAX_HEADER_SCAN)
        fields = rawmail.Fields(header)
        if fields.count("From") == 1:
            reading.sender = rawmail.mailbox(fields.get("From"))[1].lower()
        subject = fields.get("Subject") or ""
        reading.subject = " ".join((_decoded_header(subject) if "=?" in subject else subject or "").split())
        msg, _ = _message(raw)
        for part in own_parts(msg) if msg is not None else ():  # never an attachment's or attached mail's
            if part.get_content_maintype() == "text":
                reading.text = _text_of(part)
                break
    except Exception:  # what was read so far
        pass
    return reading
