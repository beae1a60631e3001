"""Phalanx orders as value objects, and the parser of their notation.

A normal turn (PH2) is lines (or one line) of clauses: ``GROW E5 G7`` (new men, on one or
more GROW clauses), ``MOVE F6 F4 2`` (head, tail, distance; the distance may be left out
when the phalanx has two men) or ``PASS``.  The opening (PH7) uses ``PLACE RED H8 YELLOW
E8 K8`` (the pie), ``COLOUR RED`` or ``COLOUR YELLOW`` (the chooser) and ``PLACE H5``
(Red's extra man).  Case, commas, semicolons, dashes and extra spaces do not matter;
``str()`` of an order is its canonical notation.  Cell names stay canonical text
(``"E5"``): the rules resolve them on the board of the game at hand.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from games.base import IllegalOrderError, OrderSyntaxError
from games.text import Text

from .state import CHOOSE, EXTRA, PLACE, PLAY, RED, YELLOW

_CELL = re.compile(r"^[A-Z]\d{1,2}$")
_NUMBER = re.compile(r"^\d{1,3}$")
_SEPARATORS = re.compile(r"[\s,;\->:.]+")
# A minus sign before a number ("MOVE H8 G8 -1"): not a dash between two cells.
_NEGATIVE = re.compile(r"(?:^|[\s,;:])-\s*(\d+)")
KEYWORDS = {"GROW", "MOVE", "PASS", "PLACE", "RED", "YELLOW", "COLOUR", "COLOR", "CHOOSE"}
OPENING_WORDS = {"PLACE", "RED", "YELLOW", "COLOUR", "COLOR", "CHOOSE"}


@dataclass(frozen=True)
class Move:
    """Shift the phalanx from ``tail`` to ``head`` ``distance`` cells beyond the head."""

    head: str
    tail: str
    distance: int | None = None  # None: not given (only a two-man phalanx allows that)

    def __str__(self) -> str:
        text = f"MOVE {self.head} {self.tail}"
        return text if self.distance is None else f"{text} {self.distance}"


@dataclass(frozen=True)
class Turn:
    """A whole normal turn: growths, then moves in the order written.  Empty: a pass."""

    growths: tuple[str, ...] = ()
    moves: tuple[Move, ...] = ()

    @property
    def is_pass(self) -> bool:
        return not self.growths and not self.moves

    def __str__(self) -> str:
        if self.is_pass:
            return "PASS"
        lines = [f"GROW {' '.join(self.growths)}"] if self.growths else []
        return "\n".join(lines + [str(m) for m in self.moves])


@dataclass(frozen=True)
class Placement:
    """The pie (PH7): the first player places red and yellow men."""

    red: tuple[str, ...]
    yellow: tuple[str, ...]

    def __str__(self) -> str:
        return f"PLACE RED {' '.join(self.red)} YELLOW {' '.join(self.yellow)}"


@dataclass(frozen=True)
class ColourChoice:
    """The chooser's colour (PH7)."""

    colour: str

    def __str__(self) -> str:
        return f"COLOUR {self.colour.upper()}"


@dataclass(frozen=True)
class ExtraMan:
    """Red's one more man after the choice (PH7)."""

    cell: str

    def __str__(self) -> str:
        return f"PLACE {self.cell}"


Order = Turn | Placement | ColourChoice | ExtraMan


def tokens(text: str) -> list[str]:
    """Upper-case words; a lone letter followed by a number is joined into a cell.

    A dash separates cells ("H8-F8"), but a minus sign before a number is
    refused: a negative distance is no distance (PH4).
    """
    for line in text.splitlines():
        negative = _NEGATIVE.search(line)
        if negative:
            raise OrderSyntaxError(Text(
                "{line}: -{number} is not a distance; "
                "a move goes 1 or more cells forward, e.g. MOVE F6 F4 2 (head, tail, distance)",
                line=" ".join(line.upper().split()), number=negative.group(1)))
    words = [w for w in _SEPARATORS.split(text.upper()) if w]
    joined: list[str] = []
    for word in words:
        if joined and _NUMBER.match(word) and re.fullmatch(r"[A-Z]", joined[-1]):
            joined[-1] += word
        else:
            joined.append(word)
    return joined


def clauses(text: str) -> list[tuple[str, list[str]]]:
    """Split the words into (keyword, arguments) clauses."""
    found: list[tuple[str, list[str]]] = []
    for word in tokens(text):
        if word in KEYWORDS:
            found.append((word, []))
        elif not (_CELL.match(word) or _NUMBER.match(word)):
            raise OrderSyntaxError(Text("{word} is not part of a Phalanx order (send HELP)",
                                        word=repr(word)))
        elif not found:
            raise OrderSyntaxError(Text(
                "{quoted} should follow GROW, MOVE or PLACE (e.g. GROW {word})",
                quoted=repr(word), word=word))
        else:
            found[-1][1].append(word)
    if not found:
        raise OrderSyntaxError(Text("no order found: write GROW, MOVE or PASS lines"))
    return found


