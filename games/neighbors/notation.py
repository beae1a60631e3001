"""Reading Neighbors orders and the ``layout`` option.

A capture is from-square x to-square, any case: ``b4xd4``, ``b4-d4``,
``b4:d4``, ``Rb4xd4`` (the letter must name the piece on the from-square),
or the short ``Rxd4`` / ``xd4`` when only one legal capture lands there.
"""

from __future__ import annotations

import re

from games.base import AmbiguousOrderError, IllegalOrderError, OptionError, OrderSyntaxError

from games.text import Text, mark

from .captures import Capture, legal_captures
from .state import ROWS, NeighborsState, parse_square, square_name

_SQUARE = r"([a-g])\s*([1-6])"
_FULL = re.compile(rf"^([qrbnf])?\s*{_SQUARE}\s*[x:\-]?\s*{_SQUARE}$", re.I)
_SHORT = re.compile(rf"^([qrbnf])?\s*[x:]\s*{_SQUARE}$", re.I)
# A piece named in a refusal: "there is a queen on b4, not a rook".
A_PIECE = {"Q": mark("a queen"), "R": mark("a rook"), "B": mark("a bishop"), "N": mark("a knight"),
           "F": mark("a ferz")}


def parse_capture(state: NeighborsState, text: str) -> Capture:
    compact = text.strip()
    full = _FULL.match(compact)
    if full:
        letter, f1, r1, f2, r2 = full.groups()
        capture = Capture(parse_square(f1, r1), parse_square(f2, r2))
        piece = state.at(capture.source)
        if letter and piece != letter.upper():
            source = square_name(capture.source)
            raise IllegalOrderError(
                Text("{order}: there is {found} on {square}, not {piece}", order=text,
                     found=Text(A_PIECE[piece]), square=source, piece=Text(A_PIECE[letter.upper()]))
                if piece != "."
                else Text("{order}: {square} is empty", order=text, square=source),
                legal=[str(c) for c in legal_captures(state)],
            )
        return capture
    short = _SHORT.match(compact)
    if short:
        letter, f2, r2 = short.groups()
        target = parse_square(f2, r2)
        matches = [
            c
            for c in legal_captures(state)
            if c.target == target and (not letter or state.at(c.source) == letter.upper())
        ]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise IllegalOrderError(
                Text("{order}: no piece of that kind can capture on {square}", order=text,
                     square=square_name(target))
                if letter else
                Text("{order}: no piece can capture on {square}", order=text, square=square_name(target)),
                legal=[str(c) for c in legal_captures(state)],
            )
        raise AmbiguousOrderError(
            Text("{order} is ambiguous: {moves}", order=text, moves=", ".join(map(str, matches))),
            candidates=[str(c) for c in matches],
        )
    raise OrderSyntaxError(
        Text("{order} is not a capture; write from-square x to-square, like b4xd4", order=repr(text))
    )


def parse_layout(text: str) -> tuple[str, ...]:
    """Option layout: 42 characters, row 6 first, files a..g; QRBNF or '.'."""
    letters = re.sub(r"[\s/|]", "", text).upper()
    if len(letters) != 42 or set(letters) - set("QRBNF."):
        raise OptionError(Text(
            "option layout: give 42 characters, row 6 first, files a..g, "
            "using Q R B N F and . for an empty square"
        ))
    rows_top_first = [letters[i * 7:(i + 1) * 7] for i in range(ROWS)]
    return tuple("".join(reversed(rows_top_first)))
