"""Fuzzy Borders (kind 'fuzzy-borders'): simultaneous sealed claims on a hex board.

Submodules: ``board`` (influence, leaders, values: FB2-FB3), ``state`` (the
state, its options and JSON), ``rules`` (the Game: orders, turns), ``adjudicate``
(closing a turn: clashes and the end, FB5-FB7), ``present`` (board, report
view, HELP).
"""

from .rules import GAME, Claim, FuzzyBorders

__all__ = ["GAME", "Claim", "FuzzyBorders"]
