"""FORGET ME by mail (confirmed by a code, as opt-in is) and gm forget: an address forgotten.

The address leaves every subscription and every finished game: a seat keeps its name, its
address becomes a pseudonym (gm.store.mailboxhash) wherever it stood, and kept mail and
delivery records naming it are erased (gm.store.forgetting).  A seat still in a running or
open game refuses: the answer names the games to resign (or leave) first.  The answer goes
to the address after the erase, as the last trace of it: once sent, its copy is forgotten
too (answer_sent), and SQLite's freed pages are wiped.  Caps and locks are kept by the
mailbox's keyed hash: forgetting resets none.
"""

from __future__ import annotations


import logging
from pathlib import Path

from games.text import reason, Text
from gm.core.model import ServiceError
from gm.mail.inbound import Inbound
from gm.service.context import Context
from gm.store import Store, forgetting, mailboxhash
from gm.store.packing import header_end

log = logging.getLogger(__name__)

REQUEST_LINE = "FORGET ME"  # the pending request's line (gm.service.people.optin)
ANSWER_KIND = "forgotten"  # the outbox kind of the answer, forgotten itself once sent
GM_ACTOR = "gm"


def running_seats(ctx: Context, address: str) -> list[str]:
    """The games where ``address`` still holds a seat that is not over (open, active, paused)."""
    return sorted({row.game_id for row in ctx.store.seats.player_seats_at(address) if row.status != "finished"})


def refusal(games: list[str]) -> str:
    """Why an address with running seats is not forgotten, naming the games."""
    return Text("this address still plays in {games}: resign there first (GAME <id> PASSWORD <yours>, then "
                "RESIGN; LEAVE <id> for a game not begun), then send FORGET ME again", games=", ".join(games))


def forget_request(ctx: Context, args: str, sender: str) -> str:
    """FORGET ME, checked when it comes and again when confirmed: the request's line."""
    if args.strip().upper() != "ME":
        raise ServiceError(Text("FORGET ME: write the two words alone on a line"))
    games = running_seats(ctx, sender)
    if games:
        raise ServiceError(refusal(games))
    return REQUEST_LINE


def forget(ctx: Context, address: str, why: str) -> list[str]:
    """Forget ``address`` now (inside the write): the lines of the answer, which the caller mails
    to it (queue_answer) after this.  ServiceError if it still holds a running seat."""
    games = running_seats(ctx, address)
    if games:
        raise ServiceError(refusal(games))
    pseudonym = mailboxhash.pseudonym(ctx.store, address)
    finished = forgetting.games_seated(ctx.store, address)
    cells = forgetting.forget_address(ctx.store, address, pseudonym)
    why = forgetting.replacer(address, pseudonym)(why)  # a reason may name the address too
    ctx.store.history.log("", 0, GM_ACTOR, "forget", f"{pseudonym} forgotten: {why}", ctx.clock())
    log.info("an address was forgotten as %s (%d cells): %s", pseudonym, cells, why)
    lines = [Text("gm has forgotten this address, as asked:"), "",
             Text("  - wherever it stood (seats of finished games, subscriptions, history, archived reports) "
                  "it is now {pseudonym}; a seat keeps its name, so every game still replays",
                  pseudonym=pseudonym),
             Text("  - the mail it sent and the mail gm sent it are erased, with their delivery records, "
                  "settings and following of games"),
             Text("  - limits against abuse (wrong passwords, codes mailed) are kept under a keyed hash of "
                  "the address, not the address, and still count")]
    if finished:
        lines.append(Text("  - games where it played: {games}", games=", ".join(finished)))
    lines += ["", Text("Backups the game master took before this are outside gm's reach. This is the last "
                       "mail gm sends to this address; its copy is forgotten once sent.")]
    return lines


