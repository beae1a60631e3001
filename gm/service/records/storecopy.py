"""`gm store copy SRC DST`: move a GM's games to another store, then replay each one there."""

from __future__ import annotations

from dataclasses import dataclass

from gm.core.config import Config
from gm.service.records import audit
from gm.service.context import Context
from gm.store import Store
from gm.store.copy import Copied, copy_rows


@dataclass
class CopyReport:
    copied: Copied
    verified: list[audit.VerifyReport]

    @property
    def ok(self) -> bool:
        return all(report.ok for report in self.verified)

    def text(self) -> str:
        lines = [f"{table}: {count} rows" for table, count in self.copied.rows.items()]
        if self.copied.skipped:
            lines.append(f"not copied (not in this gm's schema): {', '.join(self.copied.skipped)}")
        lines += [report.text().rstrip("\n") for report in self.verified]
        good = sum(report.ok for report in self.verified)
        lines.append(f"{good} of {len(self.verified)} games verified in the destination")
        return "\n".join(lines) + "\n"


def copy_store(source: Store, destination: Store, config: Config) -> CopyReport:
    """Copy every row, then gm verify every game of the destination (replay and archive)."""
    copied = copy_rows(source, destination)
    ctx = Context(destination, config)
    try:
        verified = [audit.verify(ctx, row["id"]) for row in destination.games()]
    finally:
        ctx.close()
    return CopyReport(copied, verified)
