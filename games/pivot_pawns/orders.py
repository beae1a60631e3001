"""Pivot Pawns order notation: value objects, parsing and formatting.

    BID 3: red/blue green/red red/black
    PASS

A pivot is written moving pawn / pivot pawn, each a colour (red, green,
blue, yellow, black, or r, g, b, y, k).  Case does not matter, spaces are
forgiven, pivots may be separated by spaces, commas or line breaks, and the
colon after the number is optional.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from games.base import OrderSyntaxError
from games.pivot_pawns.deck import COLOURS
from games.text import Text

COLOUR_WORDS = {name: i for i, name in enumerate(COLOURS)}
COLOUR_WORDS.update({"r": 0, "g": 1, "b": 2, "y": 3, "k": 4, "blk": 4})

# Longer than any sensible solution; keeps a mistyped digit from making a
# very long order (PP4 only asks the bid to be a number of pivots).
MAX_BID = 99


@dataclass(frozen=True)
class PivotMove:
    moving: int  # pawn colour index
    pivot: int

    def __str__(self) -> str:
        return f"{COLOURS[self.moving]}/{COLOURS[self.pivot]}"

    @classmethod
    def from_text(cls, text: str) -> PivotMove:
        parts = text.strip().lower().split("/")
        if len(parts) != 2:
            raise OrderSyntaxError(Text("{text} is not a pivot; write moving/pivot pawn, e.g. red/blue",
                                        text=repr(text.strip())))
        colours = []
        for word in parts:
            word = word.strip()
            if word not in COLOUR_WORDS:
                raise OrderSyntaxError(Text(
                    "{word} in {text} is not a pawn colour (red, green, blue, yellow, black, "
                    "or r, g, b, y, k)", word=repr(word), text=repr(text.strip())))
            colours.append(COLOUR_WORDS[word])
        return cls(colours[0], colours[1])


@dataclass(frozen=True)
class Bid:
    """A bid of ``pivots`` with its sealed solution."""

    pivots: int
    solution: tuple[PivotMove, ...]

    def __str__(self) -> str:
        if not self.solution:
            return f"BID {self.pivots}"
        return f"BID {self.pivots}: {solution_text(self.solution)}"


@dataclass(frozen=True)
class Pass:
    """No bid this round; lets bidding close without waiting for the timer."""

    def __str__(self) -> str:
        return "PASS"


Order = Bid | Pass

_BID = re.compile(r"^bid(?![a-z])\s*(.*)$")
_NUMBER = re.compile(r"^(\d+)\s*:?\s*(.*)$")


def solution_text(solution: tuple[PivotMove, ...] | list[PivotMove]) -> str:
    return " ".join(str(p) for p in solution) if solution else "(no pivots)"


def parse_solution(text: str) -> tuple[PivotMove, ...]:
    # "red / blue" -> "red/blue" so that spaces around the slash are forgiven
    text = re.sub(r"\s*/\s*", "/", text.strip())
    words = [w for w in re.split(r"[\s,;]+", text) if w]
    return tuple(PivotMove.from_text(w) for w in words)


def parse(text: str) -> Order:
    """Parse all order lines of one mail (one bid, which may span lines, or PASS)."""
    flat = " ".join(line.strip() for line in text.splitlines() if line.strip())
    low = flat.lower()
    if not low:
        raise OrderSyntaxError(Text("no order found; send e.g. 'BID 3: red/blue green/red red/black'"))
    if low == "pass":
        return Pass()
    match = _BID.match(low)
    if not match:
        raise OrderSyntaxError(Text(
            "{text} is not an order; send 'BID <pivots>: <moving>/<pivot> ...' or 'PASS'",
            text=repr(flat)))
    numbered = _NUMBER.match(match.group(1))
    if not numbered:
        raise OrderSyntaxError(Text(
            "a bid starts with a whole number of pivots, e.g. 'BID 3: red/blue ...'"))
    pivots, rest = int(numbered.group(1)), numbered.group(2)
    if pivots > MAX_BID:
        raise OrderSyntaxError(Text("a bid of {bid} pivots is more than {most}", bid=pivots,
                                    most=MAX_BID))
    if re.search(r"\b(bid|pass)\b", rest):
        raise OrderSyntaxError(Text("send one bid (or PASS) per mail; the latest mail counts"))
    solution = parse_solution(rest)
    if pivots > 0 and not solution:
        raise OrderSyntaxError(Text("a bid needs its solution, e.g. 'BID {bid}: red/blue green/red'",
                                    bid=pivots))
    return Bid(pivots, solution)
