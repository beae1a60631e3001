"""Proximity (John Wetmiller, piecepack), two players, sequential.

rules/proximity.txt with RULINGS PX1-PX10 and G1-G5.  The pieces of this
package: ``state`` (position, JSON), ``moves`` (legality, moves, ace check,
sacrifice), ``notation`` (reading orders), ``display`` (board, trail table,
report view, HELP) and ``rules`` (the Game class, with the time bank, PX8).
"""

from .moves import CoinMove, PawnMove, Sacrifice
from .rules import GAME, Proximity, parse_suits, parse_time_bank

__all__ = ["GAME", "Proximity", "PawnMove", "CoinMove", "Sacrifice", "parse_suits",
           "parse_time_bank"]
