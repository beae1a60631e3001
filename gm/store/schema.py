"""The schema this gm knows: the ordered steps of gm.store.steps, and a step's SQL split for sqlite3.

gm.store.migrations and the PostgreSQL store read ``STEPS`` here when they run (tests rewind or
extend it).  Databases made before user_version was used (user_version 0, the old ``meta``
table) already hold step 1's tables: gm.store.migrations recognises them by ``games``.
"""

from __future__ import annotations

import sqlite3

from gm.store.changes import Change, NewColumn, NewIndex, NewTable, Portable, Step
from gm.store.steps import STEPS
from gm.store.steps.s11_press_audience import press_audience_of

__all__ = ["STEPS", "Change", "NewColumn", "NewIndex", "NewTable", "Portable", "Step", "press_audience_of",
           "statements"]


def statements(sql: str) -> list[str]:
    """Split a script into statements (sqlite3.complete_statement knows comments and quotes)."""
    out, buf = [], ""
    for line in sql.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    if buf.strip():
        raise ValueError(f"incomplete SQL statement: {buf.strip()[:80]!r}")
    return out
