"""Quoted replies and signatures, found with string methods (linear in the mail, no regex).

A reply is read line by line: ">" lines are old and dropped, what the sender wrote between
and below them is read (bottom-posting).  Reading stops for good at a signature ("-- "),
gm's own MARKER line (on top of every mail gm sends, for clients that quote without ">"),
an Outlook or webmail separator, a quoted header block (From: then Sent:/Date: and their
translations), or an attribution ("On ... wrote:" in several languages) NOT followed by
">" lines; followed by them, the attribution is dropped and reading goes on.  What lies
below a stop is handed back (Reply.unread) so the sender can be told it was not read.
"""

from __future__ import annotations

from gm.core.value import field, valueclass

# The line gm writes at the top of each mail it sends (text and HTML); a reply that quotes the
# mail without ">" carries it, and nothing from it on is read.  No order or command looks so.
MARKER = "-- gm: only what you write above this line is read --"
# The same line in each language gm writes (gm.core.i18n.LANGUAGES); any of them stops reading.
MARKERS = {"en": MARKER, "de": "-- gm: gelesen wird nur, was du über dieser Zeile schreibst --",
           "fr": "-- gm : seul ce que vous écrivez au-dessus de cette ligne est lu --"}
_MARKER_KEYS = frozenset(" ".join(line.split()).lower() for line in MARKERS.values())

MAX_LOOKAHEAD = 4  # lines looked at after an attribution or a From line (keeps the reading linear)


def _word_char(c: str) -> bool:
    return c.isalnum() or c == "_"


def _starts_with_word(low: str, word: str) -> bool:
    """low begins with word, and word ends at a word boundary (the regex ^word\\b)."""
    return low.startswith(word) and (len(low) == len(word) or not _word_char(low[len(word)]))


def _has_word(text: str, word: str, start: int = 0) -> int:
    """The end of the first whole-word occurrence of word in text from start, or -1."""
    at = text.find(word, start)
    while at != -1:
        end = at + len(word)
        if (at == 0 or not _word_char(text[at - 1])) and (end == len(text) or not _word_char(text[end])):
            return end
        at = text.find(word, at + 1)
    return -1


def _ends_with_word(low: str, word: str, min_before: int = 2) -> bool:
    """low ends with word, which starts at a word boundary, at least min_before characters in."""
    if not low.endswith(word):
        return False
    at = len(low) - len(word)
    return at >= min_before and not _word_char(low[at - 1])


# Separator lines: dashes, one of these labels, dashes (Outlook, Thunderbird, webmail).
_RULE_LABELS = frozenset({
    "original message", "forwarded message", "ursprüngliche nachricht", "original-nachricht",
    "weitergeleitete nachricht", "message d'origine", "message transféré", "mensaje original",
    "mensaje reenviado", "oorspronkelijk bericht", "doorgestuurd bericht", "messaggio originale",
    "messaggio inoltrato", "mensagem original", "mensagem encaminhada",
})


def _is_rule(text: str) -> bool:
    """-----Original Message----- and the like: dashes, a label, dashes."""
    if not (text.startswith("-") and text.endswith("-")):
        return False
    return text.strip("-").strip().lower().replace("\u2019", "'") in _RULE_LABELS


# The words that end an attribution line (before its ":"), and the first word each goes with.
_ATTRIBUTION_VERBS = ("wrote", "schrieb", "a écrit", "escribió", "schreef", "geschreven", "ha scritto",
                      "escreveu")
_ATTRIBUTION_STARTS = {"on": ("wrote",), "am": ("schrieb",), "le": ("a écrit",), "el": ("escribió",),
                       "op": ("schreef", "geschreven"), "il": ("ha scritto",), "em": ("escreveu",)}


def _attribution(low: str) -> bool:
    """"On <date>, Bob <b@x> wrote:" and its translations: a first word, a verb, a colon."""
    if not low.endswith(":"):
        return False
    if _starts_with_word(low, "on") and _ends_with_word(low, "wrote:"):  # "On ... wrote:"
        return True
    if _starts_with_word(low, "am") and _has_word(low, "schrieb", 2) != -1:  # "Am ... schrieb ...:"
        return True
    if _starts_with_word(low, "op") and (_has_word(low, "schreef", 2) != -1
                                         or _has_word(low, "geschreven", 2) != -1):  # "Op ... schreef ...:"
        return True
    tail = low[:-1].rstrip()
    for first, verbs in _ATTRIBUTION_STARTS.items():
        if first in ("on", "am", "op") or not _starts_with_word(low, first):
            continue
        if any(_ends_with_word(tail, verb) for verb in verbs):  # "Le ... a écrit :", "El ... escribió:"
            return True
    return False


def _loose_attribution(low: str) -> bool:
    """"Bob wrote:": a verb and a colon only (an attribution when ">" lines follow it)."""
    return low.endswith(":") and any(_ends_with_word(low[:-1].rstrip(), verb, 1) for verb in _ATTRIBUTION_VERBS)


def _wrapped_attribution(first: str, second: str) -> bool:
    """An attribution a client wrapped over two lines ("On Mon, ... Bob <" / "b@x> wrote:")."""
    low, next_low = first.strip().lower(), second.strip().lower()
    if not low or not next_low or _attribution(low) or not any(c.isdigit() for c in low):
        return False
    if not any(_starts_with_word(low, start) for start in _ATTRIBUTION_STARTS):
        return False
    return _attribution(low + " " + next_low)


