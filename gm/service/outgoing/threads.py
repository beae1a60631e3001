"""One thread per game per reader: every mail of a game to a reader names that reader's first.

The first mail of a game to an address (lower-cased) is its thread's root (gm.store.threads);
every later one names the root first in References, and a reply to the reader's own mail names
that mail in In-Reply-To as before (In-Reply-To stays for replies: gm's reports answer nobody).
Every mail of a game carries the game's List-Id (RFC 2919), ``"gm game nb7" <nb7.host>``, for
the reader's filters and labels.  The subject of each report, notice and answer of a game starts
with the same tag, ``[gm nb7]`` (gm.mail.orders.game_tag), so clients that thread by subject (Gmail) keep the
game together; a reply is read by it (gm.mail.orders.subject_tag).  The body tells the turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gm.core.config import Config
    from gm.mail.outbound import HtmlPart
    from gm.store import Store


def list_id(config: Config, game_id: str) -> tuple[str, str]:
    """The List-Id field of a game's mail: its label, then ``<game-id.host>``."""
    return ("List-Id", f'"gm game {game_id}" <{game_id.lower()}.{config.domain}>')


def compose(store: Store, config: Config, *, to: str, subject: str, body: str, now: float,
            game_id: str | None = None, in_reply_to: str | None = None, references: Any = (),
            headers: tuple[tuple[str, str], ...] = (), html: HtmlPart | None = None,
            **fields: Any) -> tuple[str, bytes]:
    """A mail from gm (gm.mail.outbound.compose, ``fields`` as it takes them), in its reader's
    thread of ``game_id`` if it is about one: the thread's root referenced, or, for the first
    mail of the game to ``to``, kept as the root.  (Message-ID, bytes)."""
    from gm.mail.outbound import compose as compose_mail

    root = store.threads.roots(game_id).get(to.lower()) if game_id else None
    message_id, raw = compose_mail(
        sender=config.address, sender_name=config.name, to=to, subject=subject, body=body,
        in_reply_to=in_reply_to, references=list(references or ()), game_id=game_id,
        instance=config.address, message_id_domain=config.message_id_domain, html=html, root=root,
        headers=tuple(headers) + ((list_id(config, game_id),) if game_id else ()), **fields)
    if game_id and root is None:
        store.threads.keep_root(game_id, to, message_id, now)
    return message_id, raw
