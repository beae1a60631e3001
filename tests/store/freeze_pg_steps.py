"""Write tests/store/pg_steps_as_shipped.sql: the PostgreSQL DDL every shipped schema step ran,
as gm.store.dialect's translator made it (run once, on main at c0caca8,
before the steps' PostgreSQL DDL was made by SQLAlchemy).

The file is the record of what PostgreSQL stores in the field were built by, step by step, once
the translator is gone; tests/store/test_pg_steps.py builds a schema from it and holds the steps'
SQLAlchemy-made DDL to it, catalog against catalog, after every step.  It is not written again:
a step that shipped never changes.  A Python step's DDL (step 24 adds players.format and
players.timezone where a store lacks them) is written under ``-- where``: the statement the step
ran where its condition held.
"""

from __future__ import annotations

import sys
from pathlib import Path

from gm.store import dialect, schema

OUT = Path(__file__).with_name("pg_steps_as_shipped.sql")
CONDITIONAL = {  # the DDL of Python steps, as they wrote it and the translator ran it
    24: [("players lacks format", "ALTER TABLE players ADD COLUMN format TEXT"),
         ("players lacks timezone", "ALTER TABLE players ADD COLUMN timezone TEXT")],
}


def one_line(sql: str) -> str:
    """A statement on one line, without its comments (no literal in a step holds two spaces)."""
    return " ".join("".join(text for kind, text in dialect.tokens(sql) if kind != "comment").split())


def frozen() -> str:
    translator = dialect.Translator(lambda table: [])  # INSERT OR REPLACE never appears in a step
    lines = ["-- The PostgreSQL DDL of every schema step as shipped (gm.store.dialect's translation),",
             "-- written by tests/store/freeze_pg_steps.py; one statement a line; never edited.", ""]
    for step in schema.STEPS:
        lines.append(f"-- step {step.number}: {step.name}")
        for statement in schema.statements(step.sql):
            lines.append(one_line(translator.translate(statement)) + ";")
        for condition, statement in CONDITIONAL.get(step.number, []):
            lines.append(f"-- where {condition}: " + one_line(translator.translate(statement)) + ";")
        if step.apply is not None:
            lines.append(f"-- then {step.apply.__name__} (Python)")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    OUT.write_text(frozen())
    sys.stdout.write(f"wrote {OUT}\n")
