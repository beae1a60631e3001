"""Queueing mail: compose it, store it in the outbox table, archive what a player was sent.

Everything here runs inside the caller's write transaction, so a report is
queued together with the state it reports, or not at all.  Replies to a mail
(help, errors, confirmations) are rate-limited per address.
"""

from __future__ import annotations

import logging
from typing import Any, Callable

from gm.core.config import Config
from gm.core.model import GameView
from gm.mail.inbound import Inbound
from gm.mail.outbound import compose
from gm.present import reports
from gm.store import Store

log = logging.getLogger(__name__)


class Outbox:
    def __init__(self, store: Store, config: Config, clock: Callable[[], float]):
        self.store = store
        self.config = config
        self.clock = clock

    # --- bodies -------------------------------------------------------------
    def render(self, template: str, **context: Any) -> str:
        """One of the mail templates, with our address filled in."""
        context.setdefault("address", self.config.address)
        return reports.render_text(template, **context)

    def notice_body(self, view: GameView, lines: list[str]) -> str:
        return self.render("notice", game_id=view.id, turn=view.turn, lines=lines,
                           hint=reports.help_hint(view.id))

    def error_body(self, view: GameView | None, message: str) -> str:
        return self.render("error", message=message, game_id=view.id if view else None,
                           hint=reports.help_hint(view.id) if view else None)

    # --- queueing -------------------------------------------------------------
    def queue(self, to: str, subject: str, body: str, *, kind: str, game_id: str | None = None,
              turn: int | None = None, in_reply_to: str | None = None,
              references=(), auto: str = "auto-generated") -> int:
        """Compose one message and queue it; returns its outbox id."""
        message_id, raw = compose(
            sender=self.config.address, sender_name=self.config.name, to=to, subject=subject,
            body=body, auto=auto, in_reply_to=in_reply_to, references=list(references or ()),
            game_id=game_id, instance=self.config.address,
        )
        return self.store.queue_outbox(message_id, to, subject, raw, kind=kind, now=self.clock(),
                                       game_id=game_id, turn=turn)

    def to_game(self, view: GameView, to: str, label: str, body: str, *, kind: str = "notice",
                **threading: Any) -> int:
        """Queue a message about a game, its subject tagged ``[id Tn]`` so a reply names the game."""
        return self.queue(to, f"[{view.id} T{view.turn}] {label}", body, kind=kind,
                          game_id=view.id, turn=view.turn, **threading)

    def archive(self, view: GameView, player: str | None, kind: str, body: str,
                outbox_id: int | None) -> None:
        """Keep what a player was sent (``player`` None: the archive's own copy)."""
        self.store.add_report(view.id, view.turn, view.seq, player, kind, body, outbox_id,
                              self.clock())

    def reply(self, inbound: Inbound, view: GameView | None, label: str, body: str,
              kind: str, archive_player: str | None = None) -> int | None:
        """Answer a mail, threaded.  Error replies are rate-limited per address."""
        if kind == "error" and self.over_error_limit(inbound.reply_address):
            log.warning("error reply to %s suppressed: rate limit", inbound.reply_address)
            return None
        tag = f"[{view.id} T{view.turn}]" if view is not None else "[gm]"
        original = inbound.subject or "your mail"
        subject = f"{tag} {label}: {original}" if label else f"{tag} {original}"
        oid = self.queue(inbound.reply_address, subject[:200], body, kind=kind,
                         game_id=view.id if view else None, turn=view.turn if view else None,
                         in_reply_to=inbound.message_id, references=inbound.references,
                         auto="auto-replied")
        if view is not None:
            self.archive(view, archive_player, kind if kind != "error" else "reply", body, oid)
        return oid

    def over_error_limit(self, address: str) -> bool:
        sent = self.store.error_replies_since(address, self.clock() - 3600)
        return sent >= self.config.error_replies_per_hour
