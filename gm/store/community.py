"""The players the community sees: public names, rated games, their results and the ratings.

A public player is a seat name and address pair, or an address for all its seats once it linked
them (SET NAME ... ALL), under an opaque id and a unique public name (compared casefolded): pages
and ladders show the name, never the address.  rated_games says per rated game that ended whether
it was rated; rated_results each player's rank in it and rating after; ratings the current rating
per game kind (openskill's mu and sigma, gm.core.rating).
"""

from __future__ import annotations

import secrets
from typing import Any

from gm.core import rating
from gm.store.record import Record, record
from gm.store.repository import Repository
from gm.store.sql import inserting, prepared, updating, upsert


@record
class PublicPlayer(Record):
    """A public_players row: who a rated player is to the community."""

    player_id: str
    address: str
    seat_name: str  # '' for every seat of the address (linked)
    name: str
    chosen: int  # 1: the player chose the name (SET NAME); 0: gm gave it
    updated: float


@record
class RatingRow(Record):
    """A ratings row: a player's current rating in one game kind."""

    kind: str
    player_id: str
    mu: float
    sigma: float
    games: int
    last_game: str
    last_played: float


@record
class RatedResultRow(Record):
    """A rated_results row: a player's rank in a rated game and rating after it."""

    game_id: str
    player_id: str
    kind: str
    seat: str
    rank: int
    ended: float
    mu: float
    sigma: float


@record
class RatedGameRow(Record):
    """A rated_games row: a rated game that ended, and whether (else why not) it was rated."""

    game_id: str
    kind: str
    ended: float
    rated: int
    reason: str


LINKED = ""  # the seat name of an address's row for all its seats


def name_key(name: str) -> str:
    """What makes two public names the same: their casefolded forms."""
    return name.casefold()


def new_player_id() -> str:
    """An opaque player id: 16 random hex digits."""
    return secrets.token_hex(8)


def where_player(sa: Any, t: Any) -> Any:
    return t.public_players.c.player_id == sa.bindparam("player")


PLAYER = prepared(lambda sa, t: sa.select(t.public_players).where(where_player(sa, t)))
BY_NAME_KEY = prepared(lambda sa, t: sa.select(t.public_players).where(
    t.public_players.c.name_key == sa.bindparam("key")))
AT_SEAT = prepared(lambda sa, t: sa.select(t.public_players).where(
    t.public_players.c.address == sa.bindparam("address"), t.public_players.c.seat_name == sa.bindparam("seat")))
OF_ADDRESS = prepared(lambda sa, t: sa.select(t.public_players).where(
    t.public_players.c.address == sa.bindparam("address")).order_by(t.public_players.c.seat_name))
ADD_PLAYER = inserting("public_players", ("player_id", "address", "seat_name", "name", "name_key", "chosen",
                                          "updated"))
RENAME = updating("public_players", where=("player_id",), set=("name", "name_key", "chosen", "updated"))

RATING = prepared(lambda sa, t: sa.select(t.ratings).where(
    t.ratings.c.kind == sa.bindparam("kind"), t.ratings.c.player_id == sa.bindparam("player")))
RATINGS_OF_KIND = prepared(lambda sa, t: sa.select(t.ratings).where(t.ratings.c.kind == sa.bindparam("kind")))
KINDS_RATED = prepared(lambda sa, t: sa.select(t.ratings.c.kind).distinct().order_by(t.ratings.c.kind))
SET_RATING = upsert("ratings", "kind", "player_id")
CLEAR_RATINGS = prepared(lambda sa, t: sa.delete(t.ratings).where(t.ratings.c.kind == sa.bindparam("kind")))

RESULTS_OF = prepared(lambda sa, t: sa.select(t.rated_results).where(
    t.rated_results.c.player_id == sa.bindparam("player")).order_by(
    t.rated_results.c.ended, t.rated_results.c.game_id))
