"""Quoted replies and signatures, found with string methods (linear in the line, no regex).

Everything from the first line that starts a quote ("On ... wrote:", a
forwarded-message rule, a quoted header block...) or a signature ("-- ") is
old text; lines starting with ">" are dropped.  So an old order in a quote is
never applied.
"""

from __future__ import annotations

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


def _is_rule(text: str, label: str) -> bool:
    """-----Original Message----- and the like: dashes, the label, dashes."""
    if not (text.startswith("-") and text.endswith("-")):
        return False
    return text.strip("-").strip().lower() == label


_QUOTE_FIRST = frozenset("oOaAlLfF-_")  # the first characters a quote start can have


def is_quote_start(line: str) -> bool:
    """The line that starts the quoted part of a reply; everything from it on is old."""
    text = line.strip()
    if not text or text[0] not in _QUOTE_FIRST:
        return False
    low = text.lower()
    if _starts_with_word(low, "on") and low.endswith("wrote:"):
        before = len(low) - len("wrote:")
        if before >= 2 and (not _word_char(low[before - 1])):  # "On ... wrote:"
            return True
    if _starts_with_word(low, "am") and low.endswith(":"):
        if _has_word(low, "schrieb", 2) != -1:  # "Am ... schrieb ...:"
            return True
    if _starts_with_word(low, "le"):
        tail = low[:-1].rstrip() if low.endswith(":") else None
        if tail is not None and tail.endswith("a écrit"):
            at = len(tail) - len("a écrit")
            if at >= 2 and not _word_char(tail[at - 1]):  # "Le ... a écrit :"
                return True
    if _is_rule(text, "original message") or _is_rule(text, "forwarded message"):
        return True
    rstripped = line.rstrip()
    if len(rstripped) >= 10 and not rstripped.strip("_"):  # Outlook's rule above the quoted header block
        return True
    if low.startswith("from:") and len(text) > 5 and text[5].isspace():  # a quoted header block
        words = text[6:].split()
        if words and "@" in words[-1][1:-1]:
            return True
    return False


_SIGNATURES = {"--", "__"}
_HTML_SIGNATURES = {"\\--", "\\-\\-", "\\_\\_", "\\__"}  # html2text escapes a leading "-- "


def strip_reply(text: str, html: bool = False) -> str:
    """The new part of a reply: stop at a quote header or signature, drop '>' lines."""
    signatures = _SIGNATURES | _HTML_SIGNATURES if html else _SIGNATURES
    kept: list[str] = []
    for line in text.split("\n"):
        stripped = line.rstrip()
        if stripped in signatures or (html and stripped.strip() in signatures) or is_quote_start(stripped):
            break
        if stripped.lstrip().startswith(">"):
            continue
        kept.append(stripped)
    return "\n".join(kept).strip("\n")


