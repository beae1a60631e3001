"""The words of a conditional line (RULINGS G8): ``IF <their moves> THEN <my move> [IF ... THEN ...]``.

A line is split at the words IF and THEN (any case) into its steps; with more than two players
the IF part names the moves of the other players in the order they play, separated by ``;``.
Only the words are read here: each move is the game's own notation, which the rules read
(gm.service.people.lines).  Read with string methods, in time linear in the line.
"""

from __future__ import annotations

from gm.core.value import valueclass

SEPARATOR = ";"  # between the other players' moves in one IF part
MAX_CHARS = 2000  # a longer line is refused unread
MAX_LINES = 10  # lines a seat keeps in one game (gm.service.people.lines)
MAX_MOVES = 20  # moves one line names, everyone's counted


@valueclass(frozen=True)
class Step:
    """One IF ... THEN ...: the other players' moves, in order, then the sender's answer."""

    theirs: tuple[str, ...]
    mine: str


def is_line(line: str) -> bool:
    """The line reads as a conditional line: its first word is IF and a word THEN follows."""
    words = line.split(None, 1)
    return len(words) == 2 and words[0].upper() == "IF" and "THEN" in words[1].upper().split()


def read_line(line: str) -> list[Step]:
    """The steps of one line; ValueError saying what is wrong with its words."""
    if len(line) > MAX_CHARS:
        raise ValueError(f"the line is longer than {MAX_CHARS} characters")
    steps: list[Step] = []
    part: list[str] = []
    theirs: list[str] | None = None  # the IF part read, waiting for its THEN part
    expect = "IF"
    for word in line.split():
        key = word.upper()
        if key in ("IF", "THEN"):
            if key != expect:
                raise ValueError(f"{key} where {expect} was expected (write IF <their move> THEN "
                                 "<your move>, and so on)")
            if key == "THEN":
                theirs = _moves(part, "IF")
            else:
                if theirs is not None:
                    steps.append(Step(tuple(theirs), _move(part)))
                elif part:
                    raise ValueError("a line starts with IF")
            part, expect = [], "THEN" if key == "IF" else "IF"
            continue
        part.append(word)
    if theirs is None or expect != "IF":
        raise ValueError("an IF without its THEN")
    steps.append(Step(tuple(theirs), _move(part)))
    return steps


def _moves(words: list[str], where: str) -> list[str]:
    """The moves an IF part names, separated by SEPARATOR; ValueError for an empty one."""
    moves = [m.strip() for m in " ".join(words).split(SEPARATOR)]
    if not all(moves):
        raise ValueError(f"an empty move after {where}")
    return moves


def _move(words: list[str]) -> str:
    """The one move a THEN part names; ValueError if it is empty or names several."""
    move = " ".join(words)
    if not move:
        raise ValueError("an empty move after THEN")
    if SEPARATOR in move:
        raise ValueError(f"THEN names your one move ({SEPARATOR} separates the others' moves after IF)")
    return move


def written(steps: list[Step]) -> str:
    """A line as it is shown back (LINES): its steps in the same words."""
    return " ".join(f"IF {f' {SEPARATOR} '.join(s.theirs)} THEN {s.mine}" for s in steps)
