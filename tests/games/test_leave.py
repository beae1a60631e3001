"""RULINGS G5 in every game: ``leave(state, player, now)``, a player removed (ejected, resigned).

The removed seat sends no orders from then on and the game treats it as its
rules for a missing order say: Neighbors skips it in the turn order, Fuzzy
Borders keeps its claims on the board and places nothing for it, Pivot Pawns
withdraws its bid, and the two-player games end with the other player's win.
"""

from __future__ import annotations

import pytest

from games import registry
from games.base import Game, GameError, NotYourTurnError
from games.fuzzy_borders import GAME as FB
from games.neighbors import GAME as NB
from games.phalanx import GAME as PH
from games.pivot_pawns import GAME as PP
from games.pivot_pawns.orders import PivotMove, solution_text
from games.proximity import GAME as PX

T0 = 1_800_000_000.0
KINDS = ["neighbors", "fuzzy-borders", "phalanx", "proximity", "pivot-pawns"]


def names_for(rules) -> list[str]:
    return ["ada", "bob", "cy"][: min(3, rules.max_players)]


def texts(result) -> list[str]:
    return [event.text for event in result.events]


def round_trip(rules, state):
    data = rules.dump(state)
    again = rules.load(data)
    assert rules.dump(again) == data
    return again


# --- every game ------------------------------------------------------------------------


def test_leave_is_part_of_the_game_interface():
    assert getattr(Game.leave, "__isabstractmethod__", False)
    for kind in KINDS:
        assert type(registry.get(kind)).leave is not Game.leave, kind


@pytest.mark.parametrize("kind", KINDS)
def test_g5_a_removed_player_sends_no_more_orders(kind):
    rules = registry.get(kind)
    names = names_for(rules)
    state = rules.start(rules.setup(names, {}, 7), T0)
    gone = names[-1]
    result = rules.leave(state, gone, T0 + 5)
    after = result.state
    assert texts(result)[0].startswith(f"{gone} has left the game.")
    assert all(event.to is None for event in result.events)  # public news
    assert rules.removed(after) == [gone] and rules.removed(state) == []  # input unchanged
    assert gone not in rules.to_move(after)
    assert gone not in rules.remaining(after) and gone in rules.players(after)
    with pytest.raises(NotYourTurnError, match="left"):
        rules.check_turn(after, gone)
    with pytest.raises(GameError, match="already left"):
        rules.leave(after, gone, T0 + 6)
    with pytest.raises(GameError, match="does not play"):
        rules.leave(state, "zed", T0)
    assert gone not in rules.winners(after)


@pytest.mark.parametrize("kind", KINDS)
def test_g5_the_removed_seat_round_trips_and_old_states_still_load(kind):
    rules = registry.get(kind)
    names = names_for(rules)
    state = rules.start(rules.setup(names, {}, 3), T0)
    old = rules.dump(state)
    assert "left" not in old  # written only when someone has left
    assert rules.dump(rules.load(old)) == old
    after = rules.leave(state, names[0], T0).state
    data = rules.dump(after)
    assert data["left"] == [names[0]]
    again = round_trip(rules, after)
    assert rules.removed(again) == [names[0]]
    assert rules.to_move(again) == rules.to_move(after)
    assert rules.is_over(again) == rules.is_over(after)
    assert rules.winners(again) == rules.winners(after)


@pytest.mark.parametrize("kind", KINDS)
def test_g5_nobody_can_leave_a_finished_game(kind):
    rules = registry.get(kind)
    names = names_for(rules)
    state = rules.setup(names, {}, 3)
    while not rules.is_over(state):
        state = rules.leave(state, rules.remaining(state)[0], T0).state
    assert rules.to_move(state) == []
    left = rules.remaining(state)  # one left (G7), or nobody
    with pytest.raises(GameError, match="over" if left else "already left"):
        rules.leave(state, left[0] if left else names[0], T0)


# --- Neighbors -------------------------------------------------------------------------


def nb_layout(rows_top_first: list[str]) -> str:
    return "/".join(rows_top_first)


# g6 rook; a1 and b1 queens: a1xb1 (a queen), then b1xg6 (a rook) ends the game.
SHORT = nb_layout(["......R", ".......", ".......", ".......", ".......", "QQ....."])


