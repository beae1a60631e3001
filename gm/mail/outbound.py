"""Composing outgoing mail: plain text, threaded, and marked as a robot's (RFC 3834).

A message is one text/plain UTF-8 part in quoted-printable, or (a report for a reader of
HTML) a multipart/alternative of that part and a multipart/related of the HTML and its
``cid:`` pictures; over MAX_HTML_MESSAGE_BYTES, the text alone goes.  Calendar parts and files
make it multipart/mixed: that body (with the first text/calendar as one more alternative), each
calendar as an .ics attachment (what mail clients offer to add), then the files.  Headers and body are
written directly (RFC 2047 words by email.header, binascii for the body): the email
package's generator costs eight times as much, and every order queues a report to each
player; tests/mail/test_outbound.py reads the output back with the email package.  Each part
starts with MARKER (gm.mail.quotes).  Nothing inbound makes a reply large: threading keeps
MAX_REFERENCES well-formed ids, and a message is at most MAX_OUTGOING_BYTES.
"""

from __future__ import annotations

import base64
import binascii
import email
import email.utils
import functools
import io
import json
import secrets
from collections.abc import Callable
from gm.core.value import valueclass
from datetime import datetime, timezone
from email.header import Header

from gm.mail.msgids import new_message_id
from gm.mail.quotes import MARKER, MARKERS
from gm.mail.robots import OUR_HEADER
from gm.mail.rawmail import MAX_MESSAGE_ID, valid_message_id

MAX_HEADER_LINE = 78  # RFC 5322 2.1.1: lines SHOULD be no longer than this
MAX_REFERENCES = 10  # Message-IDs in References: the last ones of the thread
MAX_OUTGOING_BYTES = 512 * 1024  # no message gm sends is larger; a longer body is cut
MAX_SUBJECT = 998  # characters of a subject (RFC 5322 2.1.1's line limit)
MAX_NAME = 200  # characters of the sender's display name, the game id and the instance
MAX_RECIPIENT = 998
MAX_HTML_MESSAGE_BYTES = 150 * 1024  # a report with HTML and pictures; larger, it goes as text only
MIN_TEXT_BYTES = 16 * 1024  # what attached files leave at least for a mail's text
TEXT_PLAIN = ('Content-Type: text/plain; charset="utf-8"\n'
              "Content-Transfer-Encoding: quoted-printable")

__all__ = ["LATER", "LATER_SIZE", "MAX_HEADER_LINE", "MAX_HTML_MESSAGE_BYTES", "MAX_MESSAGE_ID", "MAX_OUTGOING_BYTES",
           "MAX_REFERENCES", "finish", "is_later", "ARCHIVED_NOTE", "TRIMMED_NOTE", "Attachment", "HtmlPart",
           "calendar_method", "compose", "marked", "marked_html", "thread_ids", "words_only"]
# The body of a message whose pictures its sender draws (compose, finish), and the size its page's
# picture shows until then.
LATER = "application/x-gm-later"
_LATER_HEAD = f"\nContent-Type: {LATER}\nContent-Transfer-Encoding: base64\n\n".encode("ascii")
LATER_SIZE = ("{gm-picture-width}", "{gm-picture-height}")
TRIMMED_NOTE = "left out of the copy kept a day after sending; drawn again from the stored state at will"
ARCHIVED_NOTE = "left out of the copy kept a day after sending; the archive keeps these words (reports.outbox_id)"


@valueclass(frozen=True)
class Attachment:
    """A file a mail carries: its name (``nb7.json``), its MIME type and its bytes."""

    name: str
    content_type: str
    data: bytes


@valueclass(frozen=True)
class HtmlPart:
    """The HTML alternative of a message, and the PNG pictures it shows as ``cid:<content id>``."""

    html: str
    # (content id without <>, PNG bytes, or the spec of a picture its sender draws: compose)
    images: tuple[tuple[str, bytes | str], ...] = ()