RESULTS_OF_KIND = prepared(lambda sa, t: sa.select(t.rated_results).where(
    t.rated_results.c.kind == sa.bindparam("kind")).order_by(
    t.rated_results.c.ended, t.rated_results.c.game_id, t.rated_results.c.rank, t.rated_results.c.player_id))
RESULTS_OF_GAME = prepared(lambda sa, t: sa.select(t.rated_results).where(
    t.rated_results.c.game_id == sa.bindparam("game")).order_by(t.rated_results.c.rank, t.rated_results.c.seat))
ADD_RESULT = inserting("rated_results", RatedResultRow.columns)
SET_RESULT_RATING = updating("rated_results", where=("game_id", "player_id"), set=("mu", "sigma"))
MOVE_RESULT = prepared(lambda sa, t: sa.update(t.rated_results).where(
    t.rated_results.c.game_id == sa.bindparam("game"), t.rated_results.c.player_id == sa.bindparam("player")).values(
    player_id=sa.bindparam("to")))
DROP_RESULT = prepared(lambda sa, t: sa.delete(t.rated_results).where(
    t.rated_results.c.game_id == sa.bindparam("game"), t.rated_results.c.player_id == sa.bindparam("player")))
DROP_GAME_RESULTS = prepared(lambda sa, t: sa.delete(t.rated_results).where(
    t.rated_results.c.game_id == sa.bindparam("game")))

RATED_GAME = prepared(lambda sa, t: sa.select(t.rated_games).where(t.rated_games.c.game_id == sa.bindparam("game")))
ADD_RATED_GAME = inserting("rated_games", RatedGameRow.columns)
DROP_RATED_GAME = prepared(lambda sa, t: sa.delete(t.rated_games).where(
    t.rated_games.c.game_id == sa.bindparam("game")))


