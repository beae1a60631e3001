"""A tournament's points and standings from its games' final rankings (RULINGS G11).

Pure arithmetic: no store, no mail.  Two-player tournaments break ties by Buchholz then
Sonneborn-Berger, multi-player ones by the sum of ranks; the rules in player words are in
docs/players/tournaments.md ("How rounds are paired and scored").
"""

from __future__ import annotations

from dataclasses import dataclass

TWO_PLAYER_TIEBREAKS = ("Buchholz", "Sonneborn-Berger")
MULTI_PLAYER_TIEBREAKS = ("sum of ranks",)
BYE_POINTS = 1.0


@dataclass(frozen=True)
class TableResult:
    """One finished game of the tournament."""

    round: int
    players: tuple[str, ...]  # seat order
    tiers: tuple[tuple[str, ...], ...]  # the game's G11 ranking as tiers, best first (a tie: one tier)


@dataclass(frozen=True)
class Standing:
    """One line of the standings."""

    place: int  # 1 = first; equal on points and every tiebreak: the same place
    player: str
    points: float
    games: int
    tiebreaks: tuple[float, ...]  # named by TWO_PLAYER_TIEBREAKS or MULTI_PLAYER_TIEBREAKS


def table_points(result: TableResult, player: str) -> float:
    """A player's points from one game: two players: win 1, draw 0.5, loss 0; more: the players
    ranked below it plus half of those tied with it (a table win: table size - 1)."""
    raise NotImplementedError


def standings(players: list[str], results: list[TableResult], byes: dict[str, int],
              two_player: bool) -> list[Standing]:
    """The standings, best first: points, then each tiebreak, equal lines sharing a place."""
    raise NotImplementedError
