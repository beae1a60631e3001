"""The archive site kept current by the daemon (config ``archive_dir``).

A game is rendered again only when what its page shows changed: its status, newest state,
report, press or notice, or (open) its seats taken (gm.store ``archive_marks``); then its
page, feed and new pictures, then the community pages (ladders, players, tournaments: after a
game started or ended, or every COMMUNITY_EVERY seconds for a new name), then the index
(gm.present.archive, gm.present.community).  What was rendered is
remembered in ``.gm-archive.json``, with the site's language (config ``archive_language``),
so a restarted daemon carries on, and a deleted directory or a new language is written again
in full.  The archive is a convenience: a game that cannot be
rendered is left out, logged once and tried again when it changes; any other fault is
logged once and the refresh tried later.  Nothing in it stops the daemon.
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path

from gm.core import filemodes
from gm.present import archive as site
from gm.present import community
from gm.service.records import audit, communitypages
from gm.service.engine import Engine

log = logging.getLogger(__name__)

STATE_FILE = ".gm-archive.json"
EVERY = 2.0  # seconds between looks at the database for changes
AFTER_FAULT = 60.0  # seconds before a refresh that failed (a full disk, say) is tried again
COMMUNITY_EVERY = 60.0  # seconds between renderings of the community pages while no game changes


class LiveArchive:
    def __init__(self, engine: Engine, directory: str | Path):
        self.engine = engine
        self.directory = Path(directory)
        self.domain = engine.config.domain
        self.language = engine.config.archive_language
        self.next_look = 0.0
        self.rendered, self.drawn = self._load()  # game id -> marks; game id -> {turn: seq}
        self.entries: dict[str, dict] = {}  # game id -> its index line, for the marks rendered
        self.broken: dict[str, list] = {}  # game id -> the marks it could not be rendered at
        self.fault: str | None = None  # the refresh's last fault, logged once
        self.community: dict | None = None  # the index's links to ladders and tournaments, once written
        self.community_next = 0.0  # when the community pages are due again (time.monotonic)
        self.community_fault: str | None = None  # their last fault, logged once

    def _load(self) -> tuple[dict[str, list], dict[str, dict[int, int]]]:
        try:
            data = json.loads((self.directory / STATE_FILE).read_text())
            if data.get("language", "en") != self.language:
                return {}, {}  # written in another language: write everything again
            drawn = {gid: {int(t): int(seq) for t, seq in turns.items()} for gid, turns in data["drawn"].items()}
            return {gid: list(marks) for gid, marks in data["rendered"].items()}, drawn
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return {}, {}  # no record (or a broken or older one): write everything again

    def _save(self) -> None:
        filemodes.replace_file(self.directory / STATE_FILE,
                               json.dumps({"rendered": self.rendered, "drawn": self.drawn,
                                           "language": self.language}).encode())

    def maybe_refresh(self) -> list[str]:
        """refresh() at most every EVERY seconds (the daemon calls this on every pass)."""
        if time.monotonic() < self.next_look:
            return []
        self.next_look = time.monotonic() + EVERY
        try:
            changed = self.refresh()
        except Exception as exc:  # the archive is a convenience: a fault must not stop the daemon
            fault = f"{type(exc).__name__}: {exc}"
            if fault != self.fault:  # once, not at every refresh while it lasts
                log.exception("the archive at %s could not be written; trying again later", self.directory)
            self.fault = fault
            self.next_look = time.monotonic() + AFTER_FAULT  # not every pass, while it lasts
            return []
        if self.fault is not None:
            log.info("the archive at %s is written again", self.directory)
            self.fault = None
        return changed

    def refresh(self) -> list[str]:
        """Render the games that changed since they were last rendered, the community pages when
        due, then the index; returns the ids of the games rendered."""
        if not (self.directory / STATE_FILE).exists():
            self.rendered, self.drawn = {}, {}  # a new or deleted directory: write it all
        marks = {row.id: [row.status, row.last_seq, row.last_report, row.seats_taken]
                 for row in self.engine.store.reports.archive_marks()}
        changed = [gid for gid, mark in marks.items()
                   if (self.rendered.get(gid) != mark or gid not in self.entries) and self.broken.get(gid) != mark]
        # A game that started, ended or ran again may change a rating or a tournament.
        moved = any((self.rendered.get(gid) or [None])[0] != marks[gid][0] for gid in changed)
        if not changed and time.monotonic() < self.community_next:
            return []
        self.directory.mkdir(parents=True, exist_ok=True)
        rendered = [gid for gid in changed if self.render(gid, marks[gid])]
        for gone in set(self.entries) - set(marks):
            del self.entries[gone]
        games = [self.entries[gid] for gid in marks if gid in self.entries]
        built = max([g["updated_at"] for g in games], default=0.0)
        links = self.community
        if moved or time.monotonic() >= self.community_next:
            self.write_community(built)
        if not (changed or links != self.community):
            return []
        site.write_index(self.directory, games, built, self.community, self.language)
        self._save()
        if rendered:
            log.info("archive: rewrote %s", ", ".join(rendered))
        return rendered

    def write_community(self, built: float) -> None:
        """The ladders, player and tournament pages (gm.present.community) and the index's links to
        them.  A fault is logged once while it lasts: the games' pages are written all the same."""
        self.community_next = time.monotonic() + COMMUNITY_EVERY
        try:
            data = communitypages.community_data(self.engine)
            community.write(self.directory, data, built, self.language)
            self.community = community.index_links(data)
        except Exception as exc:  # the game pages must not wait for these
            fault = f"{type(exc).__name__}: {exc}"
            if fault != self.community_fault:
                log.exception("archive: the community pages could not be written; trying again later")
            self.community_fault = fault
            return
        self.community_fault = None

    def render(self, game_id: str, mark: list) -> bool:
        """A game's index line, and the files of a game that changed; False (logged, once
        for these marks) if it cannot be rendered, so that the others still are."""
        try:
            if mark[0] == "open":
                entry = audit.index_entry(self.engine, game_id)  # recruiting: no page yet
            elif self.rendered.get(game_id) == mark:
                entry = audit.index_entry(self.engine, game_id)  # rendered before a restart
            else:
                entry = self.write_game(game_id)
        except Exception:  # one game's fault must not keep the others (or the index) unwritten
            log.exception("archive: game %s could not be rendered; left out until it changes", game_id)
            self.broken[game_id] = mark
            self.entries.pop(game_id, None)
            return False
        self.broken.pop(game_id, None)
        rewritten = self.rendered.get(game_id) != mark
        self.rendered[game_id] = mark
        self.entries[game_id] = {k: v for k, v in entry.items() if k not in ("turns", "record")}
        return rewritten

    def write_game(self, game_id: str) -> dict:
        """A game's page, feed and new pictures (pictures already drawn for a state are kept);
        returns the game's data."""
        drawn = self.drawn.get(game_id, {})
        if not all((self.directory / site.picture_name(game_id, turn)).exists() for turn in drawn):
            drawn = {}  # someone removed a picture: draw them all again
        data = audit.archive_data(self.engine, game_id, drawn=drawn, language=self.language)
        site.write_game(self.directory, data, data["updated_at"], self.domain, self.language)
        self.drawn[game_id] = {t["turn"]: t["seq"] for t in data["turns"]
                               if t.get("picture") or t.get("picture_kept")}
        return data


def from_config(engine: Engine, config) -> LiveArchive | None:
    """The live archive when the config names an archive_dir, else None."""
    return LiveArchive(engine, config.archive_dir) if config.archive_dir else None
