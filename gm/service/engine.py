"""The service as the daemon and the command line use it: one object, each method one use case.

Engine is a Context (store, config, clock, outbox, password checks) with the
use cases of gm.service.* attached; it holds no logic, and nothing of any one
mail (a mail is judged in a context of its own: Context.for_mail).  The data
flow: mail (gm.mail) -> ingest -> judging's steps -> turns (the rules) ->
reports (gm.present) -> outbox -> gm.runtime.delivery (SMTP or a Maildir).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gm.core.model import GameView, Outcome
from gm.service.context import Context

if TYPE_CHECKING:
    from games.base import Event
    from gm.mail.inbound import Inbound


class Engine(Context):
    # --- games -------------------------------------------------------------------
    def create_game(self, kind: str, game_id: str, players: list[tuple[str, str]],
                    seed: int | None = None, options: dict[str, str] | None = None,
                    language: str | None = None) -> dict[str, str]:
        from gm.service.play import lifecycle

        return lifecycle.create_game(self, kind, game_id, players, seed, options, language)

    def load(self, game_id: str) -> GameView:
        from gm.service.table import games

        return games.load(self.store, game_id)

    # --- mail in ---------------------------------------------------------------------
    def prepare(self, raw: bytes) -> Inbound | None:
        from gm.service.intake import ingest

        return ingest.prepare(self, raw)

    def slice_key(self, raw: bytes) -> str:
        from gm.service.intake import ingest

        return ingest.slice_key(self, raw)

    def ingest(self, raw: bytes, source_key: str | None = None,
               inbound: Inbound | None = None, arrived: float | None = None) -> Outcome:
        from gm.service.intake import ingest

        return ingest.ingest(self, raw, source_key, inbound, arrived)

    # --- turns -----------------------------------------------------------------------
    def gm_order(self, game_id: str, name: str, text: str) -> Outcome:
        from gm.service.play import gmturns

        return gmturns.gm_order(self, game_id, name, text)

    def process(self, game_id: str) -> bool:
        from gm.service.play import gmturns

        return gmturns.process(self, game_id)

    def tick(self) -> list[str]:
        from gm.service.play import timers

        return timers.tick(self)

    def trim_sent_mail(self) -> int:
        """Trim the stored copies of mail sent over a day ago to their words (a few a call)."""
        from gm.service.records import retention

        return retention.trim_sent(self.store, self.clock())

    # --- what players read ---------------------------------------------------------------
    def report_body(self, view: GameView, state: Any, viewer: str | None, events: list[Event]) -> str:
        from gm.service.outgoing import reports

        if state is not view.state:
            view = GameView(view.row, view.rules, state, view.seq, view.players)
        return reports.report_body(self, view, viewer, events)

    def queue_reports(self, view: GameView, events: list[Event]) -> None:
        from gm.service.outgoing import reports

        reports.queue_reports(self, view, events)
