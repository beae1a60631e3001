"""Who plays whom in a tournament round: round robin, two-player Swiss, multi-player Swiss tables.

Pure arithmetic on player ids: no store, no mail.  A round is the tables it seats (each in seat
order, the first moves first) and the players left without a game (a bye).  The rules in player
words are in docs/players/tournaments.md ("How rounds are paired and scored").
"""

from __future__ import annotations

from dataclasses import dataclass


class PairingError(ValueError):
    """No pairing of the round meets the rules (every pairing left would repeat one)."""


@dataclass(frozen=True)
class Entrant:
    """One player as the pairing of the next round sees it."""

    player: str  # an opaque player id
    score: float  # tournament points so far
    rating: float  # rating ordinal, 0.0 when unrated
    firsts: int  # games in which it sat first (moved first)
    seconds: int  # games in which it sat second or later
    byes: int  # byes it has had
    met: frozenset[str]  # players it has sat at a table with


@dataclass(frozen=True)
class Round:
    """One round: each table's players in seat order (the first moves first), and the byes."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]


def round_robin(players: list[str], twice: bool = False) -> list[Round]:
    """Every pair of players meets once (the circle method; a bye a round for an odd count), first
    seats balanced; twice: a second cycle repeats every pairing with the seats swapped."""
    raise NotImplementedError


def swiss_pairs(entrants: list[Entrant]) -> Round:
    """Two-player Swiss: by score then rating (then id), no repeat pairing, one bye for an odd count
    to the lowest-placed entrant who has had none, first move to the one who sat first less.
    Raises PairingError when no pairing without repeats exists."""
    raise NotImplementedError


def swiss_tables(entrants: list[Entrant], size: int, smallest: int) -> Round:
    """Multi-player Swiss: tables of `size` (some smaller, down to `smallest`, when the count does
    not divide) filled by score then rating, avoiding repeat meetings where it can; seat order by
    fewest firsts."""
    raise NotImplementedError
