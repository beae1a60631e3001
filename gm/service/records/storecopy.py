"""`gm store copy SRC DST` and `gm restore FILE`: a GM's games into another store, then each replayed there."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from gm.service.records import audit
from gm.service.context import Context
from gm.store import Store, StoreError
from gm.store.copy import Copied, Progress, copy_rows, nonempty_tables, quiet

if TYPE_CHECKING:
    from gm.core.config import Config


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


def copy_store(source: Store, destination: Store, config: Config, replace: bool = False,
               progress: Progress = quiet) -> CopyReport:
    """Copy every row, then gm verify every game of the destination (replay and archive)."""
    copied = copy_rows(source, destination, replace=replace, progress=progress)
    ctx = Context(destination, config)
    try:
        games = destination.games.every_game()
        verified = []
        for done, row in enumerate(games):
            progress(done, len(games), f"verifying {row.id}")
            verified.append(audit.verify(ctx, row.id))
    finally:
        ctx.close()
    return CopyReport(copied, verified)


def restore(backup: Store, destination: Store, config: Config, force: bool = False,
            progress: Progress = quiet) -> CopyReport:
    """gm restore: the backup's rows into the configured store, then every game verified there.

    A store that holds rows is replaced only with ``force`` (in the one transaction of the copy)."""
    full = nonempty_tables(destination)
    if full and not force:
        raise StoreError(f"the store already holds rows (in {', '.join(full)}): gm restore replaces them "
                         "only with --force")
    return copy_store(backup, destination, config, replace=force, progress=progress)
