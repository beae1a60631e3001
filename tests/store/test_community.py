"""The community's repository (gm.store.community): public players and their unique names, rated
games, results and ratings, on a fresh store of each back end."""

from __future__ import annotations

import re

import pytest

from gm.core import rating
from gm.store.community import RatedGameRow, RatedResultRow, RatingRow

T = 1_700_000_000.0


def test_a_pair_gets_one_id_and_the_seat_name_made_unique(store):
    with store.write():
        ada = store.community.player_id_for("Ada@Example.org", "Ada", T)
        again = store.community.player_id_for("ada@example.org", "Ada", T + 1)
        other_seat = store.community.player_id_for("ada@example.org", "Red", T)
        namesake = store.community.player_id_for("someone@example.net", "ADA", T)
        third = store.community.player_id_for("third@example.net", "ada", T)
    assert ada == again and len({ada, other_seat, namesake, third}) == 4
    assert re.fullmatch(r"[0-9a-f]{16}", ada)
    row = store.community.player(ada)
    assert (row.address, row.seat_name, row.name, row.chosen, row.updated) == ("ada@example.org", "Ada", "Ada", 0, T)
    assert store.community.player(namesake).name == "ADA-2"
    assert store.community.player(third).name == "ada-3"
    assert store.community.by_name("aDa-2").player_id == namesake
    assert store.community.by_name("nobody") is None and store.community.player("0" * 16) is None


def test_a_linked_address_counts_every_seat_for_one_id(store):
    with store.write():
        pair = store.community.player_id_for("ada@example.org", "Ada", T)
        linked = store.community.link("ADA@example.org", "Lovelace", T + 1)
        assert store.community.player_id_for("ada@example.org", "Ada", T + 2) == linked
        assert store.community.player_id_for("ada@example.org", "Other", T + 2) == linked
        assert store.community.link("ada@example.org", "Countess", T + 3) == linked
    assert [p.seat_name for p in store.community.players_of("Ada@example.org")] == ["", "Ada"]
    row = store.community.player(linked)
    assert (row.name, row.chosen, row.updated) == ("Countess", 1, T + 3)
    assert store.community.by_name("lovelace") is None and store.community.player(pair).name == "Ada"


def test_a_rename_frees_the_old_name(store):
    with store.write():
        ada = store.community.player_id_for("ada@example.org", "Ada", T)
        store.community.rename(ada, "Byron", T + 1)
        bob = store.community.player_id_for("bob@example.org", "Ada", T + 2)
    assert store.community.by_name("BYRON").player_id == ada and store.community.player(ada).chosen == 1
    assert store.community.player(bob).name == "Ada"


def result(game: str, player: str, rank: int, ended: float, mu: float = 25.0) -> RatedResultRow:
    return RatedResultRow(game, player, "neighbors", player, rank, ended, mu, 8.0)


def test_results_games_and_the_ladder(store):
    with store.write():
        store.community.record_game(RatedGameRow("g1", "neighbors", T, 1, ""))
        store.community.record_game(RatedGameRow("g0", "neighbors", T - 5, 0, "ada never moved"))
        store.community.add_result(result("g1", "b", 2, T, 20.0))
        store.community.add_result(result("g1", "a", 1, T, 30.0))
        store.community.add_result(result("g2", "a", 1, T + 9))
        store.community.set_result_rating("g2", "a", 31.5, 7.5)
        store.community.set_rating(RatingRow("neighbors", "a", 30.0, 8.0, 1, "g1", T))
        store.community.set_rating(RatingRow("neighbors", "b", 20.0, 1.0, 1, "g1", T))
        store.community.set_rating(RatingRow("neighbors", "b", 21.0, 1.0, 2, "g2", T + 9))  # replaced
        store.community.set_rating(RatingRow("phalanx", "a", 25.0, 8.0, 1, "g3", T))
    assert store.community.rated_game("g0") == RatedGameRow("g0", "neighbors", T - 5, 0, "ada never moved")
    assert store.community.rated_game("nope") is None
    assert [r.game_id for r in store.community.results_of("a")] == ["g1", "g2"]
    assert store.community.results_of("a")[1].mu == 31.5
    assert [(r.game_id, r.player_id) for r in store.community.results_of_kind("neighbors")] == [
        ("g1", "a"), ("g1", "b"), ("g2", "a")]
    assert [r.player_id for r in store.community.results_of_game("g1")] == ["a", "b"]
    # b's ordinal 18 beats a's 6
    assert [r.player_id for r in store.community.ladder("neighbors")] == ["b", "a"]
    assert store.community.rating("neighbors", "b") == RatingRow("neighbors", "b", 21.0, 1.0, 2, "g2", T + 9)
    assert store.community.kinds_rated() == ["neighbors", "phalanx"]
    with store.write():
        store.community.clear_ratings("neighbors")
        store.community.forget_game("g1")
    assert store.community.kinds_rated() == ["phalanx"] and store.community.rated_game("g1") is None
    assert [r.game_id for r in store.community.results_of_kind("neighbors")] == ["g2"]


def test_moving_results_keeps_the_linked_result_of_a_game_both_played(store):
    with store.write():
        store.community.add_result(result("g1", "pair", 1, T))
        store.community.add_result(result("g2", "pair", 2, T + 1))
        store.community.add_result(result("g2", "linked", 1, T + 1))
        assert store.community.move_results("pair", "linked") == {"neighbors"}
    assert [(r.game_id, r.rank) for r in store.community.results_of("linked")] == [("g1", 1), ("g2", 1)]
    assert store.community.results_of("pair") == []


def test_writes_need_a_transaction(store):
    with pytest.raises(RuntimeError):
        store.community.player_id_for("ada@example.org", "Ada", T)


@pytest.mark.parametrize("games, text", [(0, "0.0 ±8.3 provisional"), (rating.PROVISIONAL_GAMES, "0.0 ±8.3")])
def test_a_rating_shown(games, text):
    assert rating.shown(25.0, 25 / 3, games) == text
    assert rating.ordinal(30.0, 2.0) == 24.0