def confirmed(ctx: Context, inbound: Inbound, requested: list[str]) -> None:
    """The address confirmed its FORGET ME (its code): forgotten, then answered, or told why not.
    The other lines of its request (``requested``) are not done: the address is gone."""
    from gm.service.outgoing.answers import refuse

    try:
        lines = forget(ctx, inbound.sender, "FORGET ME by mail, confirmed by its code")
    except ServiceError as exc:
        refuse(ctx, inbound, None, Text("Not forgotten"), reason(exc))
        return
    others = [line for line in requested if line != REQUEST_LINE]
    if others:
        lines += ["", Text("Not done, as this address is forgotten: {lines}", lines="; ".join(others))]
    queue_answer(ctx, inbound.sender, lines, inbound.message_id)
    rewrite_logs(log_files(ctx), inbound.sender, mailboxhash.pseudonym(ctx.store, inbound.sender))


def gm_forget(ctx: Context, address: str, why: str | None) -> str:
    """`gm forget ADDRESS -m WHY`: forgotten at once (no code: the GM decides), answered, logged
    in the history with WHY; the data folder's log files rewritten too."""
    from gm.core.addresses import normal

    if not why or not why.strip():
        raise ServiceError(f"gm forget {address}: say why with -m (it is kept in the history)")
    kept = normal(address)
    if kept is None:
        raise ServiceError(f"not a mail address: {address!r}")
    with ctx.store.write():
        lines = forget(ctx, kept, f"gm forget: {why.strip()}")
        queue_answer(ctx, kept, lines)
    pseudonym = mailboxhash.pseudonym(ctx.store, kept)
    rewrite_logs(log_files(ctx), kept, pseudonym)
    forgetting.wipe_freed(ctx.store)
    return f"{kept} forgotten: now {pseudonym} wherever it stood; the answer is queued to it"


def queue_answer(ctx: Context, address: str, lines: list[str], in_reply_to: str | None = None) -> int | None:
    """The answer to a forgotten address, the one row naming it left (answers_sent forgets it)."""
    body = ctx.outbox.render("answer", lines=lines, game_id=None)
    return ctx.outbox.queue(address, Text("Forgotten: gm has erased this address"), body, kind=ANSWER_KIND,
                            in_reply_to=in_reply_to, secret=True, headers=((ANSWER_HEADER, "yes"),))


ANSWER_HEADER = "X-GM-Forgotten"  # marks the answer in the sender's claimed rows (is_answer)


def is_answer(raw: bytes) -> bool:
    """Whether a mail the sender claimed is the answer to a forgotten address."""
    head = raw[:header_end(raw)].replace(b"\r\n", b"\n")
    return f"\n{ANSWER_HEADER}: yes\n".encode("ascii") in b"\n" + head + b"\n"


def answers_sent(store: Store, recipients: list[str]) -> None:
    """The answers to forgotten addresses are done with (sent, or refused for good; committed):
    their rows, and the lines logged since, forget the addresses too; then freed pages are wiped."""
    if not recipients:
        return
    with store.write():
        for address in recipients:
            forgetting.forget_address(store, address, mailboxhash.pseudonym(store, address))
    for address in recipients:
        rewrite_logs(open_log_files(), address, mailboxhash.pseudonym(store, address))
    forgetting.wipe_freed(store)


INGEST_LOG = "gm.log"  # gm ingest's log in the data folder where the config names none (gm.cli.piped)


def log_files(ctx: Context) -> list[Path]:
    """The config's log file (or gm ingest's in the data folder) and the files this process logs to."""
    return [Path(p) for p in {ctx.config.log_file or ctx.config.data_dir / INGEST_LOG, *open_log_files()} if p]


def open_log_files() -> list[Path]:
    """The files this process logs to (its logging handlers')."""
    handlers = [*logging.getLogger().handlers, *logging.getLogger("gm").handlers]
    return [Path(h.baseFilename) for h in handlers if isinstance(h, logging.FileHandler)]


def rewrite_logs(paths: list[Path], address: str, pseudonym: str) -> int:
    """Every line of these log files (and their rotated copies) naming ``address`` rewritten to
    ``pseudonym``, in place; how many files changed."""
    swap, changed = forgetting.replacer(address, pseudonym), 0
    for path in {p for base in paths for p in [base, *base.parent.glob(base.name + ".*")] if p.is_file()}:
        with open(path, "r+", encoding="utf-8", errors="surrogateescape") as handle:
            text = handle.read()
            new = swap(text)
            if new != text:
                handle.seek(0)
                handle.write(new)
                handle.truncate()
                changed += 1
    return changed
