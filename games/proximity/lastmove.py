"""What the last move did, as the state keeps it in ``last``: English JSON lines, like the
end's reason.  The rules make each line from these templates, and the loader gives each
line its Text back (``recover_line``), so a stored state's report is translated too.
"""

from __future__ import annotations

from typing import cast

from games.base import Game
from games.text import Plural, Text, mark, recover_sentence

from .words import SUIT_WORDS, TILE_WORDS

LAST_LINES = {
    "pawn": mark("{player}: {order}, pawn to {square} ({tile}), age {age}"),
    "coin": mark("{player}: {order}, coin {source}-{square} ({tile}), age {age}"),
    "ace tie": mark("Ace of {suit}: sums {first} {one}, {second} {two}; a tie brings in no coin"),
    "ace no coin": mark("Ace of {suit}: sums {first} {one}, {second} {two}; {player} has no coin "
                        "left to bring in"),
    "ace null taken": mark("Ace of {suit}: sums {first} {one}, {second} {two}; {player}'s null tile "
                           "{square} is occupied: no coin"),
    "ace coin": mark("Ace of {suit}: sums {first} {one}, {second} {two}; {player} brings in a coin "
                     "on {square}"),
    "sacrifice coin": mark("{player}: X {square}, sacrifices the coin on {square} (age {age})"),
    "sacrifice pawn": mark("{player}: X {square}, sacrifices the pawn (age {age})"),
    "no coin to promote": mark("{player} has no coin to promote and loses; {winner} wins"),
    "bank": mark("{player}'s time bank: {bank} left"),
    "out of time": mark("{player}'s time bank ran out; {winner} wins"),
    "drawn": mark("The game ends drawn by agreement (RULINGS G6)."),
    "too few": mark("The game is over: too few players are left; {winner} wins."),
    "left": cast(Text, Game.left_event("").text).template,  # games.base says it (its catalogue has it)
}


def promotion_line(square: str, age: int, n: int) -> Plural:
    """The coin on ``square`` became the pawn (PX7), and ``n`` trail rows were struck."""
    return Plural("The coin on {square} (age {age}) becomes the pawn; {n} trail row struck",
                  "The coin on {square} (age {age}) becomes the pawn; {n} trail rows struck",
                  n=n, square=square, age=age)


PROMOTION = promotion_line("", 0, 1)  # its two forms, for recover_line
FIELD_TEXTS = {"tile": TILE_WORDS.values(), "suit": SUIT_WORDS.values()}  # a field that is a Text


def recover_line(line: str) -> str:
    """A ``last`` line as the rules made it, each Text in it back, from its English (a line
    none of the templates makes stays as it is)."""
    return recover_sentence(line, LAST_LINES.values(), [(PROMOTION.template, PROMOTION.plural)], FIELD_TEXTS)