def test_neighbors_the_removed_seat_is_skipped_in_the_turn_order():
    state = NB.setup(["ada", "bob", "cy"], {}, 5)
    state = NB.submit(state, "ada", NB.parse_order(state, "ada", NB.legal_orders(state, "ada")[0]),
                      T0).state
    assert NB.to_move(state) == ["bob"]
    result = NB.leave(state, "bob", T0)  # bob was to move: cy moves instead
    state = result.state
    assert NB.to_move(state) == ["cy"]
    assert texts(result)[-1] == "cy is to move."
    assert not NB.is_over(state)  # two players remain: the game goes on
    order = []
    for _ in range(4):
        (mover,) = NB.to_move(state)
        order.append(mover)
        move = NB.legal_orders(state, mover)[0]
        state = NB.submit(state, mover, NB.parse_order(state, mover, move), T0).state
    assert order == ["cy", "ada", "cy", "ada"]
    assert [m.player for m in round_trip(NB, state).moves] == ["ada"] + order


def test_neighbors_a_seat_leaving_out_of_turn_keeps_the_order_of_the_others():
    state = NB.setup(["ada", "bob", "cy"], {}, 5)
    state = NB.leave(state, "cy", T0).state
    order = []
    for _ in range(4):
        (mover,) = NB.to_move(state)
        order.append(mover)
        move = NB.legal_orders(state, mover)[0]
        state = NB.submit(state, mover, NB.parse_order(state, mover, move), T0).state
    assert order == ["ada", "bob", "ada", "bob"]


def test_neighbors_two_players_one_leaves_the_other_wins_at_once():
    state = NB.setup(["ada", "bob"], {"layout": SHORT}, 5)
    state = NB.submit(state, "ada", NB.parse_order(state, "ada", "a1xb1"), T0).state
    result = NB.leave(state, "ada", T0)  # ada holds the majority of queens, but has left
    state = result.state
    assert NB.is_over(state) and NB.to_move(state) == []
    assert NB.winners(state) == ["bob"]
    assert NB.scores(state)["ada"] == 1  # kept for the record
    assert "Only bob remains" in texts(result)[-1] and "bob wins" in texts(result)[-1]


def test_neighbors_a_removed_player_is_never_a_winner_and_nb4_values_stay():
    state = NB.setup(["cy", "ada", "bob"], {"layout": SHORT}, 5)
    state = NB.submit(state, "cy", NB.parse_order(state, "cy", "a1xb1"), T0).state  # a queen
    state = NB.leave(state, "cy", T0).state
    assert NB.to_move(state) == ["ada"]
    state = NB.submit(state, "ada", NB.parse_order(state, "ada", "b1xg6"), T0).state  # a rook
    assert NB.is_over(state)  # NB3: no capture is left
    # Three started, so the piece values of NB4 stay with two left: the rook is 5, not a majority.
    assert NB.scores(state) == {"cy": 8, "ada": 5, "bob": 0}
    assert NB.winners(state) == ["ada"]  # cy has the most points but has left


# --- Fuzzy Borders ---------------------------------------------------------------------


def fb_play(state, claims, now=T0):
    for player, cell in claims.items():
        state = FB.submit(state, player, FB.parse_order(state, player, f"CLAIM {cell}"), now).state
    return state


def test_fuzzy_borders_the_removed_seat_stays_on_the_board_and_places_nothing():
    state = FB.setup(["ada", "bob", "cy"], {}, 1)
    state = FB.close_turn(fb_play(state, {"ada": "A15", "bob": "S5", "cy": "J10"}), T0).state
    assert state.turn == 2
    state = fb_play(state, {"cy": "J12"})
    before = FB.scores(state)["cy"]
    result = FB.leave(state, "cy", T0)
    state = result.state
    assert "sealed claim for turn 2 is withdrawn" in texts(result)[0]
    assert "cy" not in state.sealed and FB.to_move(state) == ["ada", "bob"]
    assert not FB.ready(state, T0)  # ada and bob are awaited, cy is not
    # FB2: cy's claim still exerts influence, so ada may not claim a cell cy leads.
    with pytest.raises(Exception, match="cannot claim J11"):
        FB.parse_order(state, "ada", "CLAIM J11")
    state = fb_play(state, {"ada": "A17", "bob": "S7"})
    assert FB.ready(state, T0)
    closed = FB.close_turn(state, T0)
    state = closed.state
    assert state.turn == 3 and not state.over
    assert state.last["placed"] == {"ada": "A17", "bob": "S7", "cy": None}  # FB5: nothing
    assert not any("cy" in line for line in texts(closed))  # never "cy sent no claim" again
    assert [c for _, c in state.claims["cy"]] == ["J10"]
    assert FB.scores(state)["cy"] > 0 and before > 0


