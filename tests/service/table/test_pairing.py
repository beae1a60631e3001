"""Tournament pairings (gm.service.table.pairing): round robin, two-player Swiss, Swiss tables.

Round robins are checked whole for 4 to 8 players; Swiss rounds are played out with random
results (hypothesis picks the seeds) and every round is checked against what the rules promise:
no repeat pairing, one bye a round for an odd count and never twice to one player, seats within
two of even, and pairs as close in score as any pairing without repeats allows (found here by
brute force, independently of the search under test)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.service.table import pairing
from gm.service.table.pairing import Entrant, PairingError, round_robin, swiss_pairs, swiss_tables, table_sizes


def names(count: int) -> list[str]:
    return [f"p{n:02d}" for n in range(count)]


def entrant(player: str, score: float = 0.0, met: str = "", firsts: int = 0, seconds: int = 0,
            byes: int = 0, rating: float = 0.0, last_first: bool | None = None) -> Entrant:
    return Entrant(player, score, rating, firsts, seconds, byes, frozenset(met.split()), last_first)


# --- round robin ------------------------------------------------------------------
@pytest.mark.parametrize("count", [4, 5, 6, 7, 8])
def test_round_robin_meets_every_pair_once_with_balanced_seats(count):
    players = names(count)
    rounds = round_robin(players)
    assert len(rounds) == (count if count % 2 else count - 1)
    met = Counter(frozenset(t) for r in rounds for t in r.tables)
    assert set(met) == {frozenset(p) for p in itertools.combinations(players, 2)}
    assert set(met.values()) == {1}
    for r in rounds:
        assert sorted([*(p for t in r.tables for p in t), *r.byes]) == players
        assert len(r.byes) == count % 2
    assert Counter(p for r in rounds for p in r.byes) == (Counter(players) if count % 2 else Counter())
    firsts = Counter(t[0] for r in rounds for t in r.tables)
    seconds = Counter(t[1] for r in rounds for t in r.tables)
    assert all(abs(firsts[p] - seconds[p]) <= 1 for p in players)
    assert max(firsts[p] for p in players) - min(firsts[p] for p in players) <= 1


@pytest.mark.parametrize("count", [4, 5, 6, 7, 8])
def test_round_robin_twice_swaps_the_seats_of_every_pairing(count):
    players = names(count)
    once, twice = round_robin(players), round_robin(players, twice=True)
    assert twice[:len(once)] == once
    seated = Counter(t for r in twice for t in r.tables)
    assert set(seated.values()) == {1}
    assert all((b, a) in seated for a, b in seated)
    assert len(seated) == count * (count - 1)
    firsts = Counter(t[0] for r in twice for t in r.tables)
    assert set(firsts.values()) == {count - 1}  # exactly half of its 2 * (count - 1) games
    assert Counter(p for r in twice for p in r.byes) == (Counter(players * 2) if count % 2 else Counter())


def test_round_robin_of_fewer_than_two_has_no_round_and_refuses_a_player_twice():
    assert round_robin([]) == [] and round_robin(["a"]) == []
    assert round_robin(["a", "b"])[0].tables == (("b", "a"),)
    with pytest.raises(ValueError):
        round_robin(["a", "b", "a"])


# --- two-player Swiss --------------------------------------------------------------
class SwissRun:
    """A two-player Swiss played out with random results (a win, a loss or a draw)."""

    def __init__(self, count: int, seed: int, remember_last: bool = True) -> None:
        self.rng = random.Random(seed)
        self.remember_last = remember_last  # pass on who sat first last time (else None)
        self.players = names(count)
        self.score = dict.fromkeys(self.players, 0.0)
        self.rating = {p: self.rng.choice([0.0, round(self.rng.uniform(0, 30), 1)]) for p in self.players}
        self.firsts = Counter[str]()
        self.seconds = Counter[str]()
        self.byes = Counter[str]()
        self.met: dict[str, set[str]] = {p: set() for p in self.players}
        self.last_first: dict[str, bool] = {}

    def entrants(self) -> list[Entrant]:
        return [Entrant(p, self.score[p], self.rating[p], self.firsts[p], self.seconds[p], self.byes[p],
                        frozenset(self.met[p]), self.last_first.get(p) if self.remember_last else None)
                for p in self.players]

    def play(self, rnd: pairing.Round) -> None:
        for a, b in rnd.tables:
            self.met[a].add(b)
            self.met[b].add(a)
            self.firsts[a] += 1
            self.seconds[b] += 1
            self.last_first |= {a: True, b: False}
            outcome = self.rng.choice([(1.0, 0.0), (0.0, 1.0), (0.5, 0.5)])
            self.score[a] += outcome[0]
            self.score[b] += outcome[1]
        for p in rnd.byes:
            self.byes[p] += 1
            self.score[p] += 1.0


def smallest_widest_gap(players: list[str], score: dict[str, float], met: dict[str, set[str]],
                        owed: dict[str, int] | None = None) -> float:
    """The smallest largest score gap of any pairing of ``players`` without repeats, by brute force
    (infinite when there is none); with ``owed`` (firsts less seconds), of those pairing nobody with
    one owed the same seat twice over, when there are any."""
    best = float("inf")

    def may_meet(a: str, b: str) -> bool:
        same_seat = owed is not None and (owed[a] >= 2 and owed[b] >= 2 or owed[a] <= -2 and owed[b] <= -2)
        return b not in met[a] and not same_seat

    def pair(left: list[str], widest: float) -> None:
        nonlocal best
        if widest >= best:
            return
        if not left:
            best = widest
            return
        first, rest = left[0], left[1:]
        for other in rest:
            if may_meet(first, other):
                pair([p for p in rest if p != other], max(widest, abs(score[first] - score[other])))

    pair(players, 0.0)
    return best if best < float("inf") or owed is None else smallest_widest_gap(players, score, met)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shape=st.sampled_from([(9, 4), (8, 5), (10, 5), (11, 5)]),
       remember_last=st.booleans())
def test_swiss_rounds_keep_every_promise(seed, shape, remember_last):
    count, rounds = shape
    run = SwissRun(count, seed, remember_last)
    for _ in range(rounds):
        entrants = run.entrants()
        rnd = swiss_pairs(entrants)
        seated = [p for t in rnd.tables for p in t]
        assert sorted(seated + list(rnd.byes)) == run.players
        assert all(len(t) == 2 and t[1] not in run.met[t[0]] for t in rnd.tables)
        assert len(rnd.byes) == count % 2
        assert all(run.byes[p] == 0 for p in rnd.byes)
        placed = [e.player for e in pairing.place_order(entrants)]
        for lower in placed[placed.index(rnd.byes[0]) + 1:] if rnd.byes else []:
            rest = [p for p in run.players if p != lower]
            assert run.byes[lower] or smallest_widest_gap(rest, run.score, run.met) == float("inf")
        widest = max(abs(run.score[a] - run.score[b]) for a, b in rnd.tables)
        owed = {e.player: e.firsts - e.seconds for e in entrants}
        assert widest == smallest_widest_gap(seated, run.score, run.met, owed)
        run.play(rnd)
    assert all(abs(run.firsts[p] - run.seconds[p]) <= 2 for p in run.players)
    assert max(run.byes.values(), default=0) <= 1


def test_swiss_first_round_pairs_top_half_against_bottom_half_alternating_seats():
    rnd = swiss_pairs([entrant(p, rating=float(10 - n)) for n, p in enumerate(names(6))])
    assert rnd.tables == (("p00", "p03"), ("p04", "p01"), ("p02", "p05"))
    assert rnd.byes == ()


def test_swiss_pairs_within_a_score_group_before_floating_down():
    field = [entrant("a", 2), entrant("b", 2), entrant("c", 1), entrant("d", 1), entrant("e", 1), entrant("f", 1)]
    assert {frozenset(t) for t in swiss_pairs(field).tables} == {
        frozenset("ab"), frozenset("ce"), frozenset("df")}


def test_swiss_backtracks_where_the_greedy_pairing_would_repeat():
    """All on 1 point: the Dutch order pairs a-d, b-e, c-f, but c and f met; taking each one's most
    wanted partner in turn would leave them together.  The search goes back and changes b's pair."""
    field = [entrant("a", 1), entrant("b", 1), entrant("c", 1, met="f"), entrant("d", 1), entrant("e", 1),
             entrant("f", 1, met="c")]

    def greedy(entrants: list[Entrant]) -> list[frozenset[str]]:
        left, pairs = [e.player for e in entrants], []
        while left:
            top, rest = left[0], left[1:]
            partner = rest[(len(rest) + 1) // 2 - 1] if rest else top
            pairs.append(frozenset((top, partner)))
            left = [p for p in rest if p != partner]
        return pairs

    assert frozenset("cf") in greedy(field)
    pairs = {frozenset(t) for t in swiss_pairs(field).tables}
    assert frozenset("cf") not in pairs and len(pairs) == 3
    assert frozenset("ad") in pairs  # the top pair is kept: only what follows changed


def test_swiss_gives_the_bye_to_the_lowest_placed_who_has_had_none():
    field = [entrant("a", 2), entrant("b", 2), entrant("c", 1), entrant("d", 1), entrant("e", 0, byes=1)]
    assert swiss_pairs(field).byes == ("d",)


def test_swiss_gives_the_bye_higher_up_when_the_rest_could_not_be_paired():
    field = [entrant("a", 2, met="b c"), entrant("b", 2, met="a c"), entrant("c", 1, met="a b"), entrant("d", 0)]
    field.append(entrant("e", 0))
    rnd = swiss_pairs(field)
    assert rnd.byes in {("a",), ("b",), ("c",)}
    assert all(len(set(t) & {"a", "b", "c"}) == 1 for t in rnd.tables)


def test_swiss_seats_the_one_owed_a_first_move_first():
    assert swiss_pairs([entrant("a", firsts=2, seconds=1), entrant("b", firsts=1, seconds=2)]).tables == (("b", "a"),)
    # even: the better placed alternates
    assert swiss_pairs([entrant("a", 1, firsts=1, seconds=1, last_first=True),
                        entrant("b", 0, firsts=1, seconds=1, last_first=True)]).tables == (("b", "a"),)
    assert swiss_pairs([entrant("a", 1, firsts=1, seconds=1, last_first=False),
                        entrant("b", 0, firsts=1, seconds=1, last_first=False)]).tables == (("a", "b"),)


def test_swiss_never_pairs_two_owed_the_same_seat_twice_over_when_it_can_avoid_it():
    field = [entrant("a", 1, firsts=2), entrant("b", 1, firsts=2), entrant("c", 0), entrant("d", 0)]
    pairs = {frozenset(t) for t in swiss_pairs(field).tables}
    assert frozenset("ab") not in pairs


def test_swiss_raises_when_every_pairing_repeats():
    field = [entrant(p, met=" ".join(q for q in "abcd" if q != p)) for p in "abcd"]
    with pytest.raises(PairingError):
        swiss_pairs(field)
    # two groups of three who met everyone of the other group: one of each group is left over
    field = [entrant(p, met="d e f" if p in "abc" else "a b c") for p in "abcdef"]
    with pytest.raises(PairingError):
        swiss_pairs(field)


def test_swiss_search_is_bounded(monkeypatch):
    field = [entrant("a", 1), entrant("b", 1), entrant("c", 1, met="f"), entrant("d", 1), entrant("e", 1),
             entrant("f", 1, met="c")]
    monkeypatch.setattr(pairing, "ROUND_STEPS", 2)
    with pytest.raises(PairingError):
        swiss_pairs(field)


def test_swiss_refuses_a_player_entered_twice():
    with pytest.raises(ValueError):
        swiss_pairs([entrant("a"), entrant("a")])


# --- Swiss tables --------------------------------------------------------------------
def test_table_sizes_seat_everyone_they_can_at_tables_as_even_as_they_can_be():
    assert table_sizes(12, 4, 4) == ([4, 4, 4], 0)
    assert table_sizes(13, 4, 3) == ([4, 3, 3, 3], 0)
    assert table_sizes(10, 4, 3) == ([4, 3, 3], 0)
    assert table_sizes(5, 4, 4) == ([4], 1)
    assert table_sizes(7, 4, 3) == ([4, 3], 0)
    assert table_sizes(5, 4, 2) == ([3, 2], 0)
    assert table_sizes(2, 4, 3) == ([], 2)
    with pytest.raises(ValueError):
        table_sizes(8, 3, 4)


class TablesRun:
    """A multi-player Swiss played out with random rankings (some tied)."""

    def __init__(self, count: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.players = names(count)
        self.score = dict.fromkeys(self.players, 0.0)
        self.firsts = Counter[str]()
        self.seconds = Counter[str]()
        self.byes = Counter[str]()
        self.met: dict[str, set[str]] = {p: set() for p in self.players}

    def entrants(self) -> list[Entrant]:
        return [Entrant(p, self.score[p], 0.0, self.firsts[p], self.seconds[p], self.byes[p],
                        frozenset(self.met[p])) for p in self.players]

    def play(self, rnd: pairing.Round) -> None:
        for table in rnd.tables:
            for a, b in itertools.combinations(table, 2):
                self.met[a].add(b)
                self.met[b].add(a)
            self.firsts[table[0]] += 1
            self.seconds.update(table[1:])
            for n, p in enumerate(self.rng.sample(table, len(table))):
                self.score[p] += float(n)
        for p in rnd.byes:
            self.byes[p] += 1
            self.score[p] += 1.0


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shape=st.sampled_from([(12, 4, 4), (13, 4, 3), (10, 4, 3)]))
def test_swiss_tables_seat_everyone_once_by_place_with_first_seats_spread(seed, shape):
    count, size, smallest = shape
    run = TablesRun(count, seed)
    sizes, _ = table_sizes(count, size, smallest)
    for _ in range(4):
        entrants = run.entrants()
        rnd = swiss_tables(entrants, size, smallest)
        assert [len(t) for t in rnd.tables] == sizes and rnd.byes == ()
        assert sorted(p for t in rnd.tables for p in t) == run.players
        home = {e.player: n for n, e in enumerate(pairing.place_order(entrants))}
        starts = list(itertools.accumulate(sizes, initial=0))
        for n, table in enumerate(rnd.tables):
            assert all(starts[max(n - 1, 0)] <= home[p] < starts[min(n + 2, len(sizes))] for p in table)
            assert run.firsts[table[0]] == min(run.firsts[p] for p in table)
        run.play(rnd)
    assert max(run.firsts.values()) <= 2
    if count == 12:
        assert sum(1 for p in run.players if run.firsts[p] == 0) <= 2


def test_swiss_tables_avoid_repeat_meetings_where_they_can():
    """Round 2 of eight on equal points who sat 0-3 and 4-7: at best each table has two from each
    first-round table, so four pairs meet again, and no more."""
    first = [names(8)[:4], names(8)[4:]]
    field = [entrant(p, met=" ".join(q for q in table if q != p)) for table in first for p in table]
    rnd = swiss_tables(field, 4, 4)
    again = sum(1 for t in rnd.tables for a, b in itertools.combinations(t, 2) if any({a, b} <= set(f) for f in first))
    assert again == 4


def test_swiss_tables_seat_the_one_who_sat_first_least_first_and_give_byes_to_the_lowest():
    field = [entrant("a", 3, firsts=1), entrant("b", 2), entrant("c", 1, firsts=1, seconds=1), entrant("d", 1),
             entrant("e", 0)]
    rnd = swiss_tables(field, 4, 4)
    assert rnd.byes == ("e",)
    assert rnd.tables == (("b", "d", "c", "a"),)


def test_swiss_of_none_or_one_player():
    assert swiss_pairs([]) == pairing.Round((), ())
    assert swiss_pairs([entrant("a")]) == pairing.Round((), ("a",))


def test_swiss_tables_give_the_same_field_the_same_tables():
    run = TablesRun(13, 7)
    for _ in range(3):
        run.play(swiss_tables(run.entrants(), 4, 3))
    assert swiss_tables(run.entrants(), 4, 3) == swiss_tables(list(reversed(run.entrants())), 4, 3)