def _cells(keyword: str, args: list[str]) -> tuple[str, ...]:
    for arg in args:
        if not _CELL.match(arg):
            raise OrderSyntaxError(Text("{keyword} {cells}: {arg} is not a cell like E5",
                                        keyword=keyword, cells=" ".join(args), arg=arg))
    if not args:
        raise OrderSyntaxError(Text("{keyword} needs at least one cell, e.g. {keyword} E5",
                                    keyword=keyword))
    return tuple(args)


def parse_turn(text: str) -> Turn:
    growths: list[str] = []
    moves: list[Move] = []
    saw_pass = False
    found = clauses(text)
    for keyword, args in found:
        if keyword in OPENING_WORDS:
            raise IllegalOrderError(Text(
                "{keyword}: the opening is over; a turn is GROW and MOVE lines, or PASS",
                keyword=keyword))
        if keyword == "PASS":
            if args:
                raise OrderSyntaxError(Text("PASS {words}: PASS takes nothing after it",
                                            words=" ".join(args)))
            saw_pass = True
        elif keyword == "GROW":
            if moves:
                raise IllegalOrderError(Text(
                    "GROW {cells}: growths come before moves (PH2); put the GROW line first",
                    cells=" ".join(args)))
            growths.extend(_cells("GROW", args))
        else:
            moves.append(_move(args))
    if saw_pass and (growths or moves):
        raise OrderSyntaxError(Text("PASS stands alone: a turn with GROW or MOVE is not a pass"))
    return Turn(tuple(growths), tuple(moves))


def _move(args: list[str]) -> Move:
    shown = f"MOVE {' '.join(args)}".strip()
    if len(args) not in (2, 3) or not all(_CELL.match(a) for a in args[:2]):
        raise OrderSyntaxError(Text(
            "{move}: a move is head, tail and distance, e.g. MOVE F6 F4 2 (head, tail, distance)",
            move=shown))
    if len(args) == 3 and not _NUMBER.match(args[2]):
        raise OrderSyntaxError(Text(
            "{move}: the distance must be a number, e.g. MOVE F6 F4 2 (head, tail, distance)",
            move=shown))
    distance = int(args[2]) if len(args) == 3 else None
    if distance == 0:
        raise OrderSyntaxError(Text(
            "{move}: the distance must be 1 or more cells (0 moves nothing), "
            "e.g. MOVE F6 F4 2 (head, tail, distance)", move=shown))
    return Move(args[0], args[1], distance)


def parse_opening(text: str, phase: str) -> Order:
    found = clauses(text)
    words = [k for k, _ in found]
    if any(k in ("GROW", "MOVE", "PASS") for k in words):
        raise IllegalOrderError(Text("the game has not begun yet: {step}", step=OPENING_STEPS[phase]))
    if phase == PLACE:
        red: list[str] = []
        yellow: list[str] = []
        for keyword, args in found:
            if keyword == "PLACE" and not args:
                continue
            if keyword not in ("RED", "YELLOW"):
                raise OrderSyntaxError(Text("the pie is written {step}", step=OPENING_STEPS[PLACE]))
            (red if keyword == "RED" else yellow).extend(_cells(keyword, args))
        return Placement(tuple(red), tuple(yellow))
    if phase == CHOOSE:
        rest = [k for k in words if k not in ("COLOUR", "COLOR", "CHOOSE")]
        if rest not in (["RED"], ["YELLOW"]) or any(args for _, args in found):
            raise OrderSyntaxError(Text("choose a colour: {step}", step=OPENING_STEPS[CHOOSE]))
        return ColourChoice(RED if rest == ["RED"] else YELLOW)
    if phase == EXTRA:
        args = [cell for keyword, cells in found if keyword in ("PLACE", "RED") for cell in cells]
        if any(k not in ("PLACE", "RED") for k in words) or len(args) != 1:
            raise OrderSyntaxError(Text("Red's extra man is written {step}", step=OPENING_STEPS[EXTRA]))
        return ExtraMan(_cells("PLACE", args)[0])
    raise AssertionError(phase)


OPENING_STEPS = {
    PLACE: "PLACE RED <cells> YELLOW <cells>",
    CHOOSE: Text("COLOUR RED or COLOUR YELLOW"),
    EXTRA: "PLACE <cell>",
}


def parse(text: str, phase: str) -> Order:
    """Parse the order lines of one mail for a game in ``phase``."""
    if phase == PLAY:
        return parse_turn(text)
    return parse_opening(text, phase)
