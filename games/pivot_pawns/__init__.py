"""Pivot Pawns (rules/pivot-pawns.txt, RULINGS PP1-PP6 and G1-G5), by mail.

Submodules: ``deck`` (PG(3,2) cards and icons), ``solver`` (optimal solver),
``orders`` (notation), ``state`` (state and JSON), ``board`` (presentation)
and ``rules`` (the Game class: bids, rounds, HELP).
"""

from .rules import GAME, NOTATION, PivotPawns, parse_duration

__all__ = ["GAME", "NOTATION", "PivotPawns", "parse_duration"]
