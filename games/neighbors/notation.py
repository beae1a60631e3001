"""Reading Neighbors orders and the ``layout`` option.

A capture is from-square x to-square, any case: ``b4xd4``, ``b4-d4``,
``b4:d4``, ``Rb4xd4`` (the letter must name the piece on the from-square),
or the short ``Rxd4`` / ``xd4`` when only one legal capture lands there.
"""

from __future__ import annotations

import re

from games.base import AmbiguousOrderError, IllegalOrderError, OptionError, OrderSyntaxError

from .captures import Capture, legal_captures
from .state import PIECE_NAMES, ROWS, NeighborsState, parse_square, square_name

_SQUARE = r"([a-g])\s*([1-6])"
_FULL = re.compile(rf"^([qrbnf])?\s*{_SQUARE}\s*[x:\-]?\s*{_SQUARE}$", re.I)
_SHORT = re.compile(rf"^([qrbnf])?\s*[x:]\s*{_SQUARE}$", re.I)


def parse_capture(state: NeighborsState, text: str) -> Capture:
    compact = text.strip()
    full = _FULL.match(compact)
    if full:
        letter, f1, r1, f2, r2 = full.groups()
        capture = Capture(parse_square(f1, r1), parse_square(f2, r2))
        piece = state.at(capture.source)
        if letter and piece != letter.upper():
            found = PIECE_NAMES.get(piece, "nothing")
            raise IllegalOrderError(
                f"{text}: there is a {found} on {square_name(capture.source)}, "
                f"not a {PIECE_NAMES[letter.upper()]}"
                if piece != "."
                else f"{text}: {square_name(capture.source)} is empty",
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
                f"{text}: no piece{' of that kind' if letter else ''} can capture on "
                f"{square_name(target)}",
                legal=[str(c) for c in legal_captures(state)],
            )
        raise AmbiguousOrderError(
            f"{text} is ambiguous: " + ", ".join(map(str, matches)),
            candidates=[str(c) for c in matches],
        )
    raise OrderSyntaxError(
        f"{text!r} is not a capture; write from-square x to-square, like b4xd4"
    )


def parse_layout(text: str) -> tuple[str, ...]:
    """Option layout: 42 characters, row 6 first, files a..g; QRBNF or '.'."""
    letters = re.sub(r"[\s/|]", "", text).upper()
    if len(letters) != 42 or set(letters) - set("QRBNF."):
        raise OptionError(
            "option layout: give 42 characters, row 6 first, files a..g, "
            "using Q R B N F and . for an empty square"
        )
    rows_top_first = [letters[i * 7:(i + 1) * 7] for i in range(ROWS)]
    return tuple("".join(reversed(rows_top_first)))
