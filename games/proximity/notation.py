"""Reading Proximity orders.

Canonical forms (what legal-order lists and reports use):

    P b2    move your pawn to b2
    C a1    move your coin standing on a1 along its trail
    X c3    sacrifice your piece on c3

Also understood: ``pawn b2``, ``pawn to b2``, ``Pb2``, ``coin a1``,
``sacrifice c3``, ``sac c3``, and a plain ``a1-b2`` / ``a1 b2`` / ``a1 to b2``
that names the piece by its square and the tile it goes to.  Case and extra
spaces do not matter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from games.base import OrderSyntaxError, single_order_line
from games.text import Text, mark

from .moves import CoinMove, PawnMove, Sacrifice
from .state import ALL_SQUARES

SQUARE = r"([a-c][0-4]|throne)"
_WORDS = {
    "p": "pawn", "pawn": "pawn",
    "c": "coin", "coin": "coin",
    "x": "sacrifice", "sac": "sacrifice", "sacrifice": "sacrifice",
}
_KEYWORD = re.compile(r"^(pawn|coin|sacrifice|sac|p|c|x)\s*(?:to\s+)?" + SQUARE + r"$")
_STEP = re.compile(r"^" + SQUARE + r"\s*(?:-|x|to|\s)\s*" + SQUARE + r"$")


@dataclass(frozen=True)
class StepOrder:
    """``a1-b2``: a move named by the square it leaves and the one it enters."""

    frm: str
    to: str

    def __str__(self) -> str:
        return f"{self.frm}-{self.to}"


def _check_square(square: str, text: str) -> str:
    if square != "throne" and square not in ALL_SQUARES:
        raise OrderSyntaxError(Text(
            "{square} in {text} is not a square: the board is a1..c3 and the null tiles are b0 and b4",
            square=repr(square), text=repr(text)))
    return square


def parse(text: str) -> PawnMove | CoinMove | Sacrifice | StepOrder:
    line = single_order_line(
        text, Text("no order found: send one order such as 'P b2'"),
        mark("one order per turn, please; this mail has {count} lines of orders"),
    )
    low = line.lower().rstrip(".")
    match = _KEYWORD.match(low)
    if match:
        word, square = _WORDS[match.group(1)], _check_square(match.group(2), line)
        if word == "pawn":
            return PawnMove(square)
        if word == "coin":
            return CoinMove(square)
        return Sacrifice(square)
    match = _STEP.match(low)
    if match:
        return StepOrder(_check_square(match.group(1), line), _check_square(match.group(2), line))
    raise OrderSyntaxError(Text(
        "{line} is not a Proximity order; write 'P b2' (pawn to b2), "
        "'C a1' (the coin on a1 follows its trail) or 'X c3' (sacrifice)", line=repr(line)))
