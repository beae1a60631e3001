"""The text of an edit the GM makes in $EDITOR, and of its second try (as visudo and git commit do).

An edit that cannot be saved is shown again, as the GM typed it, under ``#`` lines saying why;
those lines are dropped when the file comes back.  Pure functions: the editor is run elsewhere.
"""

from __future__ import annotations

def with_notes(body: str, game_id: str, error: str) -> str:
    """The file shown again: ``#`` lines with ``error``, then ``body``."""
    notes = [f"# gm edit {game_id}: refused, nothing saved:"]
    notes += [f"#   {line}" for line in error.splitlines() or [""]]
    notes += ["# Fix it and save to try again; save an empty file, or this one unchanged, to give up.",
              "# The lines that start with # are left out."]
    return "\n".join(notes) + "\n" + body


def without_notes(text: str) -> str:
    """The edit without the ``#`` lines at its top (JSON never starts with #)."""
    lines = text.splitlines(keepends=True)
    count = 0
    while count < len(lines) and lines[count].lstrip().startswith("#"):
        count += 1
    return "".join(lines[count:])
