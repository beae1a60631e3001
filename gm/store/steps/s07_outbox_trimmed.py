"""Step 7: a sent mail is kept whole for a day, then as words (gm.service.records.retention).

trimmed = 1: nothing more to leave out (a text mail from the start); rows from before this step
are looked at once.  reports_outbox finds the archived words of a mail by its id.
"""

from __future__ import annotations

from gm.store.changes import NewColumn, NewIndex, Step

SQL = """
ALTER TABLE outbox ADD COLUMN trimmed INTEGER NOT NULL DEFAULT 0;
CREATE INDEX outbox_untrimmed ON outbox(sent) WHERE trimmed = 0 AND status = 'sent';
CREATE INDEX reports_outbox ON reports(outbox_id);
"""

STEP = Step(7, 'sent mail keeps its pictures for a day (outbox.trimmed)', SQL, postgresql=(
    NewColumn("outbox", "trimmed"),
    NewIndex("outbox_untrimmed"),
    NewIndex("reports_outbox"),
))
