"""HTML mail as text, in one linear pass.

Not html2text: it takes time more than linear in its input (16 KB of
newlines take 5 s, nested lists and unclosed tags a second for 32 KB), and
any mail may be HTML-only.  Emphasis, links, images, style and
script are dropped; blocks become lines; blockquotes become "> " lines, so
the quote stripper drops them like quoted plain text.
"""

from __future__ import annotations

from html import unescape as unescape_html

from gm.mail import rawmail

MAX_HTML_CHARS = 128 * 1024  # an HTML body is converted to text only up to here (see trim_html)

_HTML_BLOCKS = frozenset(
    "p div br tr li ul ol dl dt dd table tbody thead tfoot caption h1 h2 h3 h4 h5 h6 hr pre blockquote "
    "section article header footer main nav aside center form fieldset address figure figcaption details "
    "summary body html".split())
_HTML_CELLS = frozenset({"td", "th"})
_HTML_HIDDEN = frozenset({"style", "script", "head", "title", "template", "object", "svg"})


def _tag_name(tag: str) -> tuple[str, bool]:
    """(lower-case name, closing) of the inside of a tag, e.g. '/DIV' or 'br/' or 'p class=x'."""
    closing = tag.startswith("/")
    start = 1 if closing else 0
    end = start
    while end < len(tag) and (tag[end].isalnum() or tag[end] in "-:"):
        end += 1
    return rawmail.ascii_lower(tag[start:end]), closing


class _TextWriter:
    """Lines of text built from HTML text and block boundaries; quoted lines start with '> '."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.line: list[str] = []
        self.quote = 0
        self.pre = 0

    def text(self, chunk: str) -> None:
        if not chunk:
            return
        chunk = unescape_html(chunk) if "&" in chunk else chunk
        if self.pre:
            first, *rest = chunk.replace("\r\n", "\n").replace("\r", "\n").split("\n")
            self.line.append(first)
            for piece in rest:
                self.flush(force=True)
                self.line.append(piece)
        else:
            self.line.append(chunk)

    def flush(self, force: bool = False) -> None:
        raw = "".join(self.line).replace("\xa0", " ")
        text = raw.rstrip() if self.pre else " ".join(raw.split())
        self.line = []
        if not text and not force:
            return
        self.lines.append(("> " + text if self.quote else text) if text else "")


def html_to_text(source: str) -> str:
    """The text of an HTML body: block elements on lines of their own, blockquotes as '> ' lines,
    style/script/head dropped, entities decoded, emphasis, links and images reduced to their text.
    Linear in the input: every search moves forward."""
    out = _TextWriter()
    low = rawmail.ascii_lower(source)
    pos, end = 0, len(source)
    while pos < end:
        lt = source.find("<", pos)
        if lt == -1:
            out.text(source[pos:])
            break
        out.text(source[pos:lt])
        if source.startswith("<!--", lt):
            close = source.find("-->", lt + 4)
            pos = end if close == -1 else close + 3
            continue
        after = source[lt + 1:lt + 2]
        if not (after.isalpha() or after in ("/", "!", "?")):
            out.text("<")
            pos = lt + 1
            continue
        gt = source.find(">", lt + 1)
        if gt == -1:  # an unclosed tag: nothing readable follows
            break
        name, closing = _tag_name(source[lt + 1:gt])
        pos = gt + 1
        if name in _HTML_HIDDEN and not closing:
            close = low.find("</" + name, pos)
            gt = low.find(">", close) if close != -1 else -1
            pos = end if gt == -1 else gt + 1
        elif name in _HTML_CELLS:
            out.text(" ")
        elif name in _HTML_BLOCKS:
            out.flush(force=name == "br")
            if name == "blockquote":
                out.quote = max(out.quote + (-1 if closing else 1), 0)
            elif name == "pre":
                out.pre = max(out.pre + (-1 if closing else 1), 0)
    out.flush()
    return "\n".join(out.lines) + "\n"


_HTML_SKIPPED = {"<style": "</style", "<script": "</script", "<!--": "-->"}


def _drop_blocks(html: str, limit: int) -> str:
    """html without <style>, <script> and comment blocks, read only as far as limit characters of it are kept.

    Each opener's next position is looked up again only once it has been
    passed, so this is linear however the blocks are mixed or unclosed.
    """
    low = rawmail.ascii_lower(html)
    upcoming = {opener: low.find(opener) for opener in _HTML_SKIPPED}
    kept: list[str] = []
    size = pos = 0
    while size < limit:
        found = [(at, opener) for opener, at in upcoming.items() if at != -1]
        if not found:
            break
        at, opener = min(found)
        kept.append(html[pos:at])
        size += at - pos
        close = low.find(_HTML_SKIPPED[opener], at + len(opener))
        end = low.find(">", close) if close != -1 else -1
        pos = end + 1 if end != -1 else len(html)
        for other, other_at in upcoming.items():
            if other_at != -1 and other_at < pos:
                upcoming[other] = low.find(other, pos)
    kept.append(html[pos:pos + max(limit - size, 0)])
    return "".join(kept)


def trim_html(html: str, limit: int = MAX_HTML_CHARS) -> tuple[str, bool]:
    """The part of an HTML body worth converting; (html, cut).

    Only the first limit characters are converted: from <body> on, without
    style, script and comment blocks.  The new text of a mail comes first;
    the rest is quotes.
    """
    if len(html) <= limit:
        return html, False
    body = rawmail.ascii_lower(html).find("<body")
    if body > 0:
        html = html[body:]
    if len(html) > limit:
        html = _drop_blocks(html, limit + 1)
    if len(html) <= limit:
        return html, False
    return html[:limit], True


