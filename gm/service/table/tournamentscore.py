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


def ranks(result: TableResult) -> dict[str, int]:
    """Each player's rank at the table: 1 + the players of the tiers above it (tied players share
    the best rank of their tier: 1, 2, 2, 4).  A player the tiers leave out is ranked below them all."""
    rank: dict[str, int] = {}
    for tier in result.tiers:
        rank |= dict.fromkeys(tier, len(rank) + 1)
    missing = [p for p in result.players if p not in rank]
    return rank | dict.fromkeys(missing, len(rank) + 1)


def table_points(result: TableResult, player: str) -> float:
    """A player's points from one game: two players: win 1, draw 0.5, loss 0; more: the players
    ranked below it plus half of those tied with it (a table win: table size - 1)."""
    rank = ranks(result)
    if player not in rank:
        raise ValueError(f"{player} did not play at this table")
    below = sum(1 for r in rank.values() if r > rank[player])
    tied = sum(1 for r in rank.values() if r == rank[player]) - 1
    return below + tied / 2


def standings(players: list[str], results: list[TableResult], byes: dict[str, int],
              two_player: bool) -> list[Standing]:
    """The standings, best first: points, then each tiebreak, equal lines sharing a place.

    Two players: Buchholz (the final points of every opponent met, once a game) then
    Sonneborn-Berger (the final points of every opponent beaten, half of every one drawn), both
    the more the better; more players: the sum of its ranks at its tables, the fewer the better.
    A bye counts BYE_POINTS and adds nothing to a tiebreak.  The points of a player not listed (one
    who withdrew) still count in its opponents' tiebreaks."""
    points = _points(results, byes)
    lines = []
    for player in players:
        mine = [r for r in results if player in r.players]
        tiebreaks = _two_player_tiebreaks(player, mine, points) if two_player else (
            float(sum(ranks(r)[player] for r in mine)),)
        lines.append((player, points.get(player, 0.0), len(mine), tiebreaks))
    sign = 1 if two_player else -1
    lines.sort(key=lambda line: (-line[1], *(-sign * t for t in line[3]), line[0]))
    table: list[Standing] = []
    for n, (player, score, games, tiebreaks) in enumerate(lines):
        same = table and (table[-1].points, table[-1].tiebreaks) == (score, tiebreaks)
        table.append(Standing(table[-1].place if same else n + 1, player, score, games, tiebreaks))
    return table


def _points(results: list[TableResult], byes: dict[str, int]) -> dict[str, float]:
    """Every player's points: its games' table points plus BYE_POINTS a bye."""
    points = {player: count * BYE_POINTS for player, count in byes.items()}
    for result in results:
        for player in result.players:
            points[player] = points.get(player, 0.0) + table_points(result, player)
    return points


def _two_player_tiebreaks(player: str, games: list[TableResult],
                          points: dict[str, float]) -> tuple[float, float]:
    """Buchholz and Sonneborn-Berger of ``player`` from its games, given everyone's final points."""
    buchholz = sonneborn_berger = 0.0
    for result in games:
        rank = ranks(result)
        for opponent in result.players:
            if opponent == player:
                continue
            buchholz += points[opponent]
            if rank[player] < rank[opponent]:
                sonneborn_berger += points[opponent]
            elif rank[player] == rank[opponent]:
                sonneborn_berger += points[opponent] / 2
    return buchholz, sonneborn_berger
