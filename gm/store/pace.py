"""Held reports and daily digests (SET MAIL MYTURN|DAILY, gm.service.outgoing.pace).

A held report keeps only its events, in the order held; the next mail of its game to its
reader, or its address's digest, takes them and deletes them in the transaction that queues
that mail.  A digest row says when an address's digest is due; the tick reads the due rows
by the index on ``due`` and claims one by deleting it, so it is queued once.
"""

from __future__ import annotations

from typing import Any

from gm.store import games as games_sql
from gm.store import migrations
from gm.store.record import Record, record
from gm.store.repository import Repository
from gm.store.seatrows import SeatKey
from gm.store.sql import inserting, prepared, upsert, whole_rows

PACES = prepared(lambda sa, t: whole_rows(sa, t.seat_paces).where(t.seat_paces.c.game_id == sa.bindparam("game")))
SET_PACE = upsert("seat_paces", "game_id", "player")
ADDRESS_PACE = prepared(lambda sa, t: sa.select(t.address_paces.c.mail_pace, t.address_paces.c.mail_at).where(
    t.address_paces.c.address == sa.bindparam("address")))
SET_ADDRESS_PACE = upsert("address_paces", "address")
DROP_ADDRESS_PACE = prepared(lambda sa, t: sa.delete(t.address_paces).where(
    t.address_paces.c.address == sa.bindparam("address")))
DROP_PACE = prepared(lambda sa, t: sa.delete(t.seat_paces).where(
    t.seat_paces.c.game_id == sa.bindparam("game"), t.seat_paces.c.player == sa.bindparam("player")))

HOLD = inserting("held_letters", ("address", "game_id", "player", "turn", "events", "held"))
# DELETE ... RETURNING: a held row is taken by one transaction only, whichever daemon runs it
TAKE_HELD_OF_SEAT = prepared(lambda sa, t: sa.delete(t.held_letters).where(
    t.held_letters.c.game_id == sa.bindparam("game"), t.held_letters.c.player == sa.bindparam("player")).returning(
    *t.held_letters.c))
HELD_OF_ADDRESS = prepared(lambda sa, t: sa.select(t.held_letters.c.id).where(
    t.held_letters.c.address == sa.bindparam("address")).limit(1))
TAKE_HELD_OF_ADDRESS = prepared(lambda sa, t: sa.delete(t.held_letters).where(
    t.held_letters.c.address == sa.bindparam("address")).returning(*t.held_letters.c))
DIGEST = prepared(lambda sa, t: sa.select(t.digests.c.due).where(t.digests.c.address == sa.bindparam("address")))
ADD_DIGEST = inserting("digests", ("address", "due"))
DUE_DIGESTS = prepared(lambda sa, t: sa.select(t.digests.c.address, t.digests.c.due).where(
    t.digests.c.due <= sa.bindparam("now")).order_by(t.digests.c.due, t.digests.c.address).limit(
    sa.bindparam("most")))
CLAIM_DIGEST = prepared(lambda sa, t: sa.delete(t.digests).where(
    t.digests.c.address == sa.bindparam("address"), t.digests.c.due == sa.bindparam("due")))


PACE_STEP = 29  # the schema step that made these tables


def in_schema() -> bool:
    """Whether this gm's schema has the tables: a test that rewinds the steps runs today's code as
    an older gm, which mailed every report and had no digests."""
    return migrations.latest() >= PACE_STEP


def set_seat_pace(store: Any, game_id: str, player: str, mode: str | None, at: int | None) -> None:
    """A seat's pace (myturn | daily, with the digest's minute); None: each report (no row)."""
    if mode is None:
        DROP_PACE.run(store, game=game_id, player=player)
    else:
        SET_PACE.run(store, game_id=game_id, player=player, mail_pace=mode, mail_at=at)


def address_pace(store: Any, email: str) -> tuple[str | None, int | None]:
    """The pace SET MAIL ... ALL gave ``email`` (None: none, each report)."""
    row = ADDRESS_PACE.run(store, address=games_sql.settings_key(email)).fetchone()
    return (None, None) if row is None else (row["mail_pace"], row["mail_at"])


def seat_takes_address_pace(store: Any, game_id: str, player: str, email: str) -> None:
    """A seat given to an address takes the pace the address set for all its games (or none)."""
    if not in_schema():
        return
    set_seat_pace(store, game_id, player, *address_pace(store, email))


