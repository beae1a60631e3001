"""What players change by mail themselves: open games, observers, address codes, token generations.

Every statement is a SQLAlchemy Core construct on gm.store.tables, compiled once per back end
(gm.store.sql, as gm.store.daemons).
"""

from __future__ import annotations

from typing import Any

from gm.core import addresses
from gm.store.mailboxhash import pseudonym
from gm.store.repository import Repository
from gm.store.seatrows import ObserverRow, OpenGameRow
from gm.store.sql import inserting, prepared, updating

ADD_OPEN_GAME = inserting("open_games", ("game_id", "seats", "min_seats", "created_by"))
SET_SEAT = updating("players", where=("game_id", "name"), set=("seat",))
ADD_OBSERVER = inserting("observers", ("game_id", "email", "approved", "since"))
APPROVE_OBSERVER = updating("observers", where=("game_id", "email"), set=("approved",))


def game_and_seat(sa: Any, t: Any) -> Any:
    """The players row of parameters ``game`` and ``seat`` (its exact name)."""
    return sa.and_(t.players.c.game_id == sa.bindparam("game"), t.players.c.name == sa.bindparam("seat"))


def game_and_observer(sa: Any, t: Any) -> Any:
    """The observers row of parameter ``game`` and address ``address`` (lower-cased by SQL)."""
    return sa.and_(t.observers.c.game_id == sa.bindparam("game"),
                   t.observers.c.email == sa.func.lower(sa.bindparam("address")))


OPEN_GAME = prepared(lambda sa, t: sa.select(t.open_games).where(t.open_games.c.game_id == sa.bindparam("game")))
# The creators of open games LIKE ``pattern`` (gm.core.addresses.key_patterns), keyed by the caller.
OPEN_GAMES_BY = prepared(lambda sa, t: sa.select(t.open_games.c.created_by).where(
    sa.func.lower(t.open_games.c.created_by).like(sa.bindparam("pattern"))))
CLOSE_OPEN_GAME = prepared(lambda sa, t: sa.delete(t.open_games).where(t.open_games.c.game_id == sa.bindparam("game")))
REMOVE_PLAYER = prepared(lambda sa, t: sa.delete(t.players).where(game_and_seat(sa, t)))
PLAYERS_AT = prepared(lambda sa, t: sa.select(t.players).where(
    t.players.c.game_id == sa.bindparam("game"),
    sa.func.lower(t.players.c.email) == sa.func.lower(sa.bindparam("address"))).order_by(t.players.c.seat))
SET_PASSWORD = prepared(lambda sa, t: sa.update(t.players).where(game_and_seat(sa, t)).values(
    pw_hash=sa.bindparam("hashed"), generation=t.players.c.generation + sa.literal_column("1")))
SET_ADDRESS = prepared(lambda sa, t: sa.update(t.players).where(game_and_seat(sa, t)).values(
    email=sa.bindparam("address"), generation=t.players.c.generation + sa.literal_column("1")))
BUMP_GENERATION = prepared(lambda sa, t: sa.update(t.players).where(game_and_seat(sa, t)).values(
    generation=t.players.c.generation + sa.literal_column("1")))
OBSERVER = prepared(lambda sa, t: sa.select(t.observers).where(game_and_observer(sa, t)))
REMOVE_OBSERVER = prepared(lambda sa, t: sa.delete(t.observers).where(game_and_observer(sa, t)))
OBSERVERS_OF = prepared(lambda sa, t: sa.select(t.observers.c.email).where(
    t.observers.c.game_id == sa.bindparam("game"), t.observers.c.approved == sa.bindparam("yes")).order_by(
    t.observers.c.since, t.observers.c.email))
GAMES_OBSERVED_BY = prepared(lambda sa, t: sa.select(t.observers.c.game_id).join(
    t.games, t.games.c.id == t.observers.c.game_id).where(
    t.observers.c.email == sa.func.lower(sa.bindparam("address")), t.observers.c.approved == 1).order_by(
    t.games.c.created.desc(), t.games.c.id.desc()).limit(sa.bindparam("most")))
ADDRESS_CODE = prepared(lambda sa, t: sa.select(t.address_codes).where(
    t.address_codes.c.code_hash == sa.bindparam("code")))


class SelfService(Repository):
    """Open games and observers."""

    def open_game(self, game_id: str) -> OpenGameRow | None:
        """The open_games row (seats, min_seats, created_by) of a game waiting for players."""
        return OpenGameRow.maybe(OPEN_GAME.run(self.store, game=game_id).fetchone())

    def add_open_game(self, game_id: str, seats: int, min_seats: int, created_by: str) -> None:
        self.store.insert_row(ADD_OPEN_GAME, game_id=game_id, seats=seats, min_seats=min_seats, created_by=created_by)

    def open_games_created_by(self, created_by: str) -> int:
        """How many games still waiting for players were opened by ``created_by``'s mailbox (CREATE;
        every spelling of it counts: gm.core.addresses.mailbox_key; and its pseudonym, once it
        was forgotten: gm.store.mailboxhash)."""
        key, forgotten = addresses.mailbox_key(created_by), pseudonym(self.store, created_by)
        return sum(addresses.mailbox_key(row["created_by"]) in (key, forgotten)
                   for pattern in (*addresses.key_patterns(key), forgotten)
                   for row in OPEN_GAMES_BY.run(self.store, pattern=pattern))

    def close_open_game(self, game_id: str) -> None:
        """The game has started: it no longer waits for players."""
        self._require_tx()
        CLOSE_OPEN_GAME.run(self.store, game=game_id)

    def observer(self, game_id: str, email: str) -> ObserverRow | None:
        """The observers row of ``email`` (compared lower-cased) for a game, or None."""
        return ObserverRow.maybe(OBSERVER.run(self.store, game=game_id, address=email).fetchone())

    def add_observer(self, game_id: str, email: str, approved: bool, now: float) -> None:
        self.store.insert_row(ADD_OBSERVER, game_id=game_id, email=email.lower(), approved=int(approved), since=now)

    def approve_observer(self, game_id: str, email: str) -> int:
        return self.store.update_rows(APPROVE_OBSERVER, game_id=game_id, email=email.lower(), approved=1)

    def remove_observer(self, game_id: str, email: str) -> int:
        self._require_tx()
        return REMOVE_OBSERVER.run(self.store, game=game_id, address=email).rowcount

    def observers_of(self, game_id: str, approved: bool = True) -> list[str]:
        """The addresses following a game (approved ones, or those waiting for the GM)."""
        return self.store.remembered("observers", ("of", game_id, bool(approved)), lambda: [
            r["email"] for r in OBSERVERS_OF.run(self.store, game=game_id, yes=int(approved)).fetchall()])

    def game_ids_observed_by(self, email: str, limit: int) -> list[str]:
        """The games (newest first) this address follows as an approved observer (SUMMARY)."""
        return [r["game_id"] for r in GAMES_OBSERVED_BY.run(self.store, address=email, most=limit).fetchall()]
