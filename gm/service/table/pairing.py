"""Who plays whom in a tournament round: round robin, two-player Swiss, multi-player Swiss tables.

Pure arithmetic on player ids: no store, no mail.  A round is the tables it seats (each in seat
order, the first moves first) and the players left without a game (a bye).  A Swiss pairing is a
depth-first search in the order the Dutch system prefers, bounded (SEARCH_STEPS partial pairings
a search, ROUND_STEPS a round) so a bad case cannot run away; Swiss tables are filled by place,
then improved by swapping players between tables, at most SWAP_PASSES passes.  The rules in
player words are in docs/players/tournaments.md ("How rounds are paired and scored").
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

SEARCH_STEPS = 5_000  # partial pairings one Swiss search may try before it gives up
ROUND_STEPS = 100_000  # partial pairings all the searches for one Swiss round may try
SWAP_PASSES = 20  # passes over all swaps between Swiss tables
KICKS = 30  # times a settled Swiss seating is shaken and settled again
KICKED_SEATS = 1_800  # ... fewer for a large field: at most this many players shaken in all


class PairingError(ValueError):
    """No pairing of the round meets the rules (every pairing left would repeat one)."""


@dataclass(frozen=True)
class Entrant:
    """One player as the pairing of the next round sees it."""

    player: str  # an opaque player id
    score: float  # tournament points so far
    rating: float  # rating ordinal, 0.0 when unrated
    firsts: int  # games in which it sat first (moved first)
    seconds: int  # games in which it sat second or later
    byes: int  # byes it has had
    met: frozenset[str]  # players it has sat at a table with
    last_first: bool | None = None  # sat first in its last game; None: no game yet, or not known

    @property
    def balance(self) -> int:
        """Games it sat first less games it sat second or later: below 0, it is owed a first seat."""
        return self.firsts - self.seconds


@dataclass(frozen=True)
class Round:
    """One round: each table's players in seat order (the first moves first), and the byes."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]


# --- round robin ------------------------------------------------------------------
def round_robin(players: list[str], twice: bool = False) -> list[Round]:
    """Every pair of players meets once (the circle method; a bye a round for an odd count), first
    seats balanced; twice: a second cycle repeats every pairing with the seats swapped.

    The players but one stand on a circle of odd length c (all of them for an odd count, who then
    take the bye in turn); in round r player r meets the one off the circle, and r+i meets r-i.  Of
    two players on the circle, the one whose partner is 1 to c//2 steps ahead moves first, so each
    moves first in exactly half its games against the circle; the one off the circle moves first
    in even rounds."""
    if len(set(players)) != len(players):
        raise ValueError("a player is entered twice")
    if len(players) < 2:
        return []
    odd = len(players) % 2 == 1
    circle = players if odd else players[:-1]
    c, half = len(circle), len(circle) // 2
    rounds = []
    for r in range(c):
        tables = []
        if not odd:
            pair = (players[-1], circle[r])
            tables.append(pair if r % 2 == 0 else pair[::-1])
        for i in range(1, half + 1):
            a, b = (r + i) % c, (r - i) % c
            tables.append((circle[a], circle[b]) if 1 <= (b - a) % c <= half else (circle[b], circle[a]))
        rounds.append(Round(tuple(tables), (circle[r],) if odd else ()))
    if twice:
        rounds += [Round(tuple(t[::-1] for t in rnd.tables), rnd.byes) for rnd in rounds]
    return rounds


# --- two-player Swiss -----------------------------------------------------------
def place_order(entrants: list[Entrant]) -> list[Entrant]:
    """The entrants by place: score, then rating, both best first, then id (a fixed order)."""
    return sorted(entrants, key=lambda e: (-e.score, -e.rating, e.player))


def swiss_pairs(entrants: list[Entrant]) -> Round:
    """Two-player Swiss: by score then rating (then id), no repeat pairing, one bye for an odd count
    to the lowest-placed entrant who has had none, first move to the one who sat first less.
    Raises PairingError when no pairing without repeats exists.

    It takes, in this order of importance: the bye to the lowest placed who can have it, nobody
    owed the same seat three games over (given up only when every pairing needs it), the smallest
    largest score gap in a pair, then the Dutch system's order.  Each search tries at most
    SEARCH_STEPS partial pairings and a round ROUND_STEPS in all (PairingError beyond)."""
    ranked = place_order(entrants)
    if len({e.player for e in ranked}) != len(ranked):
        raise ValueError("a player is entered twice")
    fewest_byes_lowest_first = sorted(reversed(ranked), key=lambda e: e.byes)  # a stable sort
    candidates: list[Entrant | None] = [*fewest_byes_lowest_first] if len(ranked) % 2 else [None]
    budget = _Steps(ROUND_STEPS)
    for bye, strict in itertools.product(candidates, (True, False)):
        if budget.left <= 0:
            raise PairingError(f"no pairing of this round found within {ROUND_STEPS} tries")
        pairs = _closest_pairs([e for e in ranked if e is not bye], strict, budget)
        if pairs is not None:
            tables = tuple(_seat_pair(a, b, n) for n, (a, b) in enumerate(pairs))
            return Round(tables, (bye.player,) if bye is not None else ())
    raise PairingError("no pairing of this round avoids a repeat pairing")


