"""A finished game's record as files a mail carries: the end mail's <id>.json and <id>.txt.

The record is public once the game is over; the end mail to every seat and observer, the
archive and every RECORD of the game share the files, made once per process (a long game's
record takes a second to make).  The record itself: gm.service.table.gamerecord.
"""

from __future__ import annotations

import logging

from gm.core.model import GameView
from gm.mail.outbound import Attachment
from gm.service.context import Context
from gm.service.table import gamerecord, games

log = logging.getLogger(__name__)

KEEP_MADE = 8  # finished games whose public record files a process keeps (public_files)
MADE: dict[tuple, dict[str, bytes]] = {}  # oldest first
JSON_TYPE = "application/json"
TEXT_TYPE = 'text/plain; charset="utf-8"'


def attachments(files: dict[str, bytes]) -> tuple[Attachment, ...]:
    """The record's files (gm.present.archive.record_files) as a mail's attachments."""
    return tuple(Attachment(name, JSON_TYPE if name.endswith(".json") else TEXT_TYPE, data)
                 for name, data in files.items())


def public_files(ctx: Context, view: GameView) -> dict[str, bytes]:
    """A finished game's public record as its files (gm.present.archive.record_files), made once
    per process for the game as it stands: the end mail, the archive and every RECORD of it
    share them (a long game's record takes seconds to make; asking for it again costs nothing)."""
    from gm.present.archive import record_files

    key = (str(ctx.config.database), view.id, view.seq, view.row.status, view.row.updated, view.row.options,
           gamerecord.position_hash(view.rules, view.state))
    if key not in MADE:
        MADE[key] = record_files(gamerecord.build(ctx.store, view.id))
        while len(MADE) > KEEP_MADE:
            MADE.pop(next(iter(MADE)))
    return MADE[key]


def end_files(ctx: Context, view: GameView) -> tuple[Attachment, ...]:
    """The files the end mail of a finished game carries: its public record, JSON and text; none
    (logged) if it cannot be made: the record is a convenience, the end of the game is not."""
    try:
        return attachments(public_files(ctx, games.load(ctx.store, view.id)))
    except Exception:
        log.exception("the record of game %s could not be made for its end mail", view.id)
        return ()
