"""Step 19: the version of gm that rendered each report, and a digest of what it shows."""

from __future__ import annotations

from gm.store.changes import NewColumn, Step

SQL = """
-- gm_version: gm --version when rendered, digest: JSON of turn, position hash, scores, result
-- (gm.core.digest).  NULL in reports stored before this step: verify checks those against the
-- states rows and the replay instead, RULINGS G1
ALTER TABLE reports ADD COLUMN gm_version TEXT;
ALTER TABLE reports ADD COLUMN digest TEXT;
"""

STEP = Step(19, 'the version of gm that rendered each report and a digest of what it shows', SQL, postgresql=(
    NewColumn("reports", "gm_version"),
    NewColumn("reports", "digest"),
))
