"""A one-line counter on stderr while long work runs (gm store copy, gm archive build, gm backup, gm verify).

Shown only when stderr is a terminal: piped, from cron or in a test it
prints nothing, so the output stays what a script reads.
"""

from __future__ import annotations

import sys
from typing import TextIO


class Counter:
    """Call it with (done, total, what); close() clears the line."""

    def __init__(self, stream: TextIO | None = None):
        self.stream = stream if stream is not None else sys.stderr
        self.shown = self.stream.isatty()
        self.width = 0

    def __call__(self, done: int, total: int, what: str) -> None:
        if not self.shown:
            return
        line = f"{what} ({done}/{total})"
        self.stream.write("\r" + line.ljust(self.width))
        self.stream.flush()
        self.width = max(self.width, len(line))

    def close(self) -> None:
        if self.shown and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()

    def __enter__(self) -> "Counter":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
