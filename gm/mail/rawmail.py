"""Reading a message's raw bytes without trusting them: header fields, addresses, Message-IDs, MIME depth.

Everything here takes time linear in its input (string methods and plain
loops, no regular expression that could backtrack), never recurses on the
input's structure, and never raises on bad bytes.  gm.mail.inbound reads the
header with these functions before the email package sees the message, and
hands the message to the email package only when mime_depth() says it is
shallow enough for the package's recursive parser.
"""

from __future__ import annotations

from collections.abc import Iterator

from gm.core import addresses

MAX_ADDRESS_HEADER = 2_000  # a From or Reply-To longer than this is not read (RFC 5322 lines are <= 998)
MAX_ADDR_SPEC = 254  # RFC 5321 4.5.3.1.3 (a path of 256 with its brackets)
MAX_MESSAGE_ID = 250  # one Message-ID; RFC 5322 lines are <= 998, real ones < 100
MAX_MIME_HEADER = 8_000  # a part's Content-Type or Content-Disposition longer than this is refused

# RFC 5322 3.2.3 atext, the characters of an unquoted local part (besides the dots).
_ATEXT = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~")
_LABEL = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")
# The bytes a header field name may hold: printable ASCII but ':' (what the email package accepts).
_FIELD_NAME = bytes(b for b in range(33, 127) if b != ord(":"))


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def ascii_lower(text: str) -> str:
    """text with A-Z lower-cased and nothing else changed: every index stays where it was."""
    return text.translate(_ASCII_LOWER)


def lines(data: bytes, end: int | None = None, start: int = 0) -> Iterator[tuple[bytes, int, int]]:
    """(line without its ending, its offset, offset after it) for CRLF, LF or lone-CR lines.

    The lines are those the email package sees.

    Linear however the line endings are mixed: the next LF is looked up again
    only once it has been passed.
    """
    stop = len(data) if end is None else min(end, len(data))
    pos, nl = start, -2
    while pos < stop:
        if nl != -1 and nl < pos:
            nl = data.find(b"\n", pos, stop)
        limit = nl if nl != -1 else stop
        cr = data.find(b"\r", pos, limit)
        if cr != -1:
            line_end, after = cr, (cr + 2 if cr + 1 == nl else cr + 1)
        elif nl != -1:
            line_end, after = nl, nl + 1
        else:
            line_end = after = stop
        yield data[pos:line_end], pos, after
        pos = after


def _is_field_name(name: bytes) -> bool:
    return not name.translate(None, _FIELD_NAME)


def read_header(raw: bytes, end: int | None = None) -> tuple[list[tuple[str, str]], int]:
    """The header fields as (lower-case name, unfolded value), and the offset where the body starts.

    Values are decoded from UTF-8 with replacement characters, so raw 8-bit
    bytes never reach the caller as anything but text.  As in the email
    package, a line that is neither a field nor a continuation ends the
    header (it is the body's first line), and "From " envelope lines are skipped.
    """
    fields: list[tuple[str, str]] = []
    name: bytes | None = None
    chunks: list[bytes] = []

    def flush() -> None:
        if name is not None:
            value = b"".join(chunks).decode("utf-8", "replace")
            fields.append((name.decode("ascii").strip().lower(), value.strip(" \t")))

    body = len(raw) if end is None else min(end, len(raw))
    for line, begin, after in lines(raw, end):
        if not line:
            body = after
            break
        if line[:1] in (b" ", b"\t"):
            if name is not None:
                chunks.append(line)
            continue
        if line.startswith(b"From "):
            continue  # an envelope line, in its place (first) or not
        colon = line.find(b":")
        if colon < 0 or not _is_field_name(line[:colon]):
            body = begin  # the body's first line
            break
        flush()
        name, chunks = line[:colon], [line[colon + 1:].lstrip(b" \t")]
    flush()
    return fields, body


class Fields:
    """A message's header fields by lower-case name; the first of a repeated field is the one read."""

    def __init__(self, fields: list[tuple[str, str]]):
        self.all: dict[str, list[str]] = {}
        for name, value in fields:
            self.all.setdefault(name, []).append(value)

    def get(self, name: str, default: str | None = None) -> str | None:
        values = self.all.get(name.lower())
        return values[0] if values else default

    def count(self, name: str) -> int:
        return len(self.all.get(name.lower(), ()))

    def __contains__(self, name: str) -> bool:
        return name.lower() in self.all

    def names(self) -> list[str]:
        return list(self.all)


