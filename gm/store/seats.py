"""Seats: the players table, and each address's settings."""

from __future__ import annotations

from gm.store import credentials as credentials_sql
from gm.store import delivery as delivery_sql
from gm.store import games as games_sql
from gm.store import pace as pace_sql
from gm.store import selfservice as selfservice_sql
from gm.store.repository import Repository
from gm.store.seatrows import AddressSeatRow, AddressSettingsRow, SeatKey, SeatRow

SETTINGS = ("format", "timezone", "calendar", "language")  # what SET ... ALL gives an address's seats


class Seats(Repository):
    """Seats (the players table) and each address's settings."""

    def players(self, game_id: str) -> list[SeatRow]:
        """A game's players in seat order (ejected ones too: see ``active``)."""
        return self.store.remembered("players", ("game", game_id),
                                     lambda: SeatRow.every(games_sql.PLAYERS.run(self.store, game=game_id)))

    def player(self, game_id: str, name: str) -> SeatRow | None:
        """One player of a game by name, case-insensitively."""
        return SeatRow.maybe(games_sql.PLAYER.run(self.store, game=game_id, name=name).fetchone())

    def add_player(self, game_id: str, seat: int, name: str, email: str, pw_hash: str,
                   display_name: str = "", language: str | None = None) -> None:
        """Seat a player in a new game, with the settings its address gave all its games (SET ... ALL);
        ``display_name``: as their address was given, if it was; ``language``: the seat's, given
        by the GM (gm new --language), else the address's."""
        settings = self.address_defaults(email)
        if language is not None:
            settings["language"] = language
        self.store.insert_row(games_sql.ADD_PLAYER, game_id=game_id, seat=seat, name=name, email=email, pw_hash=pw_hash,
                              display_name=display_name, **settings)
        pace_sql.seat_takes_address_pace(self.store, game_id, name, email)

    def pw_hash_by_email(self, game_id: str, email: str) -> str | None:
        """The password hash of the player of ``game_id`` at ``email`` (lower-cased), or None."""
        row = games_sql.PW_HASH_BY_EMAIL.run(self.store, game=game_id, email=email).fetchone()
        return None if row is None else row["pw_hash"]

    def replace_seat(self, game_id: str, name: str, email: str, pw_hash: str) -> None:
        """Give a seat to a new player: new address and password, active again, and the new player's
        settings (SET ... ALL; none: the game's), never the one who left."""
        self.store.update_rows(games_sql.NEW_PLAYER_IN_SEAT, game_id=game_id, name=name,
                               email=email, pw_hash=pw_hash, active=1, **self.address_defaults(email))
        pace_sql.seat_takes_address_pace(self.store, game_id, name, email)

    def reactivate_player(self, game_id: str, name: str) -> None:
        """Seat a removed player again (a rollback to before they left)."""
        self.store.update_rows(games_sql.SET_ACTIVE, game_id=game_id, name=name, active=1)

    def set_player_format(self, game_id: str, name: str, fmt: str) -> None:
        """A player's report format (html | text), SET FORMAT."""
        self.store.update_rows(games_sql.SET_PLAYER["format"], game_id=game_id, name=name, format=fmt)

    def set_player_timezone(self, game_id: str, name: str, zone: str | None) -> None:
        """A player's time zone (an IANA name; None: UTC), SET TIMEZONE."""
        self.store.update_rows(games_sql.SET_PLAYER["timezone"], game_id=game_id, name=name, timezone=zone)

    def set_player_calendar(self, game_id: str, name: str, value: str | None) -> None:
        """Whether a player's reports carry the deadline as a calendar event ('on'), SET CALENDAR."""
        self.store.update_rows(games_sql.SET_PLAYER["calendar"], game_id=game_id, name=name, calendar=value)

    def set_player_language(self, game_id: str, name: str, language: str | None) -> None:
        """The language a player's mail is written in (en | de | fr; None: not set), SET LANGUAGE."""
        self.store.update_rows(games_sql.SET_PLAYER["language"], game_id=game_id, name=name, language=language)

    def deactivate_player(self, game_id: str, name: str) -> None:
        """Mark a player as having left the game (gm eject)."""
        self.store.update_rows(games_sql.SET_ACTIVE, game_id=game_id, name=name, active=0)

    def address_settings(self, email: str) -> AddressSettingsRow | None:
        """The address_settings row (format, timezone, calendar, language) of ``email``, or None."""
        return AddressSettingsRow.maybe(games_sql.ADDRESS_SETTINGS.run(
            self.store, address=games_sql.settings_key(email)).fetchone())

    def language_of(self, game_id: str | None, email: str) -> str | None:
        """The language set for mail to ``email`` about ``game_id``: its seat's there (which took its
        address's, SET LANGUAGE ... ALL), else, holding no seat there, its address's; None: none."""
        seats = self.players_at(game_id, email) if game_id is not None else []
        if seats:
            return seats[0].language
        row = self.address_settings(email)
        return row.language if row is not None else None

    def address_defaults(self, email: str) -> dict[str, str | None]:
        """format, timezone, calendar and language a new seat of ``email`` starts with (None: the
        game's, UTC, off, not set)."""
        row = self.address_settings(email)
        return {column: getattr(row, column) if row else None for column in SETTINGS}

    def set_address_setting(self, email: str, column: str, value: str | None, now: float) -> list[str]:
        """SET FORMAT|TIMEZONE|CALENDAR|LANGUAGE ... ALL: ``column`` (one of SETTINGS) for the
        address's seats to come and every seat it holds; returns the ids of the games whose seats
        changed."""
        if column not in SETTINGS:
            raise ValueError(column)
        self._require_tx()
        values = {**self.address_defaults(email), column: value}
        games_sql.SAVE_ADDRESS_SETTINGS.run(self.store, address=games_sql.settings_key(email), updated=now, **values)
        rows = SeatKey.every(games_sql.SEATS_OF_ADDRESS.run(self.store, email=email.strip()))
        for row in rows:
            self.store.update_rows(games_sql.SET_PLAYER[column], game_id=row.game_id, name=row.name,
                                   **{column: value})
        return sorted({row.game_id for row in rows})

    def remove_player(self, game_id: str, name: str) -> None:
        """Free a seat of a game that has not started (LEAVE)."""
        self._require_tx()
        selfservice_sql.REMOVE_PLAYER.run(self.store, game=game_id, seat=name)

    def renumber_seats(self, game_id: str) -> None:
        """Seats 0, 1, 2... in the order joined (after a LEAVE left a gap)."""
        for seat, row in enumerate(self.players(game_id)):
            self.store.update_rows(selfservice_sql.SET_SEAT, game_id=game_id, name=row.name, seat=seat)

    def players_at(self, game_id: str, email: str) -> list[SeatRow]:
        """The seats of a game registered to ``email`` (compared lower-cased)."""
        if self.store.in_transaction and email.isascii():
            # From the game's seats, most often read already in this transaction; where every
            # address is ASCII, Python's lower() is SQL's on either back end.
            seats = self.players(game_id)
            if all(p.email.isascii() for p in seats):
                return [p for p in seats if p.email.lower() == email.lower()]
        return self.store.remembered("players", ("at", game_id, email), lambda: SeatRow.every(
            selfservice_sql.PLAYERS_AT.run(self.store, game=game_id, address=email)))

    def set_seat_password(self, game_id: str, name: str, pw_hash: str) -> None:
        """A new password for a seat; its reply tokens made before stop working."""
        self._require_tx()
        selfservice_sql.SET_PASSWORD.run(self.store, game=game_id, seat=name, hashed=pw_hash)

    def set_seat_address(self, game_id: str, name: str, email: str) -> None:
        """A seat moves to a new address; its reply tokens made before stop working."""
        self._require_tx()
        selfservice_sql.SET_ADDRESS.run(self.store, game=game_id, seat=name, address=email)

    def bump_generation(self, game_id: str, name: str) -> None:
        """Revoke a seat's reply tokens (a new player took it)."""
        self._require_tx()
        selfservice_sql.BUMP_GENERATION.run(self.store, game=game_id, seat=name)

    def player_seats_at(self, address: str) -> list[AddressSeatRow]:
        """(game_id, name, status) of every seat still in a game registered to ``address``."""
        return AddressSeatRow.every(delivery_sql.SEATS_AT.run(self.store, address=address.lower()))

    def rehash_seat_password(self, game_id: str, name: str, pw_hash: str) -> None:
        """The same password under a stronger hash: its reply tokens stay valid."""
        self.store.update_rows(credentials_sql.SET_PW_HASH, game_id=game_id, name=name, pw_hash=pw_hash)
