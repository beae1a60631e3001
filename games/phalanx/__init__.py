"""Phalanx (Christian Freeling, 1980) played by mail: rules/phalanx.txt with RULINGS PH1-PH8.

Submodules: ``state`` (the state and its JSON), ``board`` (groups, runs,
territory), ``orders`` (notation), ``turn`` (growth, moves, captures),
``randomplay`` (random legal turns for tests), ``presentation`` (board,
report view, HELP) and ``rules`` (the Game class).
"""

from .rules import GAME, Phalanx

__all__ = ["GAME", "Phalanx"]
