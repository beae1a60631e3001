"""RECORD [<id>] by mail: a game's record, its text in the reply and its JSON attached.

A finished game's record is public: anyone may ask (no password; rate-limited as HELP for
strangers).  A running game's goes only to a seat that gave its password or reply address, in
that seat's view (gamerecord.build with viewer): no other seat's sealed order, no press.
"""

from __future__ import annotations

from games.text import in_lines, reason, Text
from gm.core.i18n import translate
from gm.core.model import GameView, ServiceError, Status
from gm.mail.rawmail import ascii_lower
from gm.present.reports import fit_width
from gm.service.context import Context
from gm.service.outgoing.recordfiles import attachments, public_files
from gm.service.outgoing.strangers import STRANGER_BYTES, past_cap
from gm.service.table import gamerecord, games


def record_command(ctx: Context, view: GameView | None, player, args: str, inbound) -> None:
    """RECORD [<id>]: the game's record, its text in the reply and its JSON attached.  A finished
    game's to anyone; a running game's only to a seat of it (``player``: the mail gave that
    seat's password or reply address), as that seat sees it; else one refusal saying why."""
    words = args.split()
    if len(words) > 1 or (not words and view is None):
        refuse(ctx, inbound, None, Text("RECORD {args}: write RECORD below your GAME line, or RECORD <id> for "
                                        "the game <id>", args=args[:60]))
        return
    if words and (view is None or ascii_lower(words[0]) != view.id):
        player = None  # a seat of another game speaks for nobody in this one
        try:
            view = games.load(ctx.store, words[0])
        except ServiceError as exc:  # no such game, or one still waiting for players
            refuse(ctx, inbound, None, Text("RECORD {word}: {why}. Send LIST for the games here.",
                                            word=words[0][:40], why=reason(exc)))
            return
    if view.status != Status.FINISHED and player is None:
        refuse(ctx, inbound, view, Text("RECORD {game}: the game is still running. Its record is public once "
                                        "it ends; until then only a seat of it gets its own view: write GAME "
                                        "{game} PASSWORD <password> above RECORD.", game=view.id))
        return
    send_record(ctx, view, None if view.status == Status.FINISHED else player.name, player, inbound)


def send_record(ctx: Context, view: GameView, viewer: str | None, player, inbound) -> None:
    """The reply with the record of ``view`` as ``viewer`` sees it (None: the public record).  A
    stranger's answer is cut at STRANGER_BYTES as every answer to one is, and carries the JSON
    only when it is within that too; a seat's is within the caps of any mail (outbound.compose)."""
    from gm.present.archive import record_files

    stranger = ctx.outbox.for_stranger(inbound)
    if stranger and past_cap(ctx.outbox, inbound.reply_address):
        return  # its answer would not be sent: the record is not made for nobody
    if viewer is None:
        files = public_files(ctx, view)
    else:
        files = record_files(gamerecord.build(ctx.store, view.id, viewer=viewer))
    json_name, text_name = f"{view.id}.json", f"{view.id}.txt"
    attached = {json_name: files[json_name]}
    if stranger and len(files[json_name]) > STRANGER_BYTES:
        attached = {}
    head = record_head(ctx, view, viewer, json_name if attached else None, len(files[json_name]))
    said = translate(in_lines(head), ctx.outbox.answer_language(view))
    body = fit_width(said) + "\n\n" + files[text_name].decode("utf-8")
    ctx.outbox.reply(inbound, view, Text("Record"), body, kind="help" if player is None else "reply",
                     archive_player=player.name if player is not None else None, files=attachments(attached))


def record_head(ctx: Context, view: GameView, viewer: str | None, attached: str | None, size: int) -> list[str]:
    """The lines above the record's text: whose view it is, and where its JSON is."""
    game = dict(game=view.id, title=view.rules.title)
    whose = Text("The record of game {game} ({title}), public: the game is over.", **game) if viewer is None else \
        Text("The record of game {game} ({title}), as {viewer} sees it: the game is still running, so no "
             "other seat's sealed order is in it (and no record holds press).", viewer=viewer, **game)
    lines: list[str] = [whose]
    if attached:
        return lines + [Text("The same record as JSON is attached ({file}).", file=attached)]
    lines.append(Text("Its JSON ({size} bytes) is longer than gm sends to a mail without a password.", size=size))
    if ctx.config.archive_url:
        lines.append(Text("It is at {address}.", address=f"{ctx.config.archive_url.rstrip('/')}/{view.id}.json"))
    return lines + [Text("A seat of the game gets it with GAME {game} PASSWORD <password> above RECORD.",
                         game=view.id)]


def refuse(ctx: Context, inbound, view: GameView | None, message: str) -> None:
    """The one answer to a RECORD that is not sent: why."""
    ctx.outbox.reply(inbound, view, Text("No record"), ctx.outbox.error_body(view, message), kind="error")