# --- addresses ---------------------------------------------------------------------------------
def valid_addr_spec(address: str) -> bool:
    """True for a plain ASCII local@domain that mail can be sent to (RFC 5322 3.4.1, without comments)."""
    if not address or len(address) > MAX_ADDR_SPEC or not address.isascii():
        return False
    local, at, domain = address.rpartition("@")
    if not at or not local or not domain or len(local) > 64:
        return False
    if len(local) >= 2 and local[0] == '"' and local[-1] == '"':
        inner = local[1:-1]
        if not inner.isprintable() or '"' in inner.replace('\\"', ""):
            return False
    elif local[0] == "." or local[-1] == "." or not all(c in _ATEXT or c == "." for c in local):
        return False
    if domain[0] == "[" and domain[-1] == "]":
        inner = domain[1:-1]
        return bool(inner) and inner.isprintable() and not any(c in "[]\\ " for c in inner)
    labels = domain.split(".")
    return all(0 < len(label) <= 63 and all(c in _LABEL for c in label) for label in labels)


def mailbox(value: str | None) -> tuple[str, str, str | None]:
    """(display name, addr-spec, problem) from the RAW text of a From or Reply-To field; the
    addr-spec in the form gm keeps (gm.core.addresses.normal: a UTF-8 local part and an IDN
    domain are a person's address too, the domain in A-label form).

    The field is read with email.utils.getaddresses before any RFC 2047
    decoding, so an encoded word cannot smuggle in an address.  It must hold
    exactly one valid addr-spec, written as it is (no comments or spaces
    inside it); else the address is "" and problem says why.
    The display name is returned as written (encoded words still encoded).
    """
    if value is None or not value.strip():
        return "", "", "no address"
    if len(value) > MAX_ADDRESS_HEADER:
        return "", "", f"address field too long ({len(value)} characters)"
    import email.utils  # the email package, where a mail is read (a command reading the store needs none)

    try:
        pairs = email.utils.getaddresses([value])
    except Exception as exc:  # RecursionError on nested comments, among others
        return "", "", f"address field unparseable ({type(exc).__name__})"
    # The addr-spec must stand in the field as written: getaddresses also joins "a@exa mple.org"
    # into a@example.org and closes "a@[1.2.3.4", and neither is an address anyone wrote.
    low = value.lower()
    valid = [(name, addresses.normal(addr)) for name, addr in pairs if addr.lower() in low]
    valid = [(name, addr) for name, addr in valid if addr is not None]
    if len(valid) == 1:
        return valid[0][0], valid[0][1], None
    if not valid:
        return "", "", "no valid address"
    return "", "", f"{len(valid)} addresses, not one"


# --- Message-IDs ------------------------------------------------------------------------------
def valid_message_id(value: str) -> bool:
    """"<...>", printable ASCII without spaces and without other angle brackets, at most MAX_MESSAGE_ID long."""
    return (
        2 < len(value) <= MAX_MESSAGE_ID
        and value[0] == "<" and value[-1] == ">"
        and value.isascii() and value.isprintable()
        and " " not in value
        and value.count("<") == 1 and value.count(">") == 1
    )


def message_ids(value: str) -> list[str]:
    """Every well-formed <Message-ID> in a References or In-Reply-To field, in order, without repeats."""
    found: list[str] = []
    for piece in value.replace(">", "> ").split():
        if piece.endswith(">"):
            start = piece.rfind("<")
            if start != -1 and valid_message_id(piece[start:]):
                found.append(piece[start:])
    return list(dict.fromkeys(found))


def first_message_id(value: str | None) -> str | None:
    """A message's own Message-ID: the first <...> in the field, else the bare token; None if malformed."""
    if not value:
        return None
    value = value.strip()
    if value.startswith("<"):
        close = value.find(">")
        if close != -1:
            value = value[:close + 1]
    if not value or len(value) > MAX_MESSAGE_ID or not value.isprintable() or any(c.isspace() for c in value):
        return None
    return value


# --- MIME structure --------------------------------------------------------------------------
def content_type(value: str | None, default: str = "text/plain") -> tuple[str, str | None]:
    """(lower-case type, boundary or None) of a Content-Type value, the email package's way."""
    if value is None:
        return default, None
    ctype = value.split(";", 1)[0].strip().lower()
    if ctype.count("/") != 1:
        ctype = "text/plain"  # what the email package says of a malformed type
    boundary = None
    if ctype.startswith("multipart/") and len(value) <= MAX_MIME_HEADER:
        import email.message

        holder = email.message.Message()
        holder.set_raw("Content-Type", value)
        try:
            boundary = holder.get_boundary()
        except Exception:
            boundary = None
    return ctype, boundary


class _LineReader:
    """Lines at increasing offsets, each line's end found in time linear over all calls."""

    def __init__(self, data: bytes):
        self.data = data
        self.nl = self.cr = -2  # the next LF and CR at or after the last offset (-1: none left)

    def line_at(self, pos: int) -> tuple[bytes, int]:
        """(the line starting at pos without its ending, the offset after it)."""
        data = self.data
        if self.nl != -1 and self.nl < pos:
            self.nl = data.find(b"\n", pos)
        if self.cr != -1 and self.cr < pos:
            self.cr = data.find(b"\r", pos)
        ends = [e for e in (self.nl, self.cr) if e != -1]
        if not ends:
            return data[pos:], len(data)
        stop = min(ends)
        after = stop + 2 if data[stop:stop + 2] == b"\r\n" else stop + 1
        return data[pos:stop], after


