"""Tournaments: their rows, who entered, and each round's tables (gm.service.people.tournaments).

Every statement is a SQLAlchemy Core construct on gm.store.tables, compiled once per back end
(gm.store.sql, as gm.store.daemons).  Reads go by a tournament's id (or its status), never over
every game; a game's tournament is found by the game id's own shape, ``<tid>-r<round>-<board>``.
"""

from __future__ import annotations

from gm.store.record import Record, record
from gm.store.repository import Repository
from gm.store.sql import inserting, prepared, updating

ADD_TOURNAMENT = inserting("tournaments", (
    "id", "kind", "format", "rounds", "table_size", "twice", "options", "rated", "approval", "cap", "status",
    "round", "created", "updated"))
SET_PROGRESS = updating("tournaments", where=("id",), set=("status", "round", "rounds", "updated"))
ADD_ENTRY = inserting("tournament_entries", (
    "tournament_id", "player_id", "seat_name", "status", "entered", "withdrawn_round"))
SET_ENTRY = updating("tournament_entries", where=("tournament_id", "player_id"), set=("status", "withdrawn_round"))
ADD_TABLE_SEAT = inserting("tournament_games", (
    "tournament_id", "round", "board", "player_id", "seat", "game_id"))

TOURNAMENT = prepared(lambda sa, t: sa.select(t.tournaments).where(t.tournaments.c.id == sa.bindparam("id")))
ALL_TOURNAMENTS = prepared(lambda sa, t: sa.select(t.tournaments).order_by(
    t.tournaments.c.created.desc(), t.tournaments.c.id))
WITH_STATUS = prepared(lambda sa, t: sa.select(t.tournaments).where(
    t.tournaments.c.status == sa.bindparam("status")).order_by(t.tournaments.c.id))
ENTRIES = prepared(lambda sa, t: sa.select(t.tournament_entries).where(
    t.tournament_entries.c.tournament_id == sa.bindparam("id")).order_by(
    t.tournament_entries.c.entered, t.tournament_entries.c.player_id))
TABLE_SEATS = prepared(lambda sa, t: sa.select(t.tournament_games).where(
    t.tournament_games.c.tournament_id == sa.bindparam("id")).order_by(
    t.tournament_games.c.round, t.tournament_games.c.board, t.tournament_games.c.seat))
ROUND_SEATS = prepared(lambda sa, t: sa.select(t.tournament_games).where(
    t.tournament_games.c.tournament_id == sa.bindparam("id"), t.tournament_games.c.round == sa.bindparam("round")
).order_by(t.tournament_games.c.board, t.tournament_games.c.seat))


@record
class TournamentRow(Record):
    """A tournaments row: its kind, format, size of table, the games' options, where it stands."""

    id: str
    kind: str
    format: str  # round-robin | swiss
    rounds: int
    table_size: int
    twice: int
    options: str  # JSON
    rated: int
    approval: int
    cap: int
    status: str  # open | running | finished
    round: int
    created: float
    updated: float


@record
class EntryRow(Record):
    """A tournament_entries row: a player entered (pending, entered, withdrawn) and its seat name."""

    tournament_id: str
    player_id: str
    seat_name: str
    status: str
    entered: float
    withdrawn_round: int | None = None


@record
class TableSeatRow(Record):
    """A tournament_games row: one player at one table of a round (board 0, no game: a bye)."""

    tournament_id: str
    round: int
    board: int
    player_id: str
    seat: int
    game_id: str | None = None


class Tournaments(Repository):
    """Tournaments, their entries and their rounds' tables."""

    def tournament(self, tournament_id: str) -> TournamentRow | None:
        return TournamentRow.maybe(TOURNAMENT.run(self.store, id=tournament_id).fetchone())

    def every_tournament(self) -> list[TournamentRow]:
        """Every tournament, newest first."""
        return TournamentRow.every(ALL_TOURNAMENTS.run(self.store).fetchall())

    def with_status(self, status: str) -> list[TournamentRow]:
        """The tournaments of one status (the daemon's pass reads the running ones only)."""
        return TournamentRow.every(WITH_STATUS.run(self.store, status=status).fetchall())

    def add_tournament(self, row: TournamentRow) -> None:
        self.store.insert_row(ADD_TOURNAMENT, **{c: getattr(row, c) for c in TournamentRow.columns})

    def set_progress(self, tournament_id: str, status: str, round_: int, rounds: int, now: float) -> int:
        """Its status, the round in play and the rounds to play."""
        return self.store.update_rows(SET_PROGRESS, id=tournament_id, status=status, round=round_, rounds=rounds,
                                      updated=now)

    def entries(self, tournament_id: str) -> list[EntryRow]:
        """Every entry, pending and withdrawn ones too, in the order they came."""
        return EntryRow.every(ENTRIES.run(self.store, id=tournament_id).fetchall())

    def add_entry(self, tournament_id: str, player_id: str, seat_name: str, status: str, now: float) -> None:
        self.store.insert_row(ADD_ENTRY, tournament_id=tournament_id, player_id=player_id, seat_name=seat_name,
                              status=status, entered=now, withdrawn_round=None)

    def set_entry(self, tournament_id: str, player_id: str, status: str, withdrawn_round: int | None = None) -> int:
        return self.store.update_rows(SET_ENTRY, tournament_id=tournament_id, player_id=player_id, status=status,
                                      withdrawn_round=withdrawn_round)

    def table_seats(self, tournament_id: str) -> list[TableSeatRow]:
        """Every round's tables, a row a player, by round, board and seat."""
        return TableSeatRow.every(TABLE_SEATS.run(self.store, id=tournament_id).fetchall())

    def round_seats(self, tournament_id: str, round_: int) -> list[TableSeatRow]:
        """One round's tables, by board and seat."""
        return TableSeatRow.every(ROUND_SEATS.run(self.store, id=tournament_id, round=round_).fetchall())

    def add_table_seat(self, tournament_id: str, round_: int, board: int, player_id: str, seat: int,
                       game_id: str | None) -> None:
        self.store.insert_row(ADD_TABLE_SEAT, tournament_id=tournament_id, round=round_, board=board,
                              player_id=player_id, seat=seat, game_id=game_id)