def _header(name: str, value: str) -> str:
    """One header field, folded at spaces; non-ASCII as RFC 2047 encoded words."""
    value = " ".join(value.split())  # no CR/LF can smuggle in another header
    if not value.isascii():
        return f"{name}: " + Header(value, "utf-8", header_name=name).encode(linesep="\n")
    line, lines = f"{name}:", []
    for word in value.split(" "):
        if len(line) + 1 + len(word) > MAX_HEADER_LINE and line.strip() and line != f"{name}:":
            lines.append(line)
            line = ""
        line += " " + word
    lines.append(line)
    return "\n".join(lines)


def thread_ids(in_reply_to: str | None, references, root: str | None = None) -> tuple[str | None, list[str]]:
    """(In-Reply-To, References) for a reply: malformed or overlong Message-IDs dropped, the last
    MAX_REFERENCES kept, the message answered last.  ``root``: the thread's first message, kept
    first whatever else is cut (a reader's thread of a game: gm.service.outgoing.threads)."""
    parent = in_reply_to.strip() if isinstance(in_reply_to, str) else None
    if parent is not None and not valid_message_id(parent):
        parent = None
    refs = [r.strip() for r in references or () if isinstance(r, str) and valid_message_id(r.strip())]
    if parent is not None and parent not in refs:
        refs.append(parent)
    refs = list(dict.fromkeys(refs))
    root = root.strip() if isinstance(root, str) and valid_message_id(root.strip()) else None
    if root is None:
        return parent, refs[-MAX_REFERENCES:]
    return parent, [root] + [r for r in refs if r != root][-(MAX_REFERENCES - 1):]


def _cut_body(body: str, budget: int) -> bytes:
    """The quoted-printable body, cut (at a line end if one is near) with a note so that it fits budget."""
    encoded = binascii.b2a_qp(body.encode("utf-8"), istext=True)
    if len(encoded) <= budget:
        return encoded
    note = (f"\n\n[gm: this message was cut short: it was {len(encoded)} bytes, "
            f"more than the {MAX_OUTGOING_BYTES} bytes gm sends in one message.]\n")
    keep, candidate = len(body), encoded
    for _ in range(12):
        keep = int(keep * budget / max(len(candidate), 1) * 0.97)
        cut = body[:max(keep, 0)]
        line_end = cut.rfind("\n")
        if line_end > len(cut) // 2:
            cut = cut[:line_end + 1]
        candidate = binascii.b2a_qp((cut + note).encode("utf-8"), istext=True)
        if len(candidate) <= budget:
            return candidate
    return binascii.b2a_qp(note.encode("utf-8"), istext=True)[:max(budget, 0)]


