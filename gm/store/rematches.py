"""REMATCH offers after a two-player game (gm.service.people.rematch): one row per ended game.

The row names the seat that offered and when; a later offer, once the first lapsed, takes its
place; ``new_game_id`` is set once the other seat accepted and the new game began, and then
nothing changes it.
"""

from __future__ import annotations

from gm.store.record import Record, record
from gm.store.repository import Repository
from gm.store.sql import inserting, prepared, updating

OFFER = prepared(lambda sa, t: sa.select(t.rematch_offers).where(
    t.rematch_offers.c.game_id == sa.bindparam("game")))
ADD_OFFER = inserting("rematch_offers", ("game_id", "offered_by", "offered"))
RENEW_OFFER = updating("rematch_offers", where=("game_id",), set=("offered_by", "offered"))
SET_STARTED = updating("rematch_offers", where=("game_id",), set=("new_game_id",))


@record
class RematchRow(Record):
    """A rematch_offers row: who offered a rematch of ``game_id``, when, and the game it became."""

    game_id: str
    offered_by: str
    offered: float
    new_game_id: str | None = None


class Rematches(Repository):
    """The rematch offers of ended games."""

    def offer(self, game_id: str) -> RematchRow | None:
        """The offer made after ``game_id``, or None."""
        return RematchRow.maybe(OFFER.run(self.store, game=game_id).fetchone())

    def make_offer(self, game_id: str, seat: str, now: float) -> None:
        """``seat`` offers a rematch of ``game_id`` now, in place of any offer not taken up."""
        self._require_tx()
        if self.offer(game_id) is None:
            self.store.insert_row(ADD_OFFER, game_id=game_id, offered_by=seat, offered=now)
        else:
            self.store.update_rows(RENEW_OFFER, game_id=game_id, offered_by=seat, offered=now)

    def started(self, game_id: str, new_game_id: str) -> None:
        """The offer after ``game_id`` was accepted: ``new_game_id`` began."""
        self._require_tx()
        self.store.update_rows(SET_STARTED, game_id=game_id, new_game_id=new_game_id)
