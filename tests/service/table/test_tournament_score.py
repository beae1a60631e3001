"""Tournament points and standings (gm.service.table.tournamentscore), worked by hand: each expected
figure is written as the arithmetic from the games, not pasted from a run."""

from __future__ import annotations

import pytest

from gm.service.table.tournamentscore import (
    BYE_POINTS,
    MULTI_PLAYER_TIEBREAKS,
    TWO_PLAYER_TIEBREAKS,
    Standing,
    TableResult,
    ranks,
    standings,
    table_points,
)


def won(rnd: int, winner: str, loser: str) -> TableResult:
    return TableResult(rnd, (winner, loser), ((winner,), (loser,)))


def drew(rnd: int, a: str, b: str) -> TableResult:
    return TableResult(rnd, (a, b), ((a, b),))


def test_two_player_points_are_one_for_a_win_half_for_a_draw():
    assert table_points(won(1, "a", "b"), "a") == 1.0
    assert table_points(won(1, "a", "b"), "b") == 0.0
    assert table_points(drew(1, "a", "b"), "a") == table_points(drew(1, "a", "b"), "b") == 0.5
    with pytest.raises(ValueError):
        table_points(won(1, "a", "b"), "c")


def test_multi_player_points_count_those_below_and_half_those_tied():
    game = TableResult(1, ("a", "b", "c", "d"), (("a",), ("b", "c"), ("d",)))
    assert table_points(game, "a") == 3  # a table win: table size - 1
    assert table_points(game, "b") == table_points(game, "c") == 1 + 1 / 2
    assert table_points(game, "d") == 0
    assert ranks(game) == {"a": 1, "b": 2, "c": 2, "d": 4}
    shared = TableResult(1, ("x", "y", "z"), (("x", "y", "z"),))
    assert [table_points(shared, p) for p in "xyz"] == [2 / 2] * 3
    assert sum(table_points(game, p) for p in "abcd") == 4 * 3 / 2  # every pair shares one point


def test_a_player_the_ranking_leaves_out_is_ranked_last():
    game = TableResult(1, ("a", "b", "c"), (("b",),))
    assert ranks(game) == {"b": 1, "a": 2, "c": 2}


def test_swiss_of_five_with_byes_worked_by_hand():
    """Three rounds of a Swiss of five: a bye is worth BYE_POINTS and adds nothing to Buchholz or
    Sonneborn-Berger; c and e end level on points and Buchholz puts c above."""
    results = [won(1, "a", "b"), drew(1, "c", "d"),       # e: bye
               drew(2, "a", "c"), won(2, "e", "b"),       # d: bye
               won(3, "a", "e"), won(3, "b", "d")]        # c: bye
    byes = {"e": 1, "d": 1, "c": 1}
    a, b, c, d, e = 1 + 0.5 + 1, 0 + 0 + 1, 0.5 + 0.5 + BYE_POINTS, 0.5 + BYE_POINTS + 0, BYE_POINTS + 1 + 0
    buchholz = {"a": b + c + e, "b": a + e + d, "c": d + a, "d": c + b, "e": b + a}
    sonneborn_berger = {"a": b + c / 2 + e, "b": d, "c": d / 2 + a / 2, "d": c / 2, "e": b}
    table = standings(["a", "b", "c", "d", "e"], results, byes, two_player=True)
    assert table == [
        Standing(1, "a", a, 3, (buchholz["a"], sonneborn_berger["a"])),
        Standing(2, "c", c, 2, (buchholz["c"], sonneborn_berger["c"])),
        Standing(3, "e", e, 2, (buchholz["e"], sonneborn_berger["e"])),
        Standing(4, "d", d, 2, (buchholz["d"], sonneborn_berger["d"])),
        Standing(5, "b", b, 3, (buchholz["b"], sonneborn_berger["b"])),
    ]
    assert (c, buchholz["c"]) == (2.0, 4.0) and (e, buchholz["e"]) == (2.0, 3.5)
    assert TWO_PLAYER_TIEBREAKS == ("Buchholz", "Sonneborn-Berger")


