"""The optimal Pivot Pawns solver: fewest pivots to the round's goal.

A placement (five pawns on five cards) is packed into one integer, four bits per pawn
holding its card's GF(2)^4 vector, pawn c at bits 4c..4c+3.  Pivoting pawn m around pawn q
XORs the placement with b << 4m (b = q's vector): one integer operation per move, which
keeps a pure-Python breadth-first search fast.  ``solve`` searches forward from one
placement to the first with the active pawn on the target (what a round uses);
``distance_table`` searches backward from every goal for all 360,360 placements at once,
and ``solution_from_table`` walks it.  Legality (PP5): the destination is free and is not
a card whose centre icon has the moving pawn's colour, unless it is the target; a solution
ends when the active pawn lands on the target (PP4).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

from games.pivot_pawns import deck
from games.text import Text

PAWNS = len(deck.COLOURS)
UNREACHABLE = 255
PLACEMENTS = 15 * 14 * 13 * 12 * 11  # 360,360

Pivot = tuple[int, int]  # (moving pawn colour, pivot pawn colour)


def pack(cards: Sequence[int]) -> int:
    """Placement (card of each pawn, by colour) -> packed vectors."""
    packed = 0
    for colour, card in enumerate(cards):
        packed |= deck.VECTOR[card] << (4 * colour)
    return packed


def unpack(packed: int) -> tuple[int, ...]:
    return tuple(deck.CARD_OF_VECTOR[(packed >> (4 * c)) & 15] for c in range(PAWNS))


def landing_masks(target: int) -> tuple[int, ...]:
    """For each pawn colour, a bit mask over vectors of the cards it may land on."""
    masks = []
    for colour in range(PAWNS):
        mask = 0
        for card in range(deck.CARDS):
            if deck.CENTRE_COLOUR[card] != colour or card == target:
                mask |= 1 << deck.VECTOR[card]
        masks.append(mask)
    return tuple(masks)


def check_placement(cards: Sequence[int]) -> None:
    if len(cards) != PAWNS or len(set(cards)) != PAWNS or not all(0 <= c < 15 for c in cards):
        raise ValueError(f"a placement is five different cards 0..14, not {list(cards)}")


def solve(cards: Sequence[int], active: int, target: int) -> list[Pivot] | None:
    """One shortest solution (list of (moving, pivot) colours), or None if none exists."""
    check_placement(cards)
    if cards[active] == target:
        return []
    allowed = landing_masks(target)
    target_vector = deck.VECTOR[target]
    start = pack(cards)
    parent: dict[int, tuple[int, int, int] | None] = {start: None}
    frontier = [start]
    shifts = [4 * c for c in range(PAWNS)]
    pairs = [(m, q) for m in range(PAWNS) for q in range(PAWNS) if m != q]
    while frontier:
        following = []
        for packed in frontier:
            vectors = [(packed >> s) & 15 for s in shifts]
            occupied = 0
            for v in vectors:
                occupied |= 1 << v
            for m, q in pairs:
                landing = vectors[m] ^ vectors[q]
                if (occupied >> landing) & 1 or not (allowed[m] >> landing) & 1:
                    continue
                moved = packed ^ (vectors[q] << shifts[m])
                if moved in parent:
                    continue
                parent[moved] = (packed, m, q)
                if m == active and landing == target_vector:
                    return _path(parent, moved)
                following.append(moved)
        frontier = following
    return None


def _path(parent: dict, packed: int) -> list[Pivot]:
    pivots = []
    while parent[packed] is not None:
        packed, m, q = parent[packed]
        pivots.append((m, q))
    return pivots[::-1]


def distance_table(active: int, target: int) -> bytearray:
    """Fewest pivots to the goal for every placement, indexed by packed placement.

    Entries of packed integers that are not placements, and placements from
    which the goal cannot be reached, hold UNREACHABLE.  Backward search: the
    reverse of a pivot (m around q) is the same pivot, legal forwards when m's
    current card was a legal landing and m's former card a ^ b is free.
    """
    allowed = landing_masks(target)
    target_vector = deck.VECTOR[target]
    table = bytearray([UNREACHABLE]) * (1 << (4 * PAWNS))
    shifts = [4 * c for c in range(PAWNS)]
    pairs = [(m, q) for m in range(PAWNS) for q in range(PAWNS) if m != q]
    others = [v for v in range(1, 16) if v != target_vector]
    frontier = []
    # Goal placements: the active pawn on the target card, the others anywhere.
    for rest in permutations(others, PAWNS - 1):
        vectors = list(rest)
        vectors.insert(active, target_vector)
        packed = sum(v << s for v, s in zip(vectors, shifts))
        table[packed] = 0
        frontier.append(packed)
    distance = 0
    while frontier:
        distance += 1
        following = []
        for packed in frontier:
            vectors = [(packed >> s) & 15 for s in shifts]
            occupied = 0
            for v in vectors:
                occupied |= 1 << v
            for m, q in pairs:
                if not (allowed[m] >> vectors[m]) & 1:
                    continue  # m could not have landed where it stands
                former = vectors[m] ^ vectors[q]
                if (occupied >> former) & 1:
                    continue
                before = packed ^ (vectors[q] << shifts[m])
                if table[before] == UNREACHABLE:
                    table[before] = distance
                    following.append(before)
        frontier = following
    return table


def solution_from_table(table: bytearray, cards: Sequence[int], active: int, target: int) -> list[Pivot] | None:
    """Walk a distance table downhill from a placement to one optimal solution."""
    check_placement(cards)
    packed = pack(cards)
    if table[packed] == UNREACHABLE:
        return None
    allowed = landing_masks(target)
    pivots: list[Pivot] = []
    while table[packed] > 0:
        vectors = [(packed >> (4 * c)) & 15 for c in range(PAWNS)]
        occupied = sum(1 << v for v in vectors)
        for m in range(PAWNS):
            for q in range(PAWNS):
                if m == q:
                    continue
                landing = vectors[m] ^ vectors[q]
                if (occupied >> landing) & 1 or not (allowed[m] >> landing) & 1:
                    continue
                moved = packed ^ (vectors[q] << (4 * m))
                if table[moved] == table[packed] - 1:
                    pivots.append((m, q))
                    packed = moved
                    break
            else:
                continue
            break
        else:  # pragma: no cover - a consistent table always has a downhill move
            raise AssertionError("distance table is inconsistent")
    return pivots


def apply(cards: Sequence[int], pivots: Sequence[Pivot], active: int,
          target: int) -> tuple[list[int], int | None, str | None]:
    """Play pivots in order until the active pawn lands on the target card.

    Returns (cards after the pivots played, number of pivots played, None) on
    success, or (the cards given, None, the reason in words) when a pivot is
    illegal or the active pawn never reaches the target card.
    """
    placement = list(cards)
    if placement[active] == target:
        return placement, 0, None
    for number, (m, q) in enumerate(pivots, start=1):
        where = f"{deck.COLOURS[m]}/{deck.COLOURS[q]}"
        if m == q:
            return list(cards), None, Text("pivot {number} ({pivot}): a pawn cannot pivot on itself",
                                           number=number, pivot=where)
        landing = deck.destination(placement[m], placement[q])
        if landing in placement:
            return list(cards), None, Text("pivot {number} ({pivot}) lands on {pawn}", number=number,
                                           pivot=where, pawn=Text(deck.PAWN_NAMES[placement.index(landing)]))
        if deck.CENTRE_COLOUR[landing] == m and landing != target:
            return list(cards), None, Text("pivot {number} ({pivot}) lands on a {colour}-centred card",
                                           number=number, pivot=where, colour=Text(deck.COLOURS[m]))
        placement[m] = landing
        if m == active and landing == target:
            return placement, number, None
    return list(cards), None, Text("{pawn} never reaches the target", pawn=Text(deck.PAWN_NAMES[active]))
