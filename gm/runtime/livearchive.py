"""The archive site kept current by the daemon (config ``archive_dir``).

After mail or a timer made a game archive something new (a turn report, press,
a notice: gm.store ``archived_since``), the daemon rewrites that game's page,
its Atom feed and the pictures of turns not drawn yet, then the index; files
whose content did not change are left alone (gm.present.archive).  What was
done is remembered in ``.gm-archive.json`` in the directory (the last archived
row seen, and the state each picture shows), so a restarted daemon carries on
where it stopped and a deleted directory is written again in full.  A fault
while writing is logged and tried again later: it never stops the daemon.
"""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path

from gm.present import archive as site
from gm.service import audit
from gm.service.engine import Engine

log = logging.getLogger(__name__)

STATE_FILE = ".gm-archive.json"
EVERY = 2.0  # seconds between looks at the database for changes


class LiveArchive:
    def __init__(self, engine: Engine, directory: str | Path):
        self.engine = engine
        self.directory = Path(directory)
        self.domain = engine.config.domain
        self.next_look = 0.0
        self.seen, self.drawn = self._load()

    def _load(self) -> tuple[int, dict[str, dict[int, int]]]:
        try:
            data = json.loads((self.directory / STATE_FILE).read_text())
            drawn = {gid: {int(t): int(seq) for t, seq in turns.items()} for gid, turns in data["drawn"].items()}
            return int(data["seen"]), drawn
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return 0, {}  # no record (or a broken one): write everything again

    def _save(self) -> None:
        tmp = self.directory / f".{STATE_FILE}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps({"seen": self.seen, "drawn": self.drawn}))
        os.replace(tmp, self.directory / STATE_FILE)

    def maybe_refresh(self) -> list[str]:
        """refresh() at most every EVERY seconds (the daemon calls this on every pass)."""
        if time.monotonic() < self.next_look:
            return []
        self.next_look = time.monotonic() + EVERY
        try:
            return self.refresh()
        except Exception:  # the archive is a convenience: a fault must not stop the daemon
            log.exception("the archive at %s could not be written; trying again later", self.directory)
            return []

    def refresh(self) -> list[str]:
        """Rewrite the games changed since the last refresh, and the index; returns their ids."""
        changed, newest = audit.reported_since(self.engine, self.seen)
        if not changed:
            return []
        self.directory.mkdir(parents=True, exist_ok=True)
        for game_id in changed:
            self.write_game(game_id)
        games = [audit.index_entry(self.engine, row["id"]) for row in self.engine.store.games()]
        site.write_index(self.directory, games, max([g["updated_at"] for g in games], default=0.0))
        self.seen = newest
        self._save()
        log.info("archive: rewrote %s", ", ".join(changed))
        return changed

    def write_game(self, game_id: str) -> None:
        """A game's page, feed and new pictures (pictures already drawn for a state are kept)."""
        drawn = self.drawn.get(game_id, {})
        if not all((self.directory / site.picture_name(game_id, turn)).exists() for turn in drawn):
            drawn = {}  # someone removed a picture: draw them all again
        data = audit.archive_data(self.engine, game_id, drawn=drawn)
        site.write_game(self.directory, data, data["updated_at"], self.domain)
        self.drawn[game_id] = {t["turn"]: t["seq"] for t in data["turns"]
                               if t.get("picture") or t.get("picture_kept")}


def from_config(engine: Engine, config) -> LiveArchive | None:
    """The live archive when the config names an archive_dir, else None."""
    return LiveArchive(engine, config.archive_dir) if config.archive_dir else None