def compose(
    *,
    sender: str,
    sender_name: str,
    to: str,
    subject: str,
    body: str,
    auto: str = "auto-generated",
    in_reply_to: str | None = None,
    references: list[str] | tuple[str, ...] = (),
    game_id: str | None = None,
    instance: str = "gm",
    headers: tuple[tuple[str, str], ...] = (),
    reserve: int = 0,
    message_id_domain: str | None = None,
    html: HtmlPart | None = None,
    root: str | None = None,
    calendars: tuple[bytes, ...] = (),
    turn: int | None = None,
    attachments: tuple[Attachment, ...] = (),
    signer: tuple[str, str, str] | None = None,
    language: str = "en",
) -> tuple[str, bytes]:
    """Return (Message-ID, RFC 5322 bytes).  The Message-ID is fixed here, at queue time.

    The result is at most MAX_OUTGOING_BYTES - ``reserve`` (room for a header added later: the
    DKIM signature): a body too long for that is cut, with a note saying so.  With ``html`` the
    message is multipart/alternative (text first), unless it would be larger than
    MAX_HTML_MESSAGE_BYTES - ``reserve`` or the text had to be cut: then it is the text alone.
    The Message-ID's domain is ``message_id_domain``, else the sender's.  ``headers``: more
    fields (Reply-To, List-Id, List-Unsubscribe), written as given.  ``root``: the Message-ID
    that begins the reader's thread, referenced first.  ``calendars``: iCalendar objects
    (gm.present.calendar) carried as described above; ``attachments``: files, each one more
    part of the multipart/mixed (a game's record: gm.service.outgoing.recordfiles).  ``turn``:
    the turn of ``game_id`` the mail is about, named in its Message-ID (gm.mail.msgids).  A
    picture given as a str (its spec, not PNG bytes) is drawn by the sender: the message is its
    head and what finish() needs (``signer``: the DKIM selector, domain and key file that sign
    it then).  ``language``: the code of the language the mail is written in (Content-Language,
    RFC 3282).  Raises ValueError for a recipient longer than a line.
    """
    if len(to) > MAX_RECIPIENT:
        raise ValueError(f"recipient of {len(to)} characters")
    subject, sender_name = subject[:MAX_SUBJECT], sender_name[:MAX_NAME]
    game_id = game_id[:MAX_NAME] if game_id else game_id
    instance = instance[:MAX_NAME]
    message_id = new_message_id(message_id_domain or (sender.rsplit("@", 1)[-1] if "@" in sender else "localhost"),
                                game_id, turn)
    fields = [
        ("From", email.utils.formataddr((sender_name, sender), charset="utf-8")),
        ("Subject", subject),
        ("Date", email.utils.format_datetime(datetime.now(timezone.utc))),  # +0000, not -0000
        ("Message-ID", message_id),
        *_thread_fields(in_reply_to, references, root),
        # RFC 3834: we are a robot; well-behaved responders will not answer us.
        ("Auto-Submitted", auto), (OUR_HEADER, instance),
        *([("X-GM-Game", game_id)] if game_id else []),
        *headers,
        ("Content-Language", language if language.isalpha() and len(language) <= 8 else "en"),
        ("MIME-Version", "1.0"),
    ]
    head = _head(fields, to)
    page = None if html is None else marked_html(html, language)
    if page is not None and page.images and all(isinstance(png, str) for _, png in page.images):
        return message_id, _later(head, marked(body, language), page, calendars, attachments, reserve, signer)
    return message_id, _body(head, marked(body, language), page, calendars, attachments, reserve)


def _body(head: str, body: str, html: HtmlPart | None, calendars: tuple[bytes, ...],
          files: tuple[Attachment, ...], reserve: int) -> bytes:
    """The message of ``head`` and its parts (compose's, its pictures drawn)."""
    if calendars or files:
        return _mixed(head, body, html, calendars, files, reserve)
    if html is not None:
        raw = _alternative(head, body, html, MAX_HTML_MESSAGE_BYTES - reserve)
        if raw is not None:
            return raw
    head_bytes = (head + "\n" + TEXT_PLAIN).encode("utf-8")
    encoded = _cut_body(body, MAX_OUTGOING_BYTES - reserve - len(head_bytes) - 2)
    return head_bytes + b"\n\n" + encoded


def _later(head: str, body: str, html: HtmlPart, calendars: tuple[bytes, ...], files: tuple[Attachment, ...],
           reserve: int, signer: tuple[str, str, str] | None) -> bytes:
    """A message to finish before it is sent: its head, then as one base64 part what _body needs."""
    data = {"body": body, "html": html.html, "images": [list(image) for image in html.images],
            "calendars": [base64.b64encode(ics).decode("ascii") for ics in calendars], "reserve": reserve,
            "files": [[f.name, f.content_type, base64.b64encode(f.data).decode("ascii")] for f in files],
            "signer": list(signer) if signer else None}
    encoded = base64.b64encode(json.dumps(data).encode("utf-8"))
    return head.encode("utf-8") + _LATER_HEAD + b"\n".join(encoded[i:i + 76] for i in range(0, len(encoded), 76))


