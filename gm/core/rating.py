"""How a rating reads: openskill's Plackett-Luce mu and sigma as one conservative number.

A rating is kept as openskill keeps it (a new player: mu 25, sigma 25/3); the ladder orders players
by the ordinal, ``mu - 3*sigma`` (openskill's own ``ordinal()``), a figure the player is very likely
above, so a new player starts at 0 and climbs as games make the rating surer.  Shown with the
uncertainty (sigma), and "provisional" until PROVISIONAL_GAMES rated games of the kind.
"""

from __future__ import annotations

PROVISIONAL_GAMES = 5  # rated games of a kind before a rating is no longer provisional
Z = 3.0  # sigmas below mu: openskill's default for its ordinal


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating the ladder orders by: openskill's ordinal, mu - 3 sigma."""
    return mu - Z * sigma


def provisional(games: int) -> bool:
    """Whether a rating after this many rated games is still provisional."""
    return games < PROVISIONAL_GAMES


def shown(mu: float, sigma: float, games: int) -> str:
    """The rating as players read it: "12.3 ±4.1", and " provisional" while it is."""
    text = f"{ordinal(mu, sigma):.1f} ±{sigma:.1f}"
    return f"{text} provisional" if provisional(games) else text
