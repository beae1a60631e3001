"""Lines joined into one text that is still translated line by line, for the answers that
take one text (answers.done, refuse).  An exception's own sentence is kept by
games.text.reason.
"""

from __future__ import annotations

from typing import Iterable

from games.text import mark, Text

LINE_BREAK = mark("{above}\n{below}")  # two lines of one answer, each translated on its own


def in_lines(lines: Iterable[str]) -> str:
    """``"\\n".join(lines)`` in English, each line's Text kept for its translation."""
    joined: str | None = None
    for line in lines:
        joined = line if joined is None else Text(LINE_BREAK, above=joined, below=line)
    return joined if joined is not None else ""