def is_later(raw: bytes) -> bool:
    """Is ``raw`` a message whose pictures are still to be drawn (compose with a picture's spec)?"""
    end = raw.find(b"\n\n")
    return raw.find(_LATER_HEAD, 0, end + 2 if end != -1 else len(raw)) != -1


def finish(raw: bytes, draw: Callable[[str], bytes],
           sign: Callable[[bytes, tuple[str, str, str]], bytes]) -> bytes:
    """The message ``raw`` (is_later) as compose would have made it with its pictures drawn (each
    spec given to ``draw``: PNG bytes), signed by ``sign`` if it names a signer; the head as
    written, the page showing the picture's size."""
    head, _, rest = raw.partition(_LATER_HEAD)
    data = json.loads(base64.b64decode(rest))
    images = tuple((cid, draw(spec)) for cid, spec in data["images"])
    page = data["html"]
    if images:
        width, height = (int.from_bytes(images[0][1][at:at + 4], "big") for at in (16, 20))  # the PNG's IHDR
        page = page.replace(f'width="{LATER_SIZE[0]}" height="{LATER_SIZE[1]}"',
                            f'width="{width}" height="{height}"', 1)
    calendars = tuple(base64.b64decode(ics) for ics in data["calendars"])
    files = tuple(Attachment(name, kind, base64.b64decode(data64)) for name, kind, data64 in data.get("files", ()))
    done = _body(head.decode("utf-8"), data["body"], HtmlPart(page, images), calendars, files, data["reserve"])
    return done if data["signer"] is None else sign(done, tuple(data["signer"]))


def _thread_fields(in_reply_to: str | None, references: list[str] | tuple[str, ...],
                   root: str | None = None) -> list[tuple[str, str]]:
    """The In-Reply-To and References fields of a reply; References alone for a mail that answers
    nothing but goes in the thread ``root`` begins; none for a mail that does neither."""
    if not in_reply_to and not root:
        return []
    parent, refs = thread_ids(in_reply_to, references, root)
    return ([("In-Reply-To", parent)] if parent else []) + ([("References", " ".join(refs))] if refs else [])


def _head(fields: list[tuple[str, str]], to: str) -> str:
    """The header block: the first field (From), then To, then the others in order.  An address
    with a UTF-8 local part is written as it is (RFC 6532: such a message goes only with
    SMTPUTF8, gm.runtime.smtp); an encoded word is never an address."""
    to_line = f"To: {' '.join(to.split())}" if not to.isascii() else _header("To", to)
    return "\n".join([_header(*fields[0]), to_line] + [_header(name, value) for name, value in fields[1:]])


def marked(body: str, language: str = "en") -> str:
    """The text of a mail gm sends: the marker line on top, in the mail's language (a reply that
    quotes it without '>' is read only above it: gm.mail.quotes), ending in a line break."""
    return f"{MARKERS.get(language, MARKER)}\n\n{body}" + ("" if body.endswith("\n") else "\n")


MARKER_HTML = '<p style="margin:0;padding:4px 8px;color:#8a8270;font-size:12px;">{marker}</p>\n'


def marked_html(html: HtmlPart, language: str = "en") -> HtmlPart:
    """The HTML page with the marker line first inside its <body> (or first of all)."""
    page = html.html
    body = page.lower().find("<body")
    end = page.find(">", body) + 1 if body != -1 else 0
    line = MARKER_HTML.format(marker=MARKERS.get(language, MARKER))  # no <, > or & in any of them
    return HtmlPart(page[:end] + ("\n" if end else "") + line + page[end:], html.images)