def test_fuzzy_borders_the_turn_closes_when_the_last_awaited_player_leaves():
    state = FB.setup(["ada", "bob", "cy"], {}, 1)
    state = fb_play(state, {"ada": "A15", "bob": "S5"})
    result = FB.leave(state, "cy", T0)
    assert result.state.turn == 2  # every remaining player was in: adjudicated at once
    assert "ada claims A15." in texts(result) and "bob claims S5." in texts(result)


def test_fuzzy_borders_one_player_left_ends_the_game_and_wins():
    state = FB.setup(["ada", "bob"], {}, 1)
    state = FB.close_turn(fb_play(state, {"ada": "J10", "bob": "A15"}), T0).state
    assert FB.scores(state)["ada"] > FB.scores(state)["bob"]
    state = fb_play(state, {"ada": "J12"})
    result = FB.leave(state, "ada", T0)
    state = result.state
    assert FB.is_over(state) and state.sealed == {} and FB.to_move(state) == []
    assert FB.winners(state) == ["bob"]  # ada scores more, but has left
    assert texts(result)[-1].startswith("bob wins with")
    round_trip(FB, state)


def test_fuzzy_borders_a_removed_player_is_never_among_the_winners():
    state = FB.setup(["ada", "bob", "cy"], {"max_turns": "2"}, 1)
    state = FB.close_turn(fb_play(state, {"ada": "A10", "bob": "S10", "cy": "J10"}), T0).state
    state = FB.leave(state, "cy", T0).state
    closed = FB.close_turn(fb_play(state, {"ada": "B10", "bob": "J1"}), T0)
    state = closed.state
    assert state.over
    scores = FB.scores(state)
    assert scores["cy"] > max(scores["ada"], scores["bob"])  # kept for the record
    best = max(scores["ada"], scores["bob"])
    assert FB.winners(state) == [p for p in ("ada", "bob") if scores[p] == best]
    assert closed.events[-1].data["winners"] == FB.winners(state)


# --- Pivot Pawns -----------------------------------------------------------------------


def best_bid(state) -> str:
    pivots, best = PP.par(state)
    assert pivots, "the test seed needs a round with a solution of one pivot or more"
    return f"BID {pivots}: " + solution_text([PivotMove(m, q) for m, q in best])


def pp_send(state, player, text, now=T0):
    return PP.submit(state, player, PP.parse_order(state, player, text), now).state


def pp_seed() -> int:
    for seed in range(50):
        if PP.par(PP.setup(["ada"], {}, seed))[0]:
            return seed
    raise AssertionError("no seed with a solvable first round")


def test_pivot_pawns_a_removed_bid_is_withdrawn_and_never_tried():
    state = PP.setup(["ada", "bob", "cy"], {}, pp_seed())
    winning = best_bid(state)
    state = pp_send(state, "cy", winning, T0)  # cy bids first, with the best solution
    state = pp_send(state, "ada", winning.replace("BID ", "BID 1", 1), T0 + 10)  # a higher bid
    result = PP.leave(state, "cy", T0 + 20)
    state = result.state
    assert "withdrawn" in texts(result)[0]
    assert "cy" not in state.bids and state.first_bid == T0  # the timer keeps running
    assert PP.to_move(state) == ["ada", "bob"] and not PP.ready(state, T0 + 20)
    state = pp_send(state, "bob", "PASS", T0 + 30)
    assert PP.ready(state, T0 + 30)
    closed = PP.close_turn(state, T0 + 30).state
    (record,) = closed.history
    assert record.winner == "ada" and [a.player for a in record.attempts] == ["ada"]


def test_pivot_pawns_the_only_bid_withdrawn_stops_the_timer():
    state = PP.setup(["ada", "bob", "cy"], {}, pp_seed())
    state = pp_send(state, "cy", best_bid(state), T0)
    assert PP.timer(state) is not None
    state = PP.leave(state, "cy", T0).state
    assert state.bids == {} and state.first_bid is None and PP.timer(state) is None
    round_trip(PP, state)


