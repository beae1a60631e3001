"""Step 22: an archived report is always bytes, its packing recorded (reports.body_packing).

The same change as step 21's, for reports' bodies.
"""

from __future__ import annotations

from typing import Any

from gm.store.changes import NewColumn, Step
from gm.store.steps.s21_state_packing import PACKING_COLUMN, repack


def pack_reports(db: Any) -> None:
    """Every archived report's body as bytes with its packing."""
    repack(db, "reports", ("id",), "body")


STEP = Step(22, "an archived report is always bytes, its packing recorded (reports.body_packing)",
            PACKING_COLUMN.format(table="reports", column="body_packing"), pack_reports, postgresql=(
                NewColumn("reports", "body_packing"),
            ))