def test_round_robin_tie_on_buchholz_is_broken_by_sonneborn_berger():
    """In a round robin everyone's Buchholz is the others' points, so a tie on points is a tie on
    Buchholz too; a beat b and drew c, b beat d and drew c: a's win was over the stronger."""
    results = [won(1, "a", "b"), won(1, "c", "d"),
               drew(2, "a", "c"), won(2, "b", "d"),
               won(3, "d", "a"), drew(3, "b", "c")]
    a, b, c, d = 1 + 0.5 + 0, 0 + 1 + 0.5, 1 + 0.5 + 0.5, 0 + 0 + 1
    total = a + b + c + d
    table = standings(["a", "b", "c", "d"], results, {}, two_player=True)
    assert [(s.place, s.player, s.points) for s in table] == [(1, "c", c), (2, "a", a), (3, "b", b), (4, "d", d)]
    assert table[1].tiebreaks == (total - a, b + c / 2)
    assert table[2].tiebreaks == (total - b, d + c / 2)
    assert table[1].tiebreaks[0] == table[2].tiebreaks[0] and table[1].tiebreaks[1] > table[2].tiebreaks[1]


def test_players_level_on_points_and_every_tiebreak_share_a_place():
    """A cycle: a beats c, c beats b... every one on the same points, Buchholz and SB."""
    results = [drew(1, "a", "b"), drew(1, "c", "d"),
               won(2, "a", "c"), won(2, "b", "d"),
               won(3, "d", "a"), won(3, "c", "b")]
    points = 0.5 + 1 + 0
    table = standings(["d", "c", "b", "a"], results, {}, two_player=True)
    assert [(s.place, s.player) for s in table] == [(1, "a"), (1, "b"), (1, "c"), (1, "d")]
    assert {s.tiebreaks for s in table} == {(3 * points, points / 2 + points)}


def test_a_withdrawn_player_still_counts_in_its_opponents_tiebreaks():
    results = [won(1, "a", "w"), won(1, "b", "c"), won(2, "w", "c"), won(2, "a", "b")]
    w, c = 0 + 1, 0 + 0
    table = standings(["a", "b", "c"], results, {}, two_player=True)
    assert [s.player for s in table] == ["a", "b", "c"]
    assert table[0].tiebreaks == (w + 1, w + 1)  # opponents w and b, both beaten
    assert table[2].tiebreaks == (1 + w, 0)
    assert c == table[2].points


def test_multi_player_standings_by_points_then_fewest_ranks_with_a_tied_tier():
    results = [TableResult(1, ("a", "b", "c", "d"), (("a",), ("b", "c"), ("d",))),
               TableResult(2, ("a", "b", "c", "d"), (("d",), ("b",), ("c",), ("a",))),
               TableResult(2, ("e", "f", "g"), (("e", "f"), ("g",)))]
    a, b, c, d = 3 + 0, 1.5 + 2, 1.5 + 1, 0 + 3
    e, f, g = 1.5 + BYE_POINTS, 1.5 + BYE_POINTS, 0 + BYE_POINTS
    byes = {"e": 1, "f": 1, "g": 1}
    table = standings(list("abcdefg"), results, byes, two_player=False)
    assert [(s.place, s.player, s.points, s.tiebreaks) for s in table] == [
        (1, "b", b, (2 + 2,)),
        (2, "a", a, (1 + 4,)),
        (2, "d", d, (4 + 1,)),  # level with a on points and ranks: the same place
        (4, "e", e, (1,)),
        (4, "f", f, (1,)),
        (6, "c", c, (2 + 3,)),
        (7, "g", g, (3,)),
    ]
    assert a == d and c == e == f and MULTI_PLAYER_TIEBREAKS == ("sum of ranks",)


def test_a_player_with_no_game_yet_stands_on_its_byes():
    table = standings(["a", "b"], [], {"b": 1}, two_player=True)
    assert table == [Standing(1, "b", BYE_POINTS, 0, (0.0, 0.0)), Standing(2, "a", 0.0, 0, (0.0, 0.0))]
