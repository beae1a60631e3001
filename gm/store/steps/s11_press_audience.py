"""Step 11: who each press message went to (reports.audience).

Set when a press message is sent: 'all' (PRESS TO ALL: public, shown in the archive, the feed and
every player's report), 'players' (named players) or 'gm' (the game master alone); NULL for what
is not press.  Public views read only audience = 'all'.  Rows archived before this step are
classified once, from the header gm's press template wrote.
"""

from __future__ import annotations

from typing import Any

from gm.store.changes import NewColumn, Step
from gm.store.packing import legacy_packed, unpack_text

SQL = """
ALTER TABLE reports ADD COLUMN audience TEXT;
"""


def press_audience_of(body: str) -> str:
    """The audience of a press message archived before this step, read from the header above the
    text (its "To:" line, before the first blank line), never from the text, which the sender wrote."""
    header = body.split("\n\n", 1)[0].split("\n")
    if not header[0].startswith("Press in game "):
        return "players"  # not gm's layout: never public
    for i, line in enumerate(header):
        if line.startswith("To: "):
            rest = [more.strip() for more in header[i + 1:] if more.startswith(" ")]  # wrapped
            labels = [label.strip() for label in " ".join([line[4:]] + rest).split(",")]
            if labels[:1] == ["ALL"]:
                return "all"
            return "gm" if labels == ["GM"] else "players"
    return "players"  # not gm's layout: never public


def classify_old_press(db: Any) -> None:
    """Every press row archived before this step gets its audience (SQL cannot read a compressed
    body; gm.store.packing)."""
    rows = db.execute("SELECT id, body FROM reports WHERE kind = 'press' AND audience IS NULL", {}).fetchall()
    for row in rows:
        db.execute("UPDATE reports SET audience = :audience WHERE id = :id",
                   {"audience": press_audience_of(unpack_text(*legacy_packed(row[1]))), "id": row[0]})


STEP = Step(11, "who each press message went to (reports.audience)", SQL, classify_old_press, postgresql=(
    NewColumn("reports", "audience"),
))