@record
class PaceRow(Record):
    """A seat_paces row: a seat not mailed each report."""

    game_id: str
    player: str
    mail_pace: str
    mail_at: int | None


@record
class HeldRow(Record):
    """A held_letters row: the events of one report held back from a reader."""

    id: int
    address: str
    game_id: str
    player: str
    turn: int
    events: str  # JSON list of lines
    held: float


@record
class DigestRow(Record):
    """A digests row: an address's daily digest and when it is due."""

    address: str
    due: float


class Pace(Repository):
    """How often seats are mailed, the reports held back from their readers and the digests due."""

    def paces(self, game_id: str) -> dict[str, tuple[str, int | None]]:
        """The seats of a game not mailed each report: name -> (pace, digest minute)."""
        if not in_schema():
            return {}
        return self.store.remembered("seat_paces", ("game", game_id), lambda: {
            r.player: (r.mail_pace, r.mail_at) for r in PaceRow.every(PACES.run(self.store, game=game_id).fetchall())})

    def set_pace(self, game_id: str, player: str, mode: str | None, at: int | None) -> None:
        """SET MAIL in one game (``mode`` None: each report)."""
        self._require_tx()
        set_seat_pace(self.store, game_id, player, mode, at)

    def address_pace(self, email: str) -> tuple[str | None, int | None]:
        """The pace SET MAIL ... ALL gave ``email`` (None: none)."""
        return address_pace(self.store, email)

    def set_address_pace(self, email: str, mode: str | None, at: int | None) -> list[str]:
        """SET MAIL ... ALL: the pace of every seat of ``email`` and those it takes later; the games
        whose seats changed."""
        self._require_tx()
        if mode is None:
            DROP_ADDRESS_PACE.run(self.store, address=games_sql.settings_key(email))
        else:
            SET_ADDRESS_PACE.run(self.store, address=games_sql.settings_key(email), mail_pace=mode, mail_at=at)
        rows = SeatKey.every(games_sql.SEATS_OF_ADDRESS.run(self.store, email=email.strip()))
        for row in rows:
            set_seat_pace(self.store, row.game_id, row.name, mode, at)
        return sorted({row.game_id for row in rows})

    def hold(self, address: str, game_id: str, player: str, turn: int, events: str, at: float) -> None:
        """Keep one report's events (JSON) for ``player`` of ``game_id`` at ``address`` (lower-cased)."""
        self._require_tx()
        self.store.insert_row(HOLD, address=address, game_id=game_id, player=player, turn=turn,
                              events=events, held=at)

    def take_held_of_seat(self, game_id: str, player: str) -> list[HeldRow]:
        """A seat's held reports, oldest first, taken off the store."""
        self._require_tx()
        rows = HeldRow.every(TAKE_HELD_OF_SEAT.run(self.store, game=game_id, player=player).fetchall())
        return sorted(rows, key=lambda row: row.id)

    def has_held(self, address: str) -> bool:
        """Whether any report is held for an address."""
        return HELD_OF_ADDRESS.run(self.store, address=address).fetchone() is not None

    def take_held_of_address(self, address: str) -> list[HeldRow]:
        """Every report held for an address, in every game, oldest first, taken off the store."""
        self._require_tx()
        rows = HeldRow.every(TAKE_HELD_OF_ADDRESS.run(self.store, address=address).fetchall())
        return sorted(rows, key=lambda row: row.id)

    def digest_due(self, address: str) -> float | None:
        """When the address's digest is due; None: it has none coming."""
        row = DIGEST.run(self.store, address=address).fetchone()
        return None if row is None else row["due"]

    def add_digest(self, address: str, due: float) -> None:
        """A digest for the address at ``due`` (it has none coming)."""
        self._require_tx()
        ADD_DIGEST.run(self.store, address=address, due=due)

    def due_digests(self, now: float, most: int) -> list[DigestRow]:
        """At most ``most`` digests due by ``now``, the oldest first."""
        if not in_schema():
            return []
        return DigestRow.every(DUE_DIGESTS.run(self.store, now=now, most=most).fetchall())

    def claim_digest(self, address: str, due: float) -> bool:
        """Take the digest due at ``due`` off the list; False if another transaction took it."""
        self._require_tx()
        return CLAIM_DIGEST.run(self.store, address=address, due=due).rowcount == 1
