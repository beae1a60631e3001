"""Step 28: nothing here; the step another branch ships under this number takes its place."""

from __future__ import annotations

from gm.store.changes import Step

STEP = Step(28, "reserved", "")
