"""Games, players and the history log."""

from __future__ import annotations

import secrets
import time

from gm.core import addresses
from gm.store import service as service_sql
from gm.store.gamerows import GameRow, HistoryRow
from gm.store.repository import Repository
from gm.store.sql import bound, inserting, prepared, single, updating, upsert, whole_rows

ADD_GAME = inserting("games", ("id", "kind", "seed", "options", "status", "created", "updated", "token_salt"))
SET_STATUS = updating("games", where=("id",), set=("status", "updated"))  # set_game_status's, deferred
ADD_PLAYER = inserting("players", ("game_id", "seat", "name", "email", "pw_hash", "display_name", "format",
                                   "timezone", "calendar", "language"))
NEW_PLAYER_IN_SEAT = updating("players", where=("game_id", "name"), set=("email", "pw_hash", "active", "format",
                                                                         "timezone", "calendar", "language"))
SET_ACTIVE = updating("players", where=("game_id", "name"), set=("active",))
SET_PLAYER = {column: updating("players", where=("game_id", "name"), set=(column,))
              for column in ("format", "timezone", "calendar", "language")}
LOG = inserting("history", ("game_id", "turn", "actor", "action", "detail", "at"))

GAME = prepared(lambda sa, t: whole_rows(sa, t.games).where(t.games.c.id == sa.bindparam("game")))
GAMES = prepared(lambda sa, t: whole_rows(sa, t.games).order_by(t.games.c.created, t.games.c.id))
NEWEST_GAMES = prepared(lambda sa, t: whole_rows(sa, t.games).order_by(
    t.games.c.created.desc(), t.games.c.id.desc()).limit(sa.bindparam("most")))
GAME_COUNT = prepared(lambda sa, t: sa.select(sa.func.count().label("n")).select_from(t.games))
GAMES_OF_ADDRESS = prepared(lambda sa, t: sa.select(t.games.c.id).where(sa.exists().where(
    t.players.c.game_id == t.games.c.id, t.players.c.active == 1,
    sa.func.lower(t.players.c.email) == sa.func.lower(sa.bindparam("email")))).order_by(
    t.games.c.created.desc(), t.games.c.id.desc()).limit(sa.bindparam("most")))
ACTIVE_GAMES = prepared(lambda sa, t: sa.select(t.games.c.id).where(t.games.c.status == "active"))
ACCEPTED_ORDER_COUNT = prepared(lambda sa, t: sa.select(sa.func.count().label("n")).select_from(t.orders).where(
    t.orders.c.game_id == sa.bindparam("game"), t.orders.c.action == "order", t.orders.c.accepted == 1))
ORDER_ORIGINS_SINCE = prepared(lambda sa, t: sa.select(t.orders.c.player, t.orders.c.origin).where(
    t.orders.c.game_id == sa.bindparam("game"), t.orders.c.action == "order", t.orders.c.accepted == 1,
    t.orders.c.seq >= sa.bindparam("seq")).order_by(t.orders.c.id))
PLAYERS = prepared(lambda sa, t: whole_rows(sa, t.players).where(
    t.players.c.game_id == sa.bindparam("game")).order_by(t.players.c.seat))
PLAYER = prepared(lambda sa, t: whole_rows(sa, t.players).where(
    t.players.c.game_id == sa.bindparam("game"),
    sa.func.lower(t.players.c.name) == sa.func.lower(sa.bindparam("name"))))
PW_HASH_BY_EMAIL = prepared(lambda sa, t: sa.select(t.players.c.pw_hash).where(
    t.players.c.game_id == sa.bindparam("game"), sa.func.lower(t.players.c.email) == sa.bindparam("email")))
ADDRESS_SETTINGS = prepared(lambda sa, t: whole_rows(sa, t.address_settings).where(
    t.address_settings.c.address == sa.bindparam("address")))
SAVE_ADDRESS_SETTINGS = upsert("address_settings", "address")
SEATS_OF_ADDRESS = prepared(lambda sa, t: sa.select(t.players.c.game_id, t.players.c.name).where(
    sa.func.lower(t.players.c.email) == sa.func.lower(sa.bindparam("email"))))
HISTORY = prepared(lambda sa, t: whole_rows(sa, t.history).where(t.history.c.game_id == sa.bindparam("game")).order_by(
    t.history.c.id))
ACTIONS_SINCE = prepared(lambda sa, t: sa.select(sa.func.count().label("n")).select_from(t.history).where(
    t.history.c.game_id == sa.bindparam("game"), t.history.c.actor == sa.bindparam("actor"),
    t.history.c.action == sa.bindparam("action"), t.history.c.at >= sa.bindparam("since")))
LAST_LOGGED = prepared(lambda sa, t: sa.select(sa.func.max(t.history.c.at).label("at")).where(
    t.history.c.game_id == sa.bindparam("game"), t.history.c.actor == sa.bindparam("actor"),
    t.history.c.action == sa.bindparam("action")))