@dataclass(frozen=True)
class _Rule:
    """Which two entrants a search may pair."""

    strict: bool  # not both owed the same seat twice over
    widest: float  # the largest score gap in a pair

    def allows(self, a: Entrant, b: Entrant) -> bool:
        if b.player in a.met or a.player in b.met or abs(a.score - b.score) > self.widest:
            return False
        same_seat_owed = a.balance >= 2 and b.balance >= 2 or a.balance <= -2 and b.balance <= -2
        return not (self.strict and same_seat_owed)


class _OutOfSteps(Exception):
    """A search tried all the partial pairings its bound allows."""


class _Steps:
    """What is left of a bound on partial pairings tried."""

    def __init__(self, left: int) -> None:
        self.left = left

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise _OutOfSteps


def _closest_pairs(rest: list[Entrant], strict: bool, budget: _Steps) -> list[tuple[Entrant, Entrant]] | None:
    """Pairs for all of ``rest`` with the smallest largest score gap; None when there are none
    (or none found within the bounds)."""
    gaps = sorted({abs(a.score - b.score) for a, b in itertools.combinations(rest, 2)}) or [0.0]
    for widest in gaps:
        rule = _Rule(strict, widest)
        allowed = {e.player: {f.player for f in rest if f is not e and rule.allows(e, f)} for e in rest}
        if not _even_parts({e.player for e in rest}, allowed):
            continue
        given = min(SEARCH_STEPS, budget.left)
        steps = _Steps(given)
        try:
            found = _pair_rest(rest, allowed, steps)
        except _OutOfSteps:
            found = None
        budget.left -= given - max(steps.left, 0)
        if found is not None or budget.left <= 0:
            return found
    return None


def _pair_rest(rest: list[Entrant], allowed: dict[str, set[str]],
               steps: _Steps) -> list[tuple[Entrant, Entrant]] | None:
    """Pairs for all of ``rest`` (best placed first) among the ``allowed`` ones, the first found in
    the Dutch system's order of preference; None when there are none."""
    if not rest:
        return []
    steps.spend()
    top, others = rest[0], rest[1:]
    for partner in _partners_in_order(top, others):
        if partner.player not in allowed[top.player]:
            continue
        remaining = [e for e in others if e is not partner]
        if not _even_parts({e.player for e in remaining}, allowed):
            continue  # a group of players who may only meet each other is odd: no need to search on
        found = _pair_rest(remaining, allowed, steps)
        if found is not None:
            return [(top, partner), *found]
    return None


def _even_parts(players: set[str], allowed: dict[str, set[str]]) -> bool:
    """Whether every group of ``players`` linked by who may meet whom has an even count (else one
    of them is sure to be left unpaired)."""
    unseen = set(players)
    while unseen:
        todo = [unseen.pop()]
        count = 1
        while todo:
            for other in allowed[todo.pop()] & unseen:
                unseen.discard(other)
                todo.append(other)
                count += 1
        if count % 2:
            return False
    return True


def _partners_in_order(top: Entrant, others: list[Entrant]) -> list[Entrant]:
    """Whom the best-placed unpaired entrant should meet, most wanted first: in its score group,
    the top half meets the bottom half (the first of the bottom half first, then the next ones,
    then those above it); then the lower scores, best placed first."""
    group = [e for e in others if e.score == top.score]
    lower = [e for e in others if e.score != top.score]
    middle = (len(group) + 1) // 2 - 1  # the first of the bottom half, counted in `group`
    return group[middle:] + group[:middle][::-1] + lower


def _seat_pair(a: Entrant, b: Entrant, board: int) -> tuple[str, str]:
    """Seat order of a pair (a the better placed): the one who sat first less moves first; when
    even, the better placed alternates (moves first if it sat second last time, and the other way);
    with no last game known, the better placed moves first on boards 1, 3, 5... and second on
    boards 2, 4, 6..."""
    if a.balance != b.balance:
        first = a if a.balance < b.balance else b
    elif a.last_first is not None:
        first = b if a.last_first else a  # the better placed gets its alternation
    elif b.last_first is not None:
        first = a if b.last_first else b
    else:
        first = a if board % 2 == 0 else b
    return (first.player, (b if first is a else a).player)


