"""Log lines as clean as what the command line prints.

A log line quotes mail: a robot's X-Auto-Response-Suppress, a bounce's
Diagnostic-Code, a sender's address.  Written raw to a terminal (``gm run -v``)
or to gm.log (read later with ``less`` or ``tail``), an ESC sequence there sets
the GM's terminal title, writes its clipboard or hides lines.  Every handler gm
sets up formats with CleanFormatter: the whole formatted line, its arguments
and its traceback included, with each control and bidi character shown as an
escape (gm.core.text.for_terminal), as the CLI prints stored text.
"""

from __future__ import annotations

import logging

from gm.core.text import for_terminal


class CleanFormatter(logging.Formatter):
    """logging.Formatter, with every control and bidi character of the line escaped."""

    def format(self, record: logging.LogRecord) -> str:
        return for_terminal(super().format(record))


def clean_handler(handler: logging.Handler, fmt: str) -> logging.Handler:
    """``handler`` formatting its lines as ``fmt`` says, escaped (CleanFormatter)."""
    handler.setFormatter(CleanFormatter(fmt))
    return handler