def _alternative(head: str, body: str, html: HtmlPart, limit: int) -> bytes | None:
    """The multipart/alternative message (text, then HTML with its pictures), or None if it would
    be larger than ``limit`` bytes (the caller sends the text alone)."""
    text = binascii.b2a_qp(body.encode("utf-8"), istext=True)
    page = binascii.b2a_qp(html.html.encode("utf-8"), istext=True)
    if len(text) + len(page) + sum(len(png) * 4 // 3 for _, png in html.images) > limit:
        return None
    # Each part keeps its last line break: the one before a boundary belongs to the boundary.
    # Random boundaries: no line of a quoted-printable or base64 part can be "--=_gm_<24 hex>".
    outer, inner = f"=_gm_{secrets.token_hex(12)}", f"=_gm_{secrets.token_hex(12)}"
    parts = [head, f'Content-Type: multipart/alternative; boundary="{outer}"', "",
             f"--{outer}", TEXT_PLAIN, "", text.decode("ascii"),
             f"--{outer}", *_related(page, html.images, inner), f"--{outer}--", ""]
    raw = "\n".join(parts).encode("utf-8")
    return raw if len(raw) <= limit else None


def _related(page: bytes, images: tuple[tuple[str, bytes], ...], inner: str) -> list[str]:
    """The lines of the multipart/related part: the quoted-printable ``page``, its pictures."""
    parts = [f'Content-Type: multipart/related; boundary="{inner}"; type="text/html"', "",
             f"--{inner}", 'Content-Type: text/html; charset="utf-8"',
             "Content-Transfer-Encoding: quoted-printable", "", page.decode("ascii")]
    for content_id, png in images:
        parts += [f"--{inner}", "Content-Type: image/png", "Content-Transfer-Encoding: base64",
                  f"Content-ID: <{content_id}>",
                  f'Content-Disposition: inline; filename="{content_id.split("@")[0].split(".")[0]}.png"',
                  "", _base64_lines(png)]
    return parts + [f"--{inner}--"]


def calendar_method(ics: bytes) -> str:
    """The METHOD an iCalendar object declares (PUBLISH where it names none)."""
    for line in ics.splitlines():
        if line.upper().startswith(b"METHOD:"):
            return line[7:].strip().decode("ascii", "replace").upper() or "PUBLISH"
    return "PUBLISH"


def _calendar_part(ics: bytes, attached: bool) -> list[str]:
    """The lines of one calendar part: inline (text/calendar with its method, one alternative of
    the body) or as an attachment (application/ics, a file to open)."""
    method = calendar_method(ics)
    name = "cancelled.ics" if method == "CANCEL" else "deadline.ics"
    head = ([f'Content-Type: application/ics; name="{name}"', f'Content-Disposition: attachment; filename="{name}"']
            if attached else [f'Content-Type: text/calendar; charset="utf-8"; method={method}'])
    encoded = base64.b64encode(ics).decode("ascii")
    return head + ["Content-Transfer-Encoding: base64", "",
                   "\n".join(encoded[i:i + 76] for i in range(0, len(encoded), 76))]


def _file_part(file: Attachment) -> list[str]:
    """The lines of one attached file (base64, a file the reader saves or opens)."""
    encoded = base64.b64encode(file.data).decode("ascii")
    return [f'Content-Type: {file.content_type}; name="{file.name}"',
            f'Content-Disposition: attachment; filename="{file.name}"', "Content-Transfer-Encoding: base64", "",
            "\n".join(encoded[i:i + 76] for i in range(0, len(encoded), 76))]


def _fitting(files: tuple[Attachment, ...], room: int) -> tuple[list[Attachment], list[Attachment]]:
    """(the files attached, the files left out): each in order while it fits in ``room`` bytes."""
    kept, left = [], []
    for file in files:
        size = len(file.data) * 4 // 3 * 77 // 76 + 300  # base64 lines and the part's header
        if size <= room:
            kept.append(file)
            room -= size
        else:
            left.append(file)
    return kept, left


def _mixed(head: str, body: str, html: HtmlPart | None, calendars: tuple[bytes, ...],
           files: tuple[Attachment, ...], reserve: int) -> bytes:
    """multipart/mixed [multipart/alternative [text, HTML if it fits, the first calendar] (the
    text alone with neither), each calendar and each file as an attachment]: within the same caps
    as a message without them.  A file that would leave less than MIN_TEXT_BYTES for the text is
    left out, and the text says so."""
    mixed, alternative, inner = (f"=_gm_{secrets.token_hex(12)}" for _ in range(3))
    calendar_bytes = sum(len(ics) * 2 for ics in calendars)
    files_kept, left = _fitting(files, MAX_OUTGOING_BYTES - reserve - len(head) - calendar_bytes - MIN_TEXT_BYTES)
    body += "".join(f"\n[gm: {file.name} ({len(file.data)} bytes) is not attached: a mail from gm is at most "
                    f"{MAX_OUTGOING_BYTES} bytes.]\n" for file in left)
    together = bool(calendars) or html is not None  # the text has alternatives
    top = [head, f'Content-Type: multipart/mixed; boundary="{mixed}"', "", f"--{mixed}"]
    top += ([f'Content-Type: multipart/alternative; boundary="{alternative}"', "", f"--{alternative}"]
            if together else []) + [TEXT_PLAIN, ""]
    tail = [f"--{alternative}", *_calendar_part(calendars[0], attached=False)] if calendars else []
    tail += [f"--{alternative}--"] if together else []
    for ics in calendars:
        tail += [f"--{mixed}", *_calendar_part(ics, attached=True)]
    for file in files_kept:
        tail += [f"--{mixed}", *_file_part(file)]
    tail += [f"--{mixed}--", ""]
    fixed = len("\n".join(top + tail).encode("utf-8")) + 2
    text = binascii.b2a_qp(body.encode("utf-8"), istext=True)
    middle: list[str] = []
    if html is not None:
        page = binascii.b2a_qp(html.html.encode("utf-8"), istext=True)
        middle = [f"--{alternative}", *_related(page, html.images, inner)]
        size = fixed + len(text) + len("\n".join(middle).encode("utf-8")) + 2
        if size > MAX_HTML_MESSAGE_BYTES - reserve:
            middle = []
    if not middle:
        text = _cut_body(body, MAX_OUTGOING_BYTES - reserve - fixed)
    return "\n".join(top + [text.decode("ascii"), *middle] + tail).encode("utf-8")


@functools.lru_cache(maxsize=8)
def _base64_lines(data: bytes) -> str:
    """Base64 in lines of 76 characters (RFC 2045 6.8); kept for the next reader of the same turn's
    picture (one picture goes to every player who sees the same)."""
    encoded = base64.b64encode(data).decode("ascii")
    return "\n".join(encoded[i:i + 76] for i in range(0, len(encoded), 76))


def words_only(raw: bytes, keep_text: bool = True) -> bytes:
    """A message gm composed with its HTML page, pictures and attached files (not calendars)
    emptied (and its text too, unless ``keep_text``): the copy of a sent report the store keeps a
    day after sending.  The page, its pictures and a game's record are drawn again from the stored
    game at will, and the caller leaves out the text only where the archive keeps it word for
    word.  Headers stay as written and the emptied parts keep their place, each saying why; a
    message with none of these comes back unchanged."""
    message = email.message_from_bytes(raw)  # compat32: parts and headers as they were written
    emptied = []
    for part in message.walk():
        if part.get_content_maintype() == "image" or part.get_content_type() == "text/html" or (
                part.get_content_disposition() == "attachment" and part.get_content_type() != "application/ics"):
            emptied.append((part, TRIMMED_NOTE))
        elif part.get_content_type() == "text/plain" and not keep_text:
            emptied.append((part, ARCHIVED_NOTE))
    if not any(note == TRIMMED_NOTE for _, note in emptied):
        return raw
    for part, note in emptied:
        part.set_payload("")
        del part["Content-Transfer-Encoding"]
        part["Content-Transfer-Encoding"] = "7bit"
        part["X-GM-Trimmed"] = note
    from email.generator import BytesGenerator  # the email package's writer: for a trimmed copy only

    out = io.BytesIO()
    BytesGenerator(out, mangle_from_=False, maxheaderlen=0).flatten(message)
    return out.getvalue()