def test_pivot_pawns_bidding_closes_when_the_last_awaited_player_leaves():
    state = PP.setup(["ada", "bob", "cy"], {}, pp_seed())
    state = pp_send(state, "ada", best_bid(state), T0)
    state = pp_send(state, "cy", "PASS", T0)
    result = PP.leave(state, "bob", T0)
    assert result.state.round == 2 and result.state.history[0].winner == "ada"
    assert any("ada wins the" in line for line in texts(result))


def test_pivot_pawns_tokens_of_a_removed_player_stay_but_never_win():
    state = PP.setup(["ada", "bob", "cy"], {}, pp_seed())
    state = pp_send(state, "cy", best_bid(state), T0)
    for player in ("ada", "bob"):
        state = pp_send(state, player, "PASS", T0)
    state = PP.close_turn(state, T0).state
    assert state.tokens["cy"]  # cy won round 1
    state = PP.leave(state, "cy", T0).state
    while not PP.is_over(state):
        for player in PP.to_move(state):
            state = pp_send(state, player, "PASS", T0)
        state = PP.close_turn(state, T0).state
    assert state.token is None and len(state.history) == 15
    assert PP.scores(state) == {"ada": 0, "bob": 0, "cy": 1}
    assert PP.winners(state) == ["ada", "bob"]  # a shared win (G2); cy has left


def test_pivot_pawns_nobody_left_ends_the_game():
    # A game begun with one player plays on alone (Pivot Pawns allows it); one begun with two
    # or more ends once one is left, and that player wins (G7: tests/service/people/test_draws.py).
    state = PP.setup(["ada"], {}, pp_seed())
    state = pp_send(state, "ada", best_bid(state), T0)
    assert not PP.is_over(state) and PP.to_move(state) == ["ada"]  # one may play on alone
    result = PP.leave(state, "ada", T0)
    state = result.state
    assert PP.is_over(state) and PP.to_move(state) == [] and PP.winners(state) == []
    assert state.bids == {} and not PP.ready(state, T0) and PP.timer(state) is None
    assert "nobody wins" in texts(result)[-1]
    assert "nobody is left" in PP.render_board(state)
    with pytest.raises(GameError):
        PP.close_turn(state, T0)
    assert PP.is_over(round_trip(PP, state))


# --- Phalanx and Proximity -------------------------------------------------------------


def test_phalanx_a_player_leaving_in_the_pie_opening_loses():
    state = PH.setup(["ada", "bob"], {}, 3)
    result = PH.leave(state, "ada", T0)
    state = result.state
    assert PH.is_over(state) and PH.to_move(state) == [] and PH.winners(state) == ["bob"]
    assert "too few players" in texts(result)[-1]
    assert PH.load(PH.dump(state)).colours == {}  # no colours were chosen yet


def test_phalanx_a_player_leaving_in_play_loses_whatever_the_score():
    state = PH.setup(["ada", "bob"], {}, 3)
    for player, text in (("ada", "PLACE RED H8 YELLOW G8 I8"), ("bob", "COLOUR YELLOW"),
                         ("ada", "PLACE H9")):
        state = PH.submit(state, player, PH.parse_order(state, player, text), T0).state
    state = PH.leave(state, "bob", T0).state
    assert PH.is_over(state) and PH.winners(state) == ["ada"]
    assert "bob left the game" in state.end_reason
    assert PH.winners(round_trip(PH, state)) == ["ada"]


def test_proximity_a_player_leaving_loses_and_the_other_wins():
    state = PX.start(PX.setup(["ada", "bob"], {"time_bank": "72h"}, 3), T0)
    mover = PX.to_move(state)[0]
    other = "bob" if mover == "ada" else "ada"
    result = PX.leave(state, mover, T0 + 60)
    state = result.state
    assert PX.is_over(state) and PX.to_move(state) == [] and PX.winners(state) == [other]
    assert PX.timer(state) is None and not PX.ready(state, T0 + 10**9)  # no clock runs on
    assert state.end_reason == f"{mover} left the game"
    assert PX.winners(round_trip(PX, state)) == [other]
