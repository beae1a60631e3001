"""The daily digest (SET MAIL DAILY): one mail a day at the reader's hour with every game of
theirs that changed, its held events in order, and the board of each game where they are to move.

The tick (gm.service.play.timers) asks for the digests due, by the index on their due time:
no pass reads every game.  Each is claimed, its held reports read and deleted, and the mail
queued in one transaction, so a digest is queued once, under kill -9 and after an outage too
(a missed hour is queued at the first tick that can write, once).
"""

from __future__ import annotations

import logging

from games.text import Plural
from gm.core import i18n, times
from gm.core.model import GameView, ServiceError
from gm.core.value import valueclass
from gm.service.context import Context
from gm.service.outgoing import pace
from gm.service.outgoing.reportmail import language_of, wants_html
from gm.service.outgoing.reports import report_body
from gm.service.table import deadlines, games
from gm.store import StoreError
from gm.store.pace import HeldRow

log = logging.getLogger(__name__)

MOST = 50  # digests a tick queues; the rest at the next


@valueclass(frozen=True)
class GameNews:
    """One game of a digest: its held lines, and its board when the reader is to move."""

    game_id: str
    title: str
    turn: int
    lines: list[str]
    to_move: bool
    board: str | None


def send_due(ctx: Context) -> list[str]:
    """Queue every digest due now, each in its own transaction; what was done."""
    done = []
    for row in ctx.store.pace.due_digests(ctx.clock(), MOST):
        try:
            with ctx.store.write():
                if ctx.store.pace.claim_digest(row.address, row.due) and queue_digest(ctx, row.address):
                    done.append(f"digest to {row.address}")
        except StoreError:
            raise  # the database is down: the daemon waits for it
        except Exception:  # one reader's digest must not stop the others
            log.exception("the digest to %s failed", row.address)
    return done


def queue_digest(ctx: Context, address: str) -> bool:
    """The digest of what was held for ``address``, queued, and the held rows deleted; False when
    nothing was held (the next mail of each game took it)."""
    held = ctx.store.pace.take_held_of_address(address)
    news, html, to, zone, language = [], False, None, None, i18n.ENGLISH
    for game_id, rows in by_game(held).items():
        try:
            view = games.load(ctx.store, game_id)
        except ServiceError:
            continue  # the game was deleted since
        seat = view.player(rows[-1].player)
        if seat is None:
            continue
        if to is None:  # the first seat's settings say how the whole digest is written
            to, zone, language = seat.email, deadlines.player_zone(seat), language_of(seat)
        html = html or wants_html(seat, deadlines.settings(ctx.store, game_id))
        news.append(game_news(ctx, view, seat.name, rows))
    if to is None:
        return False
    values = dict(games=news, date=times.format_stamp(ctx.clock(), zone, language))
    body = ctx.outbox.render("digest", language=language, **values)
    subject = Plural("Your daily digest: {n} game", "Your daily digest: {n} games", n=len(news))
    ctx.outbox.queue(to, i18n.translate(subject, language), body, kind="digest",
                     html=html_part(values, language) if html else None, language=language)
    return True


def by_game(held: list[HeldRow]) -> dict[str, list[HeldRow]]:
    """Held rows by game, the games in the order their first report was held."""
    grouped: dict[str, list[HeldRow]] = {}
    for row in held:
        grouped.setdefault(row.game_id, []).append(row)
    return grouped


def game_news(ctx: Context, view: GameView, name: str, rows: list[HeldRow]) -> GameNews:
    """One game's part of a digest, for the seat ``name``."""
    to_move = name in deadlines.awaited(view)
    lines = [line for row in rows for line in pace.event_lines(row.turn, row.events)]
    return GameNews(view.id, view.rules.title, view.turn, lines, to_move,
                    report_body(ctx, view, name, []).rstrip() if to_move else None)


def html_part(values: dict, language: str = i18n.ENGLISH):
    """The digest's HTML alternative in ``language`` (every value escaped by the template environment)."""
    from gm.mail.outbound import HtmlPart
    from gm.present.templates import environment

    return HtmlPart(environment(html=True, language=language).get_template("mail/digest.html.j2").render(
        **i18n.localized(values, language)))
