"""Games, players and the history log."""

from __future__ import annotations

import secrets
import sqlite3
import time

from gm.core import addresses
from gm.store.reads import changed
from gm.store.sql import bound, inserting, prepared, updating, upsert, whole_rows

ADD_GAME = inserting("games", ("id", "kind", "seed", "options", "status", "created", "updated", "token_salt"))
SET_STATUS = updating("games", where=("id",), set=("status", "updated"))  # set_game_status's, deferred
ADD_PLAYER = inserting("players", ("game_id", "seat", "name", "email", "pw_hash", "display_name", "format",
                                   "timezone"))
NEW_PLAYER_IN_SEAT = updating("players", where=("game_id", "name"), set=("email", "pw_hash", "active", "format",
                                                                         "timezone"))
SET_ACTIVE = updating("players", where=("game_id", "name"), set=("active",))
SET_PLAYER = {column: updating("players", where=("game_id", "name"), set=(column,))
              for column in ("format", "timezone")}
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


class GameQueries:
    """Mixed into Store: reads and writes of ``games``, ``players`` and ``history``."""

    # --- games ------------------------------------------------------------------
    def game(self, game_id: str) -> sqlite3.Row | None:
        """The games row of ``game_id``, or None."""
        return self.remembered("games", ("id", game_id),
                               lambda: GAME.run(self, game=game_id).fetchone())

    def games(self) -> list[sqlite3.Row]:
        """Every game, oldest first."""
        return GAMES.run(self).fetchall()

    def newest_games(self, limit: int) -> list[sqlite3.Row]:
        """At most ``limit`` games, newest first (the LIST mail command)."""
        return NEWEST_GAMES.run(self, most=limit).fetchall()

    def game_count(self) -> int:
        """How many games there are, in every status."""
        return int(GAME_COUNT.run(self).fetchone()["n"])

    def game_ids_of_address(self, email: str, limit: int) -> list[str]:
        """The games (newest first, at most ``limit``) where a seat still in the game is registered
        to ``email`` (compared lower-cased): the SUMMARY mail command."""
        return [r["id"] for r in GAMES_OF_ADDRESS.run(self, email=email, most=limit).fetchall()]

    def active_game_ids(self) -> list[str]:
        """The ids of the games whose status is 'active'."""
        return [r["id"] for r in ACTIVE_GAMES.run(self).fetchall()]

    def add_game(self, game_id: str, kind: str, seed: int, options: str, now: float,
                 status: str = "active") -> None:
        """A new game; ``options`` is the JSON of its raw key=value options.  Its token salt is
        drawn here, so no game is made without one (gm.core.tokens)."""
        self.insert_row(ADD_GAME, id=game_id, kind=kind, seed=seed, options=options,
                        status=status, created=now, updated=now, token_salt=secrets.token_hex(16))

    def set_game_status(self, game_id: str, status: str, now: float) -> None:
        """Set a game's status (active | paused | finished) and its updated time."""
        known, row = self.already_read("games", ("id", game_id))
        self.defer("games", "status", lambda rows: [  # at the transaction's end (gm.store.deferred)
            bound(SET_STATUS, self.kind, dict(status=s, updated=u, id=i)) for s, u, i in rows], (status, now, game_id))
        if known and row is not None:  # written through: the game is not read again for it
            self.remember_written("games", ("id", game_id), changed(row, status=status, updated=now))

    # Every table that holds rows of one game, children before ``games`` itself (foreign keys).
    # ``messages`` and ``outbox`` are not here: they are the record of mail received and sent.
    GAME_TABLES = ("reports", "orders", "states", "players", "history", "game_settings", "deadlines",
                   "absences", "state_overrides", "results", "timers", "open_games", "observers",
                   "address_codes", "credential_failures", "credential_locks", "bounce_holds", "draw_proposals",
                   "games")

    def accepted_order_count(self, game_id: str) -> int:
        """How many players' orders of a game went through the rules (turn closes not counted)."""
        return int(ACCEPTED_ORDER_COUNT.run(self, game=game_id).fetchone()["n"])

    def order_origins_since(self, game_id: str, seq: int) -> dict[str, str]:
        """Each player's latest accepted order that made state ``seq`` or a later one: its origin."""
        rows = ORDER_ORIGINS_SINCE.run(self, game=game_id, seq=seq).fetchall()
        return {r["player"]: r["origin"] for r in rows}

    def delete_game(self, game_id: str) -> dict[str, int]:
        """Remove every row of a game from every game table; returns the rows removed per table.

        Must run inside write(), so that the game goes all at once or not at all.
        """
        if not self.in_transaction:
            raise RuntimeError("writes must run inside Store.write()")
        return {table: GAME_DELETES[table].run(self, game=game_id).rowcount for table in self.GAME_TABLES}

    # --- players ----------------------------------------------------------------
    def players(self, game_id: str) -> list[sqlite3.Row]:
        """A game's players in seat order (ejected ones too: see ``active``)."""
        return self.remembered("players", ("game", game_id),
                               lambda: PLAYERS.run(self, game=game_id).fetchall())

    def player(self, game_id: str, name: str) -> sqlite3.Row | None:
        """One player of a game by name, case-insensitively."""
        return PLAYER.run(self, game=game_id, name=name).fetchone()

    def add_player(self, game_id: str, seat: int, name: str, email: str, pw_hash: str,
                   display_name: str = "") -> None:
        """Seat a player in a new game, with the settings its address gave all its games (SET ... ALL);
        ``display_name``: as their address was given, if it was."""
        self.insert_row(ADD_PLAYER, game_id=game_id, seat=seat, name=name, email=email, pw_hash=pw_hash,
                        display_name=display_name, **self.address_defaults(email))

    def pw_hash_by_email(self, game_id: str, email: str) -> str | None:
        """The password hash of the player of ``game_id`` at ``email`` (lower-cased), or None."""
        row = PW_HASH_BY_EMAIL.run(self, game=game_id, email=email).fetchone()
        return None if row is None else row["pw_hash"]

    def replace_seat(self, game_id: str, name: str, email: str, pw_hash: str) -> None:
        """Give a seat to a new player: new address and password, active again, and the new player's
        settings (SET ... ALL; none: the game's), never the one who left."""
        self.update_rows(NEW_PLAYER_IN_SEAT, game_id=game_id, name=name,
                         email=email, pw_hash=pw_hash, active=1, **self.address_defaults(email))

    def reactivate_player(self, game_id: str, name: str) -> None:
        """Seat a removed player again (a rollback to before they left)."""
        self.update_rows(SET_ACTIVE, game_id=game_id, name=name, active=1)

    def set_player_format(self, game_id: str, name: str, fmt: str) -> None:
        """A player's report format (html | text), SET FORMAT."""
        self.update_rows(SET_PLAYER["format"], game_id=game_id, name=name, format=fmt)

    def set_player_timezone(self, game_id: str, name: str, zone: str | None) -> None:
        """A player's time zone (an IANA name; None: UTC), SET TIMEZONE."""
        self.update_rows(SET_PLAYER["timezone"], game_id=game_id, name=name, timezone=zone)

    # --- settings of an address (SET ... ALL) -------------------------------------
    def address_settings(self, email: str) -> sqlite3.Row | None:
        """The address_settings row (format, timezone) of ``email``, or None."""
        return ADDRESS_SETTINGS.run(self, address=settings_key(email)).fetchone()

    def address_defaults(self, email: str) -> dict[str, str | None]:
        """format and timezone a new seat of ``email`` starts with (None: the game's, UTC)."""
        row = self.address_settings(email)
        return {"format": row["format"] if row else None, "timezone": row["timezone"] if row else None}

    def set_address_setting(self, email: str, column: str, value: str | None, now: float) -> list[str]:
        """SET FORMAT|TIMEZONE ... ALL: ``column`` (format | timezone) for the address's seats to come
        and every seat it holds; returns the ids of the games whose seats changed."""
        if column not in ("format", "timezone"):
            raise ValueError(column)
        self._require_tx()
        values = {**self.address_defaults(email), column: value}
        SAVE_ADDRESS_SETTINGS.run(self, address=settings_key(email), format=values["format"],
                                  timezone=values["timezone"], updated=now)
        rows = SEATS_OF_ADDRESS.run(self, email=email.strip()).fetchall()
        for row in rows:
            self.update_rows(SET_PLAYER[column], game_id=row["game_id"], name=row["name"], **{column: value})
        return sorted({row["game_id"] for row in rows})

    def deactivate_player(self, game_id: str, name: str) -> None:
        """Mark a player as having left the game (gm eject)."""
        self.update_rows(SET_ACTIVE, game_id=game_id, name=name, active=0)
    # --- history ----------------------------------------------------------------
    def log(self, game_id: str, turn: int, actor: str, action: str, detail: str = "",
            now: float | None = None) -> None:
        """Append a line to a game's history (who did what, when)."""
        self.insert_row(LOG, game_id=game_id, turn=turn, actor=actor, action=action,
                        detail=detail, at=now or time.time())

    def history_of(self, game_id: str) -> list[sqlite3.Row]:
        """A game's history lines, oldest first."""
        return HISTORY.run(self, game=game_id).fetchall()

    def actions_since(self, game_id: str, actor: str, action: str, since: float) -> int:
        """How many history lines of ``action`` by ``actor`` a game has had since ``since``."""
        return ACTIONS_SINCE.run(self, game=game_id, actor=actor, action=action, since=since).fetchone()["n"]

    def last_logged(self, game_id: str, actor: str, action: str) -> float | None:
        """When ``actor`` last had a history line of ``action`` in the game (None: never)."""
        row = LAST_LOGGED.run(self, game=game_id, actor=actor, action=action).fetchone()
        return row["at"] if row is not None else None


def settings_key(email: str) -> str:
    """The key of an address's settings: the one form gm keeps addresses in (gm.core.addresses)."""
    return addresses.normal(email) or email.strip().lower()


# a DELETE of a game's rows for each game table (delete_game): ``games`` by its id, the others by game_id
GAME_DELETES = {table: prepared(lambda sa, t, table=table: sa.delete(t.metadata.tables[table]).where(
    t.metadata.tables[table].c["id" if table == "games" else "game_id"] == sa.bindparam("game")))
    for table in GameQueries.GAME_TABLES}