def _next_dashes(data: bytes, pos: int) -> int:
    """The offset of the next line (from the line starting at pos) that starts with "--", or -1."""
    hit = data.find(b"--", pos)
    while hit > pos and data[hit - 1] not in (10, 13):
        hit = data.find(b"--", hit + 1)
    return hit


def _boundary_hit(stack: list[bytes | None], line: bytes) -> tuple[int, bool] | None:
    """(level, closing) if the line is a delimiter of an open multipart, innermost first."""
    rest = line[2:].rstrip(b" \t")
    for level in range(len(stack) - 1, -1, -1):
        boundary = stack[level]
        if boundary is None:
            continue
        if rest == boundary:
            return level, False
        if rest == boundary + b"--":
            return level, True
    return None


class _MimeTree:
    """The open levels of a MIME tree being scanned: a boundary for each open multipart (None
    for an open message/*), whether each is a multipart/digest, and the deepest nesting seen."""

    def __init__(self) -> None:
        self.stack: list[bytes | None] = []
        self.digest: list[bool] = []
        self.depth = 0

    def open(self, header: list[tuple[str, str]], default: str) -> tuple[bool, str | None]:
        """Open what a part header declares; (whether its body starts with a header, problem)."""
        fields = Fields(header)
        for name in ("content-type", "content-disposition"):
            value = fields.get(name)
            if value is not None and len(value) > MAX_MIME_HEADER:
                return False, f"a {name} field of {len(value)} characters"
        ctype, boundary = content_type(fields.get("content-type"), default)
        body_is_header = False
        if ctype.startswith("multipart/"):
            if boundary:
                self.stack.append(boundary.encode("utf-8", "replace"))
                self.digest.append(ctype == "multipart/digest")
        elif ctype.startswith("message/") and ctype != "message/delivery-status":
            self.stack.append(None)
            self.digest.append(False)
            body_is_header = True
        self.depth = max(self.depth, len(self.stack))
        return body_is_header, None

    def delimiter(self, level: int, closing: bool) -> str | None:
        """A delimiter of the multipart at ``level``: the levels inside it end, and a closing
        one ends it too (None); else a part begins, and its default content type is returned."""
        inner_digest = self.digest[level]
        del self.stack[level + 1:], self.digest[level + 1:]
        if closing:
            self.stack.pop()
            self.digest.pop()
            return None
        return "message/rfc822" if inner_digest else "text/plain"


def _is_header_line(line: bytes) -> bool:
    """A line that continues a part's header: a folded line, a "From " line or a field."""
    colon = line.find(b":")
    return bool(line) and (line[:1] in (b" ", b"\t") or line.startswith(b"From ") or (
        colon != -1 and _is_field_name(line[:colon])))


def _part_header(lines: list[bytes]) -> list[tuple[str, str]]:
    """The fields of a part header given as its raw lines."""
    return read_header(b"\n".join(lines) + b"\n\n")[0]


def mime_scan(raw: bytes, start: int, top_header: list[tuple[str, str]], limit: int) -> tuple[int, str | None]:
    """(nesting depth, problem) of the MIME tree, counted without recursion; stops once past limit.

    It follows the email package's feedparser: a multipart's parts end at any
    enclosing boundary, a message/* part holds a whole message (one level
    more), parts of a multipart/digest are message/rfc822 unless they say
    otherwise.  problem is set when a part's Content-Type or
    Content-Disposition is too long for the email package to read quickly.
    """
    tree = _MimeTree()
    in_header, problem = tree.open(top_header, "text/plain")
    if problem:
        return tree.depth, problem
    header: list[bytes] = []
    default = "text/plain"
    reader = _LineReader(raw)
    pos, end = start, len(raw)
    while pos < end:
        if tree.depth > limit:
            return tree.depth, None
        if not in_header:
            if not tree.stack:
                break  # a body that is not a multipart's: nothing in it nests
            pos = _next_dashes(raw, pos)  # only a line starting with "--" can be a delimiter
            if pos == -1:
                break
        line, pos = reader.line_at(pos)
        hit = _boundary_hit(tree.stack, line) if tree.stack and line[:2] == b"--" else None
        if hit is not None:
            part_default = tree.delimiter(*hit)
            in_header, header = part_default is not None, []
            default = part_default or default
            continue
        if not in_header:
            continue
        if _is_header_line(line):
            header.append(line)
            continue
        # the header of a part (or of a message/* part's message) ends here
        in_header, problem = tree.open(_part_header(header), default)
        header = []
        default = "text/plain"
        if problem:
            return tree.depth, problem
    if in_header and header:  # a part header running to the end of the message
        _, problem = tree.open(_part_header(header), default)
    return tree.depth, problem