class Community(Repository):
    """Public players, rated games and results, ratings."""

    # --- public players ----------------------------------------------------------------------
    def player(self, player_id: str) -> PublicPlayer | None:
        return PublicPlayer.maybe(PLAYER.run(self.store, player=player_id).fetchone())

    def by_name(self, name: str) -> PublicPlayer | None:
        """The player of this public name, compared casefolded."""
        return PublicPlayer.maybe(BY_NAME_KEY.run(self.store, key=name_key(name)).fetchone())

    def player_at(self, address: str, seat_name: str) -> PublicPlayer | None:
        """The row of this pair (seat_name LINKED: the address's linked row), if one was made."""
        return PublicPlayer.maybe(AT_SEAT.run(self.store, address=address.lower(), seat=seat_name).fetchone())

    def players_of(self, address: str) -> list[PublicPlayer]:
        """Every row of an address: its linked row ('' first) and its pairs."""
        return PublicPlayer.every(OF_ADDRESS.run(self.store, address=address.lower()))

    def player_id_for(self, address: str, seat_name: str, now: float) -> str:
        """The id a seat's results count for: the address's linked row if it linked its seats,
        else its (address, seat name) pair's, made when new under the seat name (made unique)."""
        self._require_tx()
        for seat in (LINKED, seat_name):
            found = self.player_at(address, seat)
            if found is not None:
                return found.player_id
        player_id = new_player_id()
        name = self.free_name(seat_name or "player")
        self.store.insert_row(ADD_PLAYER, player_id=player_id, address=address.lower(), seat_name=seat_name,
                              name=name, name_key=name_key(name), chosen=0, updated=now)
        return player_id

    def free_name(self, wanted: str) -> str:
        """``wanted`` if no player has it, else the first of "wanted-2", "wanted-3"... free."""
        name, n = wanted, 1
        while self.by_name(name) is not None:
            n += 1
            name = f"{wanted}-{n}"
        return name

    def rename(self, player_id: str, name: str, now: float, chosen: bool = True) -> None:
        """Give a player a public name (the caller checked that no other player has it)."""
        self.store.update_rows(RENAME, player_id=player_id, name=name, name_key=name_key(name),
                               chosen=int(chosen), updated=now)

    def link(self, address: str, name: str, now: float) -> str:
        """Make (or rename) the address's linked row under ``name``, chosen; its id.  The results of
        its pairs are then moved to it by the caller (move_results) and the ratings recomputed."""
        self._require_tx()
        found = self.player_at(address, LINKED)
        if found is not None:
            self.rename(found.player_id, name, now)
            return found.player_id
        player_id = new_player_id()
        self.store.insert_row(ADD_PLAYER, player_id=player_id, address=address.lower(), seat_name=LINKED,
                              name=name, name_key=name_key(name), chosen=1, updated=now)
        return player_id

    # --- ratings -------------------------------------------------------------------------------
    def rating(self, kind: str, player_id: str) -> RatingRow | None:
        return RatingRow.maybe(RATING.run(self.store, kind=kind, player=player_id).fetchone())

    def ladder(self, kind: str) -> list[RatingRow]:
        """The ratings of a kind, best ordinal (gm.core.rating) first."""
        rows = RatingRow.every(RATINGS_OF_KIND.run(self.store, kind=kind))
        return sorted(rows, key=lambda r: (-rating.ordinal(r.mu, r.sigma), -r.games, r.player_id))

    def kinds_rated(self) -> list[str]:
        """The game kinds anyone has a rating in, by name."""
        return [r["kind"] for r in KINDS_RATED.run(self.store)]

    def set_rating(self, row: RatingRow) -> None:
        self._require_tx()
        SET_RATING.run(self.store, **row.as_dict())

    def clear_ratings(self, kind: str) -> None:
        """Drop every rating of a kind (before they are recomputed from the results)."""
        self._require_tx()
        CLEAR_RATINGS.run(self.store, kind=kind)

    # --- rated games and results --------------------------------------------------------------
    def rated_game(self, game_id: str) -> RatedGameRow | None:
        return RatedGameRow.maybe(RATED_GAME.run(self.store, game=game_id).fetchone())

    def record_game(self, row: RatedGameRow) -> None:
        """A rated game ended: whether it was rated (its results are added beside)."""
        self.store.insert_row(ADD_RATED_GAME, **row.as_dict())

    def add_result(self, row: RatedResultRow) -> None:
        self.store.insert_row(ADD_RESULT, **row.as_dict())

    def set_result_rating(self, game_id: str, player_id: str, mu: float, sigma: float) -> None:
        """The rating after a game, as recomputed."""
        self.store.update_rows(SET_RESULT_RATING, game_id=game_id, player_id=player_id, mu=mu, sigma=sigma)

    def results_of(self, player_id: str) -> list[RatedResultRow]:
        """A player's results, in the order the games ended."""
        return RatedResultRow.every(RESULTS_OF.run(self.store, player=player_id))

    def results_of_kind(self, kind: str) -> list[RatedResultRow]:
        """Every result of a kind, game by game in the order they ended (a game's best rank first)."""
        return RatedResultRow.every(RESULTS_OF_KIND.run(self.store, kind=kind))

    def results_of_game(self, game_id: str) -> list[RatedResultRow]:
        """A game's results, best rank first."""
        return RatedResultRow.every(RESULTS_OF_GAME.run(self.store, game=game_id))

    def move_results(self, from_id: str, to_id: str) -> set[str]:
        """Count ``from_id``'s results for ``to_id`` (SET NAME ... ALL); where both played one game,
        ``to_id``'s result stands.  The kinds moved, whose ratings the caller recomputes."""
        self._require_tx()
        theirs = {r.game_id for r in self.results_of(to_id)}
        kinds: set[str] = set()
        for result in self.results_of(from_id):
            kinds.add(result.kind)
            if result.game_id in theirs:
                DROP_RESULT.run(self.store, game=result.game_id, player=from_id)
            else:
                MOVE_RESULT.run(self.store, game=result.game_id, player=from_id, to=to_id)
        return kinds

    def forget_game(self, game_id: str) -> None:
        """The game runs again (a GM's rollback): its rated_games row and results go."""
        self._require_tx()
        DROP_GAME_RESULTS.run(self.store, game=game_id)
        DROP_RATED_GAME.run(self.store, game=game_id)