# --- multi-player Swiss tables --------------------------------------------------
def table_sizes(count: int, size: int, smallest: int) -> tuple[list[int], int]:
    """How ``count`` players sit at tables of ``size`` to ``smallest``: the table sizes (as even as
    they can be, the larger first) and how many have a bye (the fewest that lets the rest sit)."""
    if not 2 <= smallest <= size:
        raise ValueError(f"tables of {smallest} to {size} players")
    for byes in range(count + 1):
        seated = count - byes
        tables = -(-seated // size)
        if tables * smallest <= seated:
            base, extra = divmod(seated, tables) if tables else (0, 0)
            return [base + 1] * extra + [base] * (tables - extra), byes
    return [], count  # never reached: no player seated is always possible


def swiss_tables(entrants: list[Entrant], size: int, smallest: int) -> Round:
    """Multi-player Swiss: tables of `size` (some smaller, down to `smallest`, when the count does
    not divide) filled by score then rating, avoiding repeat meetings where it can; seat order by
    fewest firsts.

    The byes (when the count cannot all sit) go to the lowest placed with the fewest byes.  The
    tables are filled in place order, then players are swapped between tables to lower (in this
    order) the first seats going to players who sat first already, the pairs meeting again, and
    how far players sit from the table place order gave them; nobody moves more than one table
    up or down.  The same field always gets the same tables."""
    ranked = place_order(entrants)
    if len({e.player for e in ranked}) != len(ranked):
        raise ValueError("a player is entered twice")
    sizes, bye_count = table_sizes(len(ranked), size, smallest)
    byes = sorted(reversed(ranked), key=lambda e: e.byes)[:bye_count]
    seated = [e for e in ranked if e not in byes]
    tables: list[list[Entrant]] = []
    for n in sizes:
        tables.append(seated[:n])
        seated = seated[n:]
    home = {e.player: t for t, table in enumerate(tables) for e in table}
    seats = tuple(tuple(e.player for e in _seat_order(table)) for table in _improved(tables, home))
    return Round(seats, tuple(e.player for e in place_order(byes)))


def _improved(tables: list[list[Entrant]], home: dict[str, int]) -> list[list[Entrant]]:
    """The tables settled by swaps, then shaken up to KICKS times (two swaps at random, the same
    ones for the same field) and settled again, keeping the best: a way out of a seating no
    single swap improves."""
    _swap_until_settled(tables, home)
    best, lowest = tables, _total_cost(tables, home)
    rng = random.Random(len(home))
    for _ in range(min(KICKS, KICKED_SEATS // len(home)) if len(tables) > 1 else 0):
        trial = [list(table) for table in best]
        for _ in range(2):
            i = rng.randrange(len(trial) - 1)
            j = rng.randrange(i + 1, min(i + 3, len(trial)))
            x, y = rng.randrange(len(trial[i])), rng.randrange(len(trial[j]))
            if abs(home[trial[i][x].player] - j) <= 1 and abs(home[trial[j][y].player] - i) <= 1:
                trial[i][x], trial[j][y] = trial[j][y], trial[i][x]
        _swap_until_settled(trial, home)
        if (cost := _total_cost(trial, home)) < lowest:
            best, lowest = trial, cost
    return best


def _total_cost(tables: list[list[Entrant]], home: dict[str, int]) -> tuple[int, int, int]:
    total = (0, 0, 0)
    for index, table in enumerate(tables):
        total = _add(total, _table_cost(table, index, home))
    return total


def _swap_until_settled(tables: list[list[Entrant]], home: dict[str, int]) -> None:
    """Swap players between tables while a swap lowers ``_table_cost`` of the two tables, never
    seating a player more than one table away from its ``home`` table."""
    for _ in range(SWAP_PASSES):
        swapped = False
        near = [(i, j) for i, j in itertools.combinations(range(len(tables)), 2) if j - i <= 2]
        for i, j in near:  # further apart, one of the two would sit over a table from home
            for x, y in itertools.product(range(len(tables[i])), range(len(tables[j]))):
                a, b = tables[i], tables[j]
                if abs(home[a[x].player] - j) > 1 or abs(home[b[y].player] - i) > 1:
                    continue
                before = _add(_table_cost(a, i, home), _table_cost(b, j, home))
                a2, b2 = [*a[:x], b[y], *a[x + 1:]], [*b[:y], a[x], *b[y + 1:]]
                if _add(_table_cost(a2, i, home), _table_cost(b2, j, home)) < before:
                    tables[i], tables[j] = a2, b2
                    swapped = True
        if not swapped:
            return


def _table_cost(table: list[Entrant], index: int, home: dict[str, int]) -> tuple[int, int, int]:
    """What a table costs, compared in order: how many times the one who would sit first (the one
    who sat first least) has sat first already; pairs at it that met before; how far (in tables)
    its players sit from where place order put them."""
    firsts = min(e.firsts for e in table)
    repeats = sum(1 for a, b in itertools.combinations(table, 2) if b.player in a.met or a.player in b.met)
    displaced = sum(abs(home[e.player] - index) for e in table)
    return firsts, repeats, displaced


def _add(a: tuple[int, int, int], b: tuple[int, int, int]) -> tuple[int, int, int]:
    return a[0] + b[0], a[1] + b[1], a[2] + b[2]


def _seat_order(table: list[Entrant]) -> list[Entrant]:
    """Seat order at a multi-player table: fewest firsts first, then most seconds (the one who
    waited most), then place order."""
    order = {e.player: n for n, e in enumerate(place_order(table))}
    return sorted(table, key=lambda e: (e.firsts, -e.seconds, order[e.player]))