class Games(Repository):
    """Games: their rows, settings and deletion."""

    def game(self, game_id: str) -> GameRow | None:
        """The games row of ``game_id``, or None."""
        return self.store.remembered("games", ("id", game_id),
                                     lambda: GameRow.maybe(GAME.run(self.store, game=game_id).fetchone()))

    def every_game(self) -> list[GameRow]:
        """Every game, oldest first."""
        return GameRow.every(GAMES.run(self.store).fetchall())

    def newest_games(self, limit: int) -> list[GameRow]:
        """At most ``limit`` games, newest first (the LIST mail command)."""
        return GameRow.every(NEWEST_GAMES.run(self.store, most=limit).fetchall())

    def game_count(self) -> int:
        """How many games there are, in every status."""
        return int(single(GAME_COUNT.run(self.store))["n"])

    def game_ids_of_address(self, email: str, limit: int) -> list[str]:
        """The games (newest first, at most ``limit``) where a seat still in the game is registered
        to ``email`` (compared lower-cased): the SUMMARY mail command."""
        return [r["id"] for r in GAMES_OF_ADDRESS.run(self.store, email=email, most=limit).fetchall()]

    def active_game_ids(self) -> list[str]:
        """The ids of the games whose status is 'active'."""
        return [r["id"] for r in ACTIVE_GAMES.run(self.store).fetchall()]

    def add_game(self, game_id: str, kind: str, seed: int, options: str, now: float,
                 status: str = "active") -> None:
        """A new game; ``options`` is the JSON of its raw key=value options.  Its token salt is
        drawn here, so no game is made without one (gm.core.tokens)."""
        self.store.insert_row(ADD_GAME, id=game_id, kind=kind, seed=seed, options=options,
                              status=status, created=now, updated=now, token_salt=secrets.token_hex(16))

    def set_game_status(self, game_id: str, status: str, now: float) -> None:
        """Set a game's status (active | paused | finished) and its updated time."""
        known, row = self.store.already_read("games", ("id", game_id))  # a GameRow, or None
        self.store.defer("games", "status", lambda rows: [  # at the transaction's end (gm.store.deferred)
            bound(SET_STATUS, self.store.kind, dict(status=s, updated=u, id=i)) for s, u, i in rows],
            (status, now, game_id))
        if known and row is not None:  # written through: the game is not read again for it
            self.store.remember_written("games", ("id", game_id), row.changed(status=status, updated=now))

    # Every table that holds rows of one game, children before ``games`` itself (foreign keys).
    # ``messages`` and ``outbox`` are not here: they are the record of mail received and sent.
    GAME_TABLES = ("reports", "orders", "states", "players", "history", "game_settings", "deadlines",
                   "absences", "state_overrides", "results", "timers", "open_games", "observers",
                   "address_codes", "credential_failures", "credential_locks", "bounce_holds", "draw_proposals",
                   "conditional_lines", "takebacks", "mail_threads", "seat_paces", "held_letters",
                   "calendar_events", "away_notices",
                   "games")

    def delete_game(self, game_id: str) -> dict[str, int]:
        """Remove every row of a game from every game table; returns the rows removed per table.

        Must run inside write(), so that the game goes all at once or not at all.
        """
        if not self.store.in_transaction:
            raise RuntimeError("writes must run inside Store.write()")
        return {table: GAME_DELETES[table].run(self.store, game=game_id).rowcount for table in self.GAME_TABLES}

    def settings_of(self, game_id: str) -> dict[str, str]:
        """The service options stored for a game (defaults are the caller's)."""
        return self.store.remembered("game_settings", ("game", game_id), lambda: {r["key"]: r["value"] for r in
                               service_sql.SETTINGS.run(self.store, game=game_id).fetchall()})

    def save_setting(self, game_id: str, key: str, value: str) -> None:
        """Set one service option of a game."""
        self._require_tx()
        service_sql.SAVE_SETTING.run(self.store, game_id=game_id, key=key, value=value)

    def save_settings(self, game_id: str, settings: dict[str, str]) -> None:
        """Set several service options of a game, in one transaction."""
        with self.store.write(games=[game_id]):
            for key, value in settings.items():
                self.save_setting(game_id, key, value)


class History(Repository):
    """The history log of what was done in each game."""

    def log(self, game_id: str, turn: int, actor: str, action: str, detail: str = "",
            now: float | None = None) -> None:
        """Append a line to a game's history (who did what, when)."""
        self.store.insert_row(LOG, game_id=game_id, turn=turn, actor=actor, action=action,
                              detail=detail, at=now or time.time())

    def history_of(self, game_id: str) -> list[HistoryRow]:
        """A game's history lines, oldest first."""
        return HistoryRow.every(HISTORY.run(self.store, game=game_id).fetchall())

    def actions_since(self, game_id: str, actor: str, action: str, since: float) -> int:
        """How many history lines of ``action`` by ``actor`` a game has had since ``since``."""
        return int(single(ACTIONS_SINCE.run(self.store, game=game_id, actor=actor, action=action, since=since))["n"])

    def last_logged(self, game_id: str, actor: str, action: str) -> float | None:
        """When ``actor`` last had a history line of ``action`` in the game (None: never)."""
        row = LAST_LOGGED.run(self.store, game=game_id, actor=actor, action=action).fetchone()
        return row["at"] if row is not None else None


def settings_key(email: str) -> str:
    """The key of an address's settings: the one form gm keeps addresses in (gm.core.addresses)."""
    return addresses.normal(email) or email.strip().lower()


# a DELETE of a game's rows for each game table (delete_game): ``games`` by its id, the others by game_id
GAME_DELETES = {table: prepared(lambda sa, t, table=table: sa.delete(t.metadata.tables[table]).where(
    t.metadata.tables[table].c["id" if table == "games" else "game_id"] == sa.bindparam("game")))
    for table in Games.GAME_TABLES}