# A quoted header block: a From line, then the date it was sent (Outlook, webmail).  Not "From: bob"
# then "To: ALL": gm's own press mail starts so, and a player may paste it into their press.
_FROM_LABELS = frozenset({"from", "von", "de", "van", "da"})
_SENT_LABELS = frozenset({
    "sent", "date", "gesendet", "datum", "envoyé", "enviado", "enviada", "enviado el", "enviada em",
    "fecha", "verzonden", "inviato", "data",
})
MAX_LABEL = 12  # characters before a header line's colon


def _label(line: str) -> str | None:
    """The label of a header line ("From: Bob", "*De :* Bob", "Gesendet: Montag"), lower case."""
    text = line.strip().lstrip("*").lstrip()
    colon = text.find(":", 0, MAX_LABEL + 2)
    if colon < 1:
        return None
    return text[:colon].strip(" *\t").lower()


def _from_with_address(text: str) -> bool:
    """From: Bob <bob@example.org> on its own: the header of a quoted mail."""
    low = text.lower()
    if low.startswith("from:") and len(text) > 5 and text[5].isspace():
        words = text[6:].split()
        return bool(words) and "@" in words[-1][1:-1]
    return False


def _separator(line: str) -> bool:
    """A line that by itself opens a quoted mail: a rule with a label, a line of "_", or a From:
    line with an address."""
    text = line.strip()
    if _is_rule(text):
        return True
    rstripped = line.rstrip()
    if len(rstripped) >= 10 and not rstripped.strip("_"):  # Outlook's rule above the quoted header block
        return True
    return _from_with_address(text)


def is_quote_start(line: str) -> bool:
    """A line that starts the quoted part of a reply by itself (without the lines after it)."""
    text = line.strip()
    return bool(text) and (_attribution(text.lower()) or _separator(line))


def _is_marker(text: str) -> bool:
    return " ".join(text.split()).lower() in _MARKER_KEYS


def _quoted(line: str) -> bool:
    return line.lstrip().startswith(">")


def _next_text(lines: list[str], start: int) -> int:
    """The index of the first line from start (within MAX_LOOKAHEAD) that is not blank, or -1."""
    for i in range(start, min(start + MAX_LOOKAHEAD, len(lines))):
        if lines[i].strip():
            return i
    return -1


def _header_block(lines: list[str], i: int) -> bool:
    """Line i is the From line of a quoted header block: the line of its date follows it."""
    if _label(lines[i]) not in _FROM_LABELS:
        return False
    following = _next_text(lines, i + 1)
    return following != -1 and _label(lines[following]) in _SENT_LABELS


_SIGNATURES = {"--", "__"}
_HTML_SIGNATURES = {"\\--", "\\-\\-", "\\_\\_", "\\__"}  # html2text escapes a leading "-- "


@valueclass
class Reply:
    text: str  # what the sender wrote: read
    unread: list[str] = field(default_factory=list)  # the non-blank lines below where reading stopped
    # how many of ``unread`` come before gm's own marker line below the stop: what follows that line
    # is a mail gm sent, never the sender's words
    above_marker: int = 0


def _ends_reading(lines: list[str], i: int, signatures: set[str], html: bool) -> bool:
    """Line i is a signature, gm's marker, a separator or a quoted header block: nothing from it
    on is the sender's."""
    line = lines[i]
    text = line.strip()
    if line in signatures or (html and text in signatures) or _is_marker(text):
        return True
    return _separator(line) or _header_block(lines, i)


def _attribution_size(lines: list[str], i: int, low: str) -> int:
    """How many lines the attribution at line i takes (0: none; 2: wrapped by the client)."""
    if _attribution(low) or _loose_attribution(low):
        return 1
    if i + 1 < len(lines) and _wrapped_attribution(lines[i], lines[i + 1]):
        return 2
    return 0


def read_reply(text: str, html: bool = False) -> Reply:
    """The new part of a reply, and the lines below the point where reading stopped."""
    signatures = _SIGNATURES | _HTML_SIGNATURES if html else _SIGNATURES
    lines = [line.rstrip() for line in text.split("\n")]
    kept: list[str] = []
    i, stop = 0, len(lines)
    while i < len(lines):
        if _quoted(lines[i]):
            i += 1
            continue
        if _ends_reading(lines, i, signatures, html):
            stop = i
            break
        low = lines[i].strip().lower()
        size = _attribution_size(lines, i, low)
        if size:
            following = _next_text(lines, i + size)
            if following != -1 and _quoted(lines[following]):  # ">" lines follow: only they are old
                i += size
                continue
            if size == 2 or _attribution(low):  # old text follows unmarked: nothing below is read
                stop = i
                break
        kept.append(lines[i])  # "Bob wrote:" with no ">" below is the sender's own line
        i += 1
    unread: list[str] = []
    above_marker = 0 if stop < len(lines) and _is_marker(lines[stop].strip()) else -1
    for line in lines[stop + 1:]:
        text = line.strip()
        if above_marker < 0 and _is_marker(text):
            above_marker = len(unread)
        if text and not _quoted(line):
            unread.append(text)
    return Reply("\n".join(kept).strip("\n"), unread, len(unread) if above_marker < 0 else above_marker)


def strip_reply(text: str, html: bool = False) -> str:
    """The new part of a reply (read_reply's text)."""
    return read_reply(text, html).text
