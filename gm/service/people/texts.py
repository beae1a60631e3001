"""Sentences kept whole on their way to a reply: an exception's message as it was made, and
lines joined into one text that is still translated line by line.

A refusal is often raised in one place and written in another; ``str(exc)`` would freeze it
in English, ``games.reason(exc)`` keeps the Text (games.text) so the reply gives it in the reader's
language.  ``in_lines`` joins lines for the answers that take one text (answers.done, refuse).
"""

from __future__ import annotations


from typing import Iterable

from games.text import Text, mark

LINE_BREAK = mark("{above}\n{below}")  # two lines of one answer, each translated on its own


def in_lines(lines: Iterable[str]) -> str:
    """``"\\n".join(lines)`` in English, each line's Text kept for its translation."""
    joined: str | None = None
    for line in lines:
        joined = line if joined is None else Text(LINE_BREAK, above=joined, below=line)
    return joined if joined is not None else ""
