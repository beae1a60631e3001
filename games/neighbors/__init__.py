"""Neighbors (Rob Nierse), 2 to 6 players, sequential: shared chess pieces, every move a capture.

rules/neighbors.txt with RULINGS NB1-NB5 and G1-G5.  Submodules: ``state``
(the position, squares, JSON), ``captures`` (legal captures NB2, NB3, NB5,
and the score NB4), ``notation`` (reading orders and the layout option),
``display`` (board, report view, HELP) and ``rules`` (the Game class).
"""

from .captures import Capture, legal_captures
from .display import HELP
from .rules import GAME, Neighbors
from .state import FILES, PIECE_NAMES, PIECE_SET, PIECE_VALUES, ROWS, NeighborsState, parse_square

__all__ = ["GAME", "Neighbors", "NeighborsState", "Capture", "legal_captures", "HELP", "FILES",
           "PIECE_NAMES", "PIECE_SET", "PIECE_VALUES", "ROWS", "parse_square"]
