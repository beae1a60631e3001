"""A game's record where a reader takes it by mail: RECORD <id>, and the end mail's files.

A finished game's record is public: anyone may ask (RECORD <id>, no password; rate-limited as
HELP for strangers), and the end mail to every seat and observer carries it.  A running game's
record goes only to a seat that gave its password or reply address, in that seat's view
(gamerecord.build with viewer): no other seat's sealed order, no press.  The text form
is the mail's body, the JSON is attached (<id>.json).  gm.service.people.mailcommands names
``record_command`` and gm.service.outgoing.reports ``end_files`` by module (gm.core.later):
those rooms sit below this one.
"""

from __future__ import annotations

import logging

from gm.core.model import GameView, ServiceError, Status
from gm.mail.outbound import Attachment
from gm.mail.rawmail import ascii_lower
from gm.present.reports import fit_width
from gm.service.context import Context
from gm.service.outgoing.strangers import STRANGER_BYTES, past_cap
from gm.service.table import games

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
    from gm.service.records import gamerecord

    key = (str(ctx.config.database), view.id, view.seq, view.row.status, view.row.updated, view.row.options,
           gamerecord.position_hash(view.rules, view.state))
    if key not in MADE:
        MADE[key] = record_files(gamerecord.build(ctx, view.id))
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


def record_command(ctx: Context, view: GameView | None, player, args: str, inbound) -> None:
    """RECORD [<id>]: the game's record, its text in the reply and its JSON attached.  A finished
    game's to anyone; a running game's only to a seat of it (``player``: the mail gave that
    seat's password or reply address), as that seat sees it; else one refusal saying why."""
    words = args.split()
    if len(words) > 1 or (not words and view is None):
        refuse(ctx, inbound, None, f"RECORD {args[:60]}: write RECORD below your GAME line, or "
               "RECORD <id> for the game <id>")
        return
    if words and (view is None or ascii_lower(words[0]) != view.id):
        player = None  # a seat of another game speaks for nobody in this one
        try:
            view = games.load(ctx.store, words[0])
        except ServiceError as exc:  # no such game, or one still waiting for players
            refuse(ctx, inbound, None, f"RECORD {words[0][:40]}: {exc}. Send LIST for the games here.")
            return
    if view.status != Status.FINISHED and player is None:
        refuse(ctx, inbound, view, f"RECORD {view.id}: the game is still running. Its record is public "
               f"once it ends; until then only a seat of it gets its own view: write GAME {view.id} "
               "PASSWORD <password> above RECORD.")
        return
    send_record(ctx, view, None if view.status == Status.FINISHED else player.name, player, inbound)


def send_record(ctx: Context, view: GameView, viewer: str | None, player, inbound) -> None:
    """The reply with the record of ``view`` as ``viewer`` sees it (None: the public record).  A
    stranger's answer is cut at STRANGER_BYTES as every answer to one is, and carries the JSON
    only when it is within that too; a seat's is within the caps of any mail (outbound.compose)."""
    from gm.present.archive import record_files
    from gm.service.records import gamerecord

    stranger = ctx.outbox.for_stranger(inbound)
    if stranger and past_cap(ctx.outbox, inbound.reply_address):
        return  # its answer would not be sent: the record is not made for nobody
    files = public_files(ctx, view) if viewer is None else record_files(gamerecord.build(ctx, view.id, viewer=viewer))
    json_name, text_name = f"{view.id}.json", f"{view.id}.txt"
    attached = {json_name: files[json_name]}
    if stranger and len(files[json_name]) > STRANGER_BYTES:
        attached = {}
    head = record_head(ctx, view, viewer, json_name if attached else None, len(files[json_name]))
    body = fit_width("\n".join(head)) + "\n\n" + files[text_name].decode("utf-8")
    ctx.outbox.reply(inbound, view, "Record", body, kind="help" if player is None else "reply",
                     archive_player=player.name if player is not None else None, files=attachments(attached))


def record_head(ctx: Context, view: GameView, viewer: str | None, attached: str | None, size: int) -> list[str]:
    """The lines above the record's text: whose view it is, and where its JSON is."""
    lines = [f"The record of game {view.id} ({view.rules.title}), " + (
        "public: the game is over." if viewer is None else
        f"as {viewer} sees it: the game is still running, so no other seat's sealed order is "
        "in it (and no record holds press).")]
    if attached:
        return lines + [f"The same record as JSON is attached ({attached})."]
    lines.append(f"Its JSON ({size} bytes) is longer than gm sends to a mail without a password.")
    if ctx.config.archive_url:
        lines.append(f"It is at {ctx.config.archive_url.rstrip('/')}/{view.id}.json.")
    return lines + [f"A seat of the game gets it with GAME {view.id} PASSWORD <password> above RECORD."]


def refuse(ctx: Context, inbound, view: GameView | None, message: str) -> None:
    """The one answer to a RECORD that is not sent: why."""
    ctx.outbox.reply(inbound, view, "No record", ctx.outbox.error_body(view, message), kind="error")
