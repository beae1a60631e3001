"""Text that came from outside, made harmless where it goes.

Mail may carry control characters: an ESC sequence that sets the GM's terminal title or hides
text, a bidi override that reorders a line, a NUL that breaks the Atom feed's XML.  Three
functions, each one translate() (linear time):

* clean: what the door (gm.mail.inbound) keeps of mail text: C0 and C1 controls (but tab and
  newline), DEL and the bidi controls removed;
* for_terminal: what the GM's command line prints of stored text: the same characters shown as
  escapes (``\\x1b``), never sent raw;
* for_xml: what XML 1.0 cannot hold removed (C0 but tab, newline and CR, the surrogates,
  U+FFFE and U+FFFF), for the Atom feed.
"""

from __future__ import annotations

# U+061C arabic letter mark, U+200E/U+200F left-to-right/right-to-left marks,
# U+202A-U+202E embeddings and overrides, U+2066-U+2069 isolates.
BIDI_CONTROLS = frozenset([0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)])
CONTROLS = frozenset([*(c for c in range(0x20) if c not in (0x09, 0x0A)), 0x7F, *range(0x80, 0xA0)])
UNSAFE = CONTROLS | BIDI_CONTROLS

_REMOVED = dict.fromkeys(UNSAFE)
_ESCAPED = {c: (f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}") for c in UNSAFE}
_NOT_XML = dict.fromkeys([*(c for c in range(0x20) if c not in (0x09, 0x0A, 0x0D)),
                          *range(0xD800, 0xE000), 0xFFFE, 0xFFFF])


def clean(text: str) -> str:
    """``text`` without control characters (but tab and newline) and bidi controls."""
    return text.translate(_REMOVED)


def for_terminal(text: str) -> str:
    """``text`` with every control and bidi character shown as an escape, so that printing it
    can change nothing on the terminal but the characters shown."""
    return text.translate(_ESCAPED)


def for_xml(text: str) -> str:
    """``text`` without the characters XML 1.0 does not allow (a feed stays well-formed)."""
    return text.translate(_NOT_XML)
