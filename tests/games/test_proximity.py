"""Proximity: scenarios from rules/proximity.txt and RULINGS PX1-PX9, G1-G3.

Positions are written by hand as JSON (as a GM would edit a state) through
``position``; every expected open sum, age gap and ace sum below is worked
out in the comments from the fixed board ``BOARD``, not read off the code.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from games.base import (
    GameError,
    IllegalOrderError,
    NotYourTurnError,
    OptionError,
    OrderSyntaxError,
    StateError,
)
from games.proximity import GAME
from rulings_md import check_help_quotes_rulings

# Visual layout of the test board (row 3 on top):
#   a3 M2  b3 M1  c3 S3
#   a2 S5  b2 S4  c2 M3
#   a1 M4  b1 S2  c1 S1        throne M5
# Suns 1..5 and Moons 1..4 on the board, Moons 5 the throne: 30 in all.
BOARD = {
    "a3": "M2", "b3": "M1", "c3": "S3",
    "a2": "S5", "b2": "S4", "c2": "M3",
    "a1": "M4", "b1": "S2", "c1": "S1",
}
THRONE = "M5"
NULLS = ("b0", "b4")
CYCLE = ["b1", "b2", "a1"]  # mutually adjacent, and b1 touches b0


def side(name, suit, index, trail=(), coins=(), pawn=True, struck=()):
    """A player's JSON: the pawn has walked ``trail``; coins of the given ages."""
    active = [sq for i, sq in enumerate(trail) if i not in struck]

    def square(age):
        return NULLS[index] if age == 0 else active[age - 1]

    pieces = []
    if pawn:
        pieces.append({"id": 0, "kind": "pawn", "square": square(len(active)), "age": len(active)})
    for n, age in enumerate(coins, start=1):
        pieces.append({"id": n, "kind": "coin", "square": square(age), "age": age})
    return {
        "name": name,
        "suit": suit,
        "bank": None,
        "trail": [[sq, i in struck] for i, sq in enumerate(trail)],
        "pieces": pieces,
    }


def position(ada=None, bea=None, mover="ada", coins=7, **extra):
    data = {
        "version": 1,
        "seed": 0,
        "coins": coins,
        "board": dict(BOARD),
        "throne": THRONE,
        "players": [ada or side("ada", "suns", 0), bea or side("bea", "moons", 1)],
        "mover": ["ada", "bea"].index(mover),
        "moves": 10,
        "time_bank": None,
        "clock_start": None,
        "winner": None,
        "end_reason": None,
        "last": [],
    }
    data.update(extra)
    return GAME.load(data)


def play(state, player, text, now=0.0):
    order = GAME.parse_order(state, player, text)
    return GAME.submit(state, player, order, now)


def illegal(state, player, text) -> IllegalOrderError:
    with pytest.raises(IllegalOrderError) as caught:
        GAME.parse_order(state, player, text)
    return caught.value


def pieces(state, player):
    data = GAME.dump(state)
    index = GAME.players(state).index(player)
    return [p for p in data["players"][index]["pieces"] if p["square"] is not None]


# --- PX1 / PX2 / PX3: equipment, layout, first player --------------------------


def test_px1_default_suits_and_seven_coins():
    state = GAME.setup(["ada", "bea"], {}, seed=1)
    data = GAME.dump(state)
    assert [p["suit"] for p in data["players"]] == ["suns", "moons"]
    assert data["coins"] == 7
    assert data["time_bank"] is None


def test_px1_suit_and_coin_options():
    state = GAME.setup(["ada", "bea"], {"suits": "Crowns, arms", "coins": "6"}, seed=1)
    data = GAME.dump(state)
    assert [p["suit"] for p in data["players"]] == ["crowns", "arms"]
    assert data["coins"] == 6
    tiles = sorted(list(data["board"].values()) + [data["throne"]])
    assert tiles == sorted(f"{s}{v}" for s in "CA" for v in range(1, 6))
    for bad in ({"suits": "suns,suns"}, {"suits": "suns"}, {"suits": "suns,stars"},
                {"coins": "0"}, {"coins": "x"}, {"colour": "red"}):
        with pytest.raises(OptionError):
            GAME.setup(["ada", "bea"], bad, seed=1)


def test_px2_deal_is_seeded_and_uses_the_ten_non_null_tiles():
    deals = set()
    for seed in range(30):
        data = GAME.dump(GAME.setup(["ada", "bea"], {}, seed))
        again = GAME.dump(GAME.setup(["ada", "bea"], {}, seed))
        assert data == again  # G1: the seed alone fixes the deal
        tiles = sorted(list(data["board"].values()) + [data["throne"]])
        assert tiles == sorted(f"{s}{v}" for s in "SM" for v in range(1, 6))
        deals.add(tuple(data["board"].values()))
    assert len(deals) > 20  # the deal really depends on the seed


def test_px2_null_tiles_touch_the_three_tiles_of_their_side():
    # Pawns start on their null tiles; the whole board is free, ages are 0.
    state = position(mover="ada")
    assert GAME.legal_orders(state, "ada") == ["P a1", "P b1", "P c1"]
    state = position(mover="bea")
    assert GAME.legal_orders(state, "bea") == ["P a3", "P b3", "P c3"]


def test_px3_player_of_the_throne_suit_moves_first():
    for seed in range(40):
        state = GAME.setup(["ada", "bea"], {}, seed)
        throne_suit = GAME.dump(state)["throne"][0]
        assert GAME.to_move(state) == (["ada"] if throne_suit == "S" else ["bea"])
        view = GAME.view(state)
        assert view["throne"].startswith("Sun" if throne_suit == "S" else "Moon")


# --- PX4: ages, chain and the open sum ----------------------------------------


def pawn_only(age):
    """ada's pawn of the given age on b1 (trail b2/b1 alternating, ending b1)."""
    trail = (["b1"] + ["b2", "b1"] * (age // 2)) if age % 2 else ["b2", "b1"] * (age // 2)
    assert len(trail) == age and trail[-1] == "b1"
    return side("ada", "suns", 0, trail)


def test_px4_pawn_limit_at_equality_is_allowed():
    # Only b1 (S2) is occupied: open sum = 30 - 2 = 28.  Age 28 - 0 <= 28.
    state = position(pawn_only(28))
    assert GAME.view(state)["open_sum"] == 28
    assert GAME.legal_orders(state, "ada") == ["P a1", "P a2", "P b2", "P c1", "P c2"]
    after = play(state, "ada", "P a2").state
    assert [p["age"] for p in pieces(after, "ada")] == [29]


def test_px4_pawn_one_beyond_the_limit_may_not_move():
    state = position(pawn_only(29))  # 29 - 0 = 29 > 28
    error = illegal(state, "ada", "P a2")
    assert "too old" in str(error) and "open sum 28" in str(error)
    assert error.legal == ["X b1"]


def test_px4_open_sum_counts_the_throne_and_only_free_tiles():
    # bea's pawn on b3 (the Moons ace, 1) drops the open sum by one: 27.
    bea = side("bea", "moons", 1, ["b3"])
    state = position(pawn_only(28), bea)
    assert GAME.view(state)["open_sum"] == 27  # 30 - 2 (b1) - 1 (b3), throne 5 counted
    assert "open sum 27" in str(illegal(state, "ada", "P a2"))


def coin_at_limit_trail():
    # rows 1..23 alternate b1/b2 (ending b1), then a1, b2, b1: 26 rows.
    trail = ["b1", "b2"] * 11 + ["b1", "a1", "b2", "b1"]
    assert len(trail) == 26
    return trail


def test_px4_coin_limit_at_equality_is_allowed():
    # pawn age 26 on b1 (S2), coin age 24 on row 24 = a1 (M4): open sum 30-2-4 = 24.
    # The youngest coin counts down to 0: 24 - 0 <= 24.  Its next tile is row 25, b2.
    state = position(side("ada", "suns", 0, coin_at_limit_trail(), coins=[24]))
    assert GAME.view(state)["open_sum"] == 24
    assert "C a1" in GAME.legal_orders(state, "ada")
    after = play(state, "ada", "C a1").state
    coin = [p for p in pieces(after, "ada") if p["kind"] == "coin"][0]
    assert (coin["square"], coin["age"]) == ("b2", 25)


def test_px4_coin_one_beyond_the_limit_may_not_move():
    # Same, with bea's pawn on b3 (ace, 1): open sum 23, and 24 - 0 > 23.
    bea = side("bea", "moons", 1, ["b3"])
    state = position(side("ada", "suns", 0, coin_at_limit_trail(), coins=[24]), bea)
    error = illegal(state, "ada", "C a1")
    assert "too old" in str(error) and "open sum 23" in str(error)
    assert "C a1" not in error.legal
    # The pawn is 26 - 24 = 2 from its coin: it may still move.
    assert "P a2" in error.legal


def test_px4_pawn_counts_from_its_oldest_coin():
    # Pawn age 26, coin 24 (gap 2): fine.  With the coin at age 2 instead
    # (row 2 = b2, S4) the open sum is again 24 and the gap 24: exactly allowed.
    state = position(side("ada", "suns", 0, coin_at_limit_trail(), coins=[2]))
    assert GAME.view(state)["open_sum"] == 24
    assert any(o.startswith("P ") for o in GAME.legal_orders(state, "ada"))
    # Coin at age 1 (row 1 = b1?) would collide with the pawn; use row 1 of a
    # trail that starts c1 (S1): open sum 30-2-1 = 27, gap 26-1 = 25 <= 27.
    trail = ["c1"] + coin_at_limit_trail()[1:]
    state = position(side("ada", "suns", 0, trail, coins=[1]))
    assert GAME.view(state)["open_sum"] == 27
    assert any(o.startswith("P ") for o in GAME.legal_orders(state, "ada"))


# --- PX5: where pawns and coins go ---------------------------------------------


def test_px5_pawn_never_onto_a_null_tile_the_throne_or_far_away():
    state = position(side("ada", "suns", 0, ["b1"]), side("bea", "moons", 1, ["a3"]), mover="ada")
    assert "null tile" in str(illegal(state, "ada", "P b0"))
    assert "throne" in str(illegal(state, "ada", "P throne"))
    error = illegal(state, "ada", "P b3")
    assert "not next to" in str(error)
    assert error.legal == ["P a1", "P a2", "P b2", "P c1", "P c2"]


def test_px5_a_pawn_move_onto_its_own_tile_says_so():
    state = position(side("ada", "suns", 0, ["c1"]), side("bea", "moons", 1, ["a3"]))
    for text in ("P c1", "c1-c1"):
        error = str(illegal(state, "ada", text))
        assert error == ("your pawn already stands on c1; a move takes it to an open "
                         "tile next to c1")
        assert "not next to your pawn" not in error


def test_px5_pawn_never_onto_an_occupied_tile():
    state = position(side("ada", "suns", 0, ["b1", "b2"]), side("bea", "moons", 1, ["b3"]))
    error = illegal(state, "ada", "P b3")
    assert "occupied" in str(error) and "Moons pawn" in str(error)
    assert "P b3" not in error.legal


def test_px5_coin_follows_the_pawn_trail_exactly():
    # ada's pawn walked c1, b2, a2 (age 3); a new coin waits on b0.  It must
    # go to c1, then b2, then a2 (after the pawn leaves it), and nowhere else.
    state = position(side("ada", "suns", 0, ["c1", "b2", "a2"], coins=[0]),
                     side("bea", "moons", 1, ["c3"]))
    error = illegal(state, "ada", "b0-b1")
    assert "not the coin's trail tile" in str(error) and "c1" in str(error)
    assert "C b0" in error.legal
    state = play(state, "ada", "b0-c1").state  # the from-to notation also works
    assert GAME.view(state)["players"][0]["pieces"][1]["next"] == "b2"
    state = play(state, "bea", "P b3").state
    state = play(state, "ada", "C c1").state
    coin = [p for p in pieces(state, "ada") if p["kind"] == "coin"][0]
    assert (coin["square"], coin["age"]) == ("b2", 2)
    state = play(state, "bea", "P c3").state
    error = illegal(state, "ada", "C b2")
    assert "a2 is occupied by the Suns pawn" in str(error)


def test_px5_a_coin_as_old_as_its_pawn_cannot_exist():
    # A coin of age a stands where the pawn stood at age a; with equal ages
    # they would share a tile, so a hand-edited state like that is refused.
    with pytest.raises(StateError):
        position(side("ada", "suns", 0, ["c1", "b2"], coins=[2]))


# --- PX6: the ace check ---------------------------------------------------------


def test_px6_first_player_cannot_get_a_coin_on_turn_one():
    # ada moves first onto c1, the Suns ace: ada's Suns sum is -1 (she stands on
    # a Suns 1), bea's is 0 (on her null tile).  bea is higher, but her pawn
    # occupies her null tile, so no coin comes in for anyone.
    state = position(mover="ada")
    result = play(state, "ada", "P c1")
    assert "ada -1, bea +0" in result.events[1].text
    assert "occupied" in result.events[1].text
    assert [p["kind"] for p in pieces(result.state, "ada")] == ["pawn"]
    assert [p["kind"] for p in pieces(result.state, "bea")] == ["pawn"]
    # And for every dealt game and every first move, the mover gets no coin.
    for seed in range(40):
        start = GAME.setup(["ada", "bea"], {}, seed)
        first = GAME.to_move(start)[0]
        for text in GAME.legal_orders(start, first):
            after = play(start, first, text).state
            assert all(p["kind"] == "pawn" for p in pieces(after, first))


def tie_position(bea_coin=True):
    # ada's pawn on b2 (walked c1, b2).  bea walked a3, a2, b1, c2: pawn on c2
    # (M3), and with ``bea_coin`` a coin of age 3 on b1 (S2).
    bea = side("bea", "moons", 1, ["a3", "a2", "b1", "c2"], coins=[3] if bea_coin else [])
    return position(side("ada", "suns", 0, ["c1", "b2"]), bea)


def test_px6_a_tie_of_ace_sums_introduces_nothing():
    # ada moves to b3, the Moons ace.  Moons sums: ada -1 (on M1);
    # bea -3 (pawn on M3) + 2 (coin on S2) = -1.  A tie: nobody gets a coin.
    result = play(tie_position(), "ada", "P b3")
    assert "ada -1, bea -1" in result.events[1].text and "tie" in result.events[1].text
    assert len(pieces(result.state, "ada")) == 1
    assert len(pieces(result.state, "bea")) == 2


def test_px6_the_single_highest_sum_brings_in_a_coin():
    # Without bea's coin: ada -1, bea -3.  ada is highest; b0 is free.
    result = play(tie_position(bea_coin=False), "ada", "P b3")
    assert "ada -1, bea -3" in result.events[1].text
    coins = [p for p in pieces(result.state, "ada") if p["kind"] == "coin"]
    assert [(c["square"], c["age"]) for c in coins] == [("b0", 0)]
    assert result.events[1].kind == "coin"


def test_px6_no_coin_left_out_of_play():
    # Same, but ada plays with one coin and it is already in play on a1 (age 3?
    # her trail is c1, b2: a coin of age 1 stands on c1).
    bea = side("bea", "moons", 1, ["a3", "a2", "b1", "c2"])
    state = position(side("ada", "suns", 0, ["c1", "b2"], coins=[1]), bea, coins=1)
    # Moons sums after P b3: ada -1 (M1) + 1 (S1 under her coin) = 0; bea -3.
    result = play(state, "ada", "P b3")
    assert "ada +0, bea -3" in result.events[1].text
    assert "no coin left" in result.events[1].text
    assert len(pieces(result.state, "ada")) == 2


def test_px6_a_coin_moving_onto_an_ace_also_checks():
    # ada's coin of age 0 on b0 follows the trail to c1, the Suns ace.
    # Suns sums: ada -1 (coin on S1) - 4 (pawn on S4 b2) = -5; bea on a3 (M2) +2.
    bea = side("bea", "moons", 1, ["a3"])
    state = position(side("ada", "suns", 0, ["c1", "b2"], coins=[0]), bea)
    result = play(state, "ada", "C b0")
    assert "ada -5, bea +2" in result.events[1].text
    coins = [p for p in pieces(result.state, "bea") if p["kind"] == "coin"]
    assert [(c["square"], c["age"]) for c in coins] == [("b4", 0)]


def test_px6_no_check_after_a_promotion_onto_an_ace():
    # On the cycle b1, c1, b2: pawn age 30 on row 30 = b2 (S4), coin 5 on row
    # 5 = c1 (the Suns ace), coin 4 on row 4 = b1 (S2); open sum 30-7 = 23.
    # Pawn 30-5 = 25 > 23; coin 5 needs row 6 = b2 (pawn), coin 4 row 5 (coin).
    state, _ = chain_position(["b1", "c1", "b2"], pawn_age=30)
    assert sorted(GAME.legal_orders(state, "ada")) == ["X b1", "X b2"]
    result = play(state, "ada", "X b2")
    assert [e.kind for e in result.events] == ["sacrifice", "promotion"]
    # The new pawn stands on the Suns ace, yet no coin came in for anyone.
    # (An ace check would have given bea, on her null tile at 0, a coin: ada's
    # Suns sum is -1 - 2 = -3.)
    assert [(p["kind"], p["square"]) for p in pieces(result.state, "ada")] == [
        ("pawn", "c1"), ("coin", "b1")]
    assert [p["kind"] for p in pieces(result.state, "bea")] == ["pawn"]


# --- PX7: sacrifices and promotion -------------------------------------------------


def chain_position(cycle=CYCLE, pawn_age=27):
    """ada is stuck: pawn age 27, coins aged 5 and 4, on the b1/b2/a1 cycle.

    Row i (1-based) is CYCLE[(i-1) % 3].  The pawn stands on row 27 = a1 (M4),
    coin 5 on row 5 = b2 (S4), coin 4 on row 4 = b1 (S2): open sum 30-10 = 20.
    Pawn: 27-5 = 22 > 20, too old.  Coin 5: its next tile, row 6 = a1, has the
    pawn.  Coin 4: its next tile, row 5 = b2, has coin 5.  No legal move.
    """
    trail = [cycle[i % 3] for i in range(pawn_age)]
    return position(side("ada", "suns", 0, trail, coins=[5, 4]), side("bea", "moons", 1)), trail


def test_px7_coin_sacrifice_that_would_break_the_chain_is_refused():
    state, _ = chain_position()
    # Sacrificing coin 5 (b2) leaves pawn 27 above coin 4: 23 > 20, refused.
    # Sacrificing coin 4 (b1) leaves coin 5 above 0: 5 <= 20, allowed.
    assert GAME.legal_orders(state, "ada") == ["X a1", "X b1"]
    error = illegal(state, "ada", "X b2")
    assert "break the chain" in str(error) and "23" in str(error)
    assert error.legal == ["X a1", "X b1"]
    # And no move may be made while the player must sacrifice.
    assert "sacrifice" in str(illegal(state, "ada", "P a2"))
    after = play(state, "ada", "sacrifice b1").state
    assert sorted(p["age"] for p in pieces(after, "ada")) == [5, 27]


def test_px7_sacrifice_only_without_a_legal_move():
    state = position(side("ada", "suns", 0, ["b1"]))
    error = illegal(state, "ada", "X b1")
    assert "only when you have no legal move" in str(error)


def test_px7_pawn_sacrifice_promotes_the_oldest_coin_which_walks_freely():
    state, trail = chain_position()
    result = play(state, "ada", "X a1")
    state = result.state
    assert "becomes the pawn" in result.events[1].text
    pawn = [p for p in pieces(state, "ada") if p["kind"] == "pawn"][0]
    # The coin of age 5 on b2 is the pawn now and keeps its age.
    assert (pawn["square"], pawn["age"]) == ("b2", 5)
    # Rows 6..27 (22 rows) were walked by the old pawn only: struck.
    rows = GAME.dump(state)["players"][0]["trail"]
    assert [struck for _, struck in rows] == [False] * 5 + [True] * 22
    # The promoted pawn walks freely (5-4 = 1 <= open sum), not along row 6 (a1).
    state = play(state, "bea", "P a3").state
    assert "P c2" in GAME.legal_orders(state, "ada")
    state = play(state, "ada", "P c2").state
    state = play(state, "bea", "P a2").state
    # The younger coin (age 4 on b1) goes to row 5 = b2, then follows the new
    # trail: next is c2 (the new pawn's first step), not the struck a1.
    state = play(state, "ada", "C b1").state
    coin = GAME.view(state)["players"][0]["pieces"][1]
    assert (coin["square"], coin["age"], coin["next"]) == ("b2", 5, "c2")
    assert trail[5] == "a1"


def test_px7_sacrificing_the_pawn_with_no_coin_loses():
    state = position(pawn_only(29))
    result = play(state, "ada", "X b1")
    assert GAME.is_over(result.state)
    assert GAME.winners(result.state) == ["bea"]
    assert GAME.scores(result.state) == {"ada": 0, "bea": 1}
    assert "loses" in result.events[-1].text
    with pytest.raises(NotYourTurnError):
        GAME.parse_order(result.state, "bea", "P b3")


# --- PX8: the time bank ------------------------------------------------------------


def test_px8_time_bank_is_off_by_default():
    state = GAME.setup(["ada", "bea"], {}, seed=3)
    assert GAME.timer(GAME.start_clock(state, 1000.0)) is None
    assert not GAME.ready(state, 1e12)


def test_px8_time_bank_is_spent_between_report_and_move():
    state = GAME.setup(["ada", "bea"], {"time_bank": "2h"}, seed=3)
    first = GAME.to_move(state)[0]
    other = "bea" if first == "ada" else "ada"
    state = GAME.start_clock(state, 1000.0)
    assert GAME.timer(state) == 1000.0 + 7200
    state = play(state, first, GAME.legal_orders(state, first)[0], now=1000.0 + 600).state
    banks = {p["name"]: p["bank"] for p in GAME.dump(state)["players"]}
    assert banks == {first: 6600.0, other: 7200.0}
    # The other player's clock started when the move came in (the report).
    assert GAME.timer(state) == 1600.0 + 7200
    assert not GAME.ready(state, 1600.0 + 7199)
    assert GAME.ready(state, 1600.0 + 7200)
    with pytest.raises(GameError):
        GAME.close_turn(state, 1600.0 + 100)
    lost = GAME.close_turn(state, 1600.0 + 7200)
    assert GAME.is_over(lost.state) and GAME.winners(lost.state) == [first]
    assert "time bank ran out" in lost.events[0].text


def test_px8_report_shows_each_bank():
    from gm_parts import ReportInput, render_report

    state = GAME.start_clock(GAME.setup(["ada", "bea"], {"time_bank": "3d"}, seed=3), 0.0)
    first = GAME.to_move(state)[0]
    result = play(state, first, GAME.legal_orders(state, first)[0], now=3723.0)
    text = render_report(ReportInput("t1", GAME, result.state, "ada", result.events))
    # 3 days less 1 h 2 min 3 s = 2 days 22:57:57; the other bank is untouched.
    assert "Time bank: 2d 22:57:57" in text and "Time bank: 3d 00:00:00" in text
    assert f"{first}'s time bank: 2d 22:57:57 left" in text


def test_px8_an_order_after_the_bank_ran_out_loses():
    state = GAME.setup(["ada", "bea"], {"time_bank": "90m"}, seed=3)
    first = GAME.to_move(state)[0]
    state = GAME.start_clock(state, 0.0)
    result = play(state, first, GAME.legal_orders(state, first)[0], now=5400.0)
    assert GAME.is_over(result.state) and first not in GAME.winners(result.state)


def test_px8_time_bank_option_values():
    for text, seconds in (("3d", 259200.0), ("90m", 5400.0), ("3600", 3600.0), ("off", None)):
        state = GAME.setup(["ada", "bea"], {"time_bank": text}, seed=1)
        assert GAME.dump(state)["time_bank"] == seconds
    for bad in ("soon", "-3h", "0"):
        with pytest.raises(OptionError):
            GAME.setup(["ada", "bea"], {"time_bank": bad}, seed=1)


# --- PX9: the trail table ---------------------------------------------------------


def test_px9_trail_table_has_rows_columns_and_struck_rows():
    state, _ = chain_position()
    table = GAME.view(state)["players"][0]["trail_table"]
    rows = [line for line in table if re.match(r"^\s*\d+ [abc]\d ", line)]
    assert len(rows) == 27
    # Columns: piece 0 (pawn) walked all 27 rows; coin 1 (age 5) rows 1-5.
    assert rows[0].split()[-3:] == ["o", "o", "o"]
    assert rows[4].split()[-2:] == ["o", "@"]  # row 5: coin 1 stands there
    assert rows[3].split()[-3:] == ["o", "o", "@"]  # row 4: coin 2 stands there
    assert rows[26].split()[-1] == "@"
    state = play(state, "ada", "X a1").state
    table = GAME.view(state)["players"][0]["trail_table"]
    # PX10: the 22 struck rows of the promotion are one line, with the turn.
    assert [line for line in table if "struck" in line] == [
        "    rows 6-27: 22 struck by the promotion on turn 11"]
    assert all(len(line) <= 72 for line in table)


def test_px9_columns_stay_for_pieces_out_of_play_and_numbers_past_nine():
    data = GAME.dump(position(side("ada", "suns", 0, ["b1", "b2", "b1"])))
    for n in range(1, 12):  # eleven coins came in, walked row 1, and left play
        data["players"][0]["pieces"].append(
            {"id": n, "kind": "coin", "square": None, "age": 1, "marks": [0]})
    table = GAME.view(GAME.load(data))["players"][0]["trail_table"]
    tens, ones, status = table[2], table[3], table[4]
    row1 = table[5]
    assert tens.split() == ["1", "1"] and ones.split()[1:] == [str(n % 10) for n in range(12)]
    assert status.split() == ["P"] + ["-"] * 11
    assert row1.split()[4:] == ["o"] * 12
    # Each mark sits under its piece's number.
    for n in range(12):
        column = ones.index(" " + str(n % 10), 20 + 2 * n) + 1
        assert row1[column] == "o"


RING = ["a1", "a2", "b2", "c2", "c1", "b1"]  # each next to the one before, b1 next to a1


def long_trail(rows, coins, struck=()):
    """ada's pawn after ``rows`` trail rows round RING, with coins of the given ages.

    Row k is RING[(k-1) % 6]; the ages are chosen so that no two pieces meet.
    """
    trail = [RING[i % 6] for i in range(rows)]
    return position(side("ada", "suns", 0, trail, coins=coins, struck=struck),
                    side("bea", "moons", 1, ["a3"]), mover="bea", moves=700)


def table_rows(table):
    """Row number -> the marks of a shown row of a trail table."""
    return {int(line.split()[0]): line.split()[4:] for line in table
            if re.match(r"^\s*\d+ [abc]\d ", line)}


def test_px10_past_40_live_rows_only_rows_with_pieces_and_their_next_rows():
    state = long_trail(500, coins=[480, 303, 5])
    table = GAME.view(state)["players"][0]["trail_table"]
    # Pawn on row 500; coins on rows 480, 303, 5 and next to 481, 304, 6.
    shown = table_rows(table)
    assert sorted(shown) == [5, 6, 303, 304, 480, 481, 500]
    assert shown[500] == ["@"] and shown[480] == ["o", "@"] and shown[481] == ["o"]
    assert shown[5] == ["o", "o", "o", "@"]
    # Each stretch left out is counted; with the rows shown they make 500.
    skipped = [int(n) for n in re.findall(r"\.\.\. (\d+) live rows? not shown",
                                          "\n".join(table))]
    assert skipped == [4, 296, 175, 18]
    assert sum(skipped) + len(shown) == 500
    assert table[2].startswith("500 live rows")
    assert all(len(line) <= 72 for line in table)
    # 40 live rows or fewer: every row is shown.
    table = GAME.view(long_trail(40, coins=[20]))["players"][0]["trail_table"]
    assert sorted(table_rows(table)) == list(range(1, 41))
    assert "not shown" not in "\n".join(table)
    # The full table (sent on request, kept in the archive) shows every row.
    from games.proximity import display
    full = display.trail_table(state, 0, full=True)
    assert sorted(table_rows(full)) == list(range(1, 501))


def test_px10_struck_rows_of_each_promotion_are_one_line():
    from games.proximity import moves as px

    state = long_trail(300, coins=[250, 101])
    for turn in (701, 751):  # ada sacrifices her pawn twice, on turns 701 and 751
        new = state.clone()
        new.moves = turn - 1
        pawn = new.sides[0].pawn()
        px.sacrifice(new, 0, pawn.square)
        state = GAME.load(GAME.dump(new))  # the promotions are kept in the JSON
    table = GAME.view(state)["players"][0]["trail_table"]
    assert [line.strip() for line in table if "struck" in line] == [
        "rows 102-250: 149 struck by the promotion on turn 751",
        "rows 251-300: 50 struck by the promotion on turn 701",
    ]
    # 101 live rows are left, and one piece: the pawn on row 101.
    assert sorted(table_rows(table)) == [101]
    assert "    ... 100 live rows not shown ..." in table
    # A state with struck rows but no record of the promotion still folds them.
    table = GAME.view(long_trail(60, coins=[20], struck=range(20, 50)))["players"][0][
        "trail_table"]
    assert [line.strip() for line in table if "struck" in line] == [
        "rows 21-50: 30 struck by a promotion"]


def test_px10_a_report_late_in_a_long_game_stays_short():
    from gm_parts import ReportInput, render_report

    # 1,000 rows walked, 400 of them struck by one promotion, coins far apart.
    state = long_trail(1000, coins=[590, 301, 123, 4], struck=range(600, 1000))
    text = render_report(ReportInput("t1", GAME, state, "ada", []))
    lines = text.splitlines()
    assert len(lines) < 100 and all(len(line) <= 72 for line in lines)
    # A long random game: several hundred moves, many promotions.
    rng = random.Random(4)
    state = GAME.setup(["ada", "bea"], {"coins": "2"}, seed=4)
    result = None
    while state.moves < 600 and not GAME.is_over(state):
        player = GAME.to_move(state)[0]
        result = play(state, player, rng.choice(GAME.legal_orders(state, player)))
        state = result.state
    assert state.moves == 600
    struck = sum(row.struck for side in state.sides for row in side.rows)
    assert struck > 300  # once each a line of the report
    text = render_report(ReportInput("t1", GAME, state, "ada", result.events))
    lines = text.splitlines()
    assert len(lines) < 125 and all(len(line) <= 72 for line in lines)
    promotions = sum(len(side.promotions) for side in state.sides)
    assert sum("struck by the promotion on turn" in line for line in lines) == promotions


def test_board_labels_are_never_cut():
    # Crowns instead of Suns: "c Crown 1235" is 12 characters, one more than fitted.
    board = {sq: ("C" if code[0] == "S" else "M") + code[1] for sq, code in BOARD.items()}
    trail = [RING[i % 6] for i in range(1240)]
    state = position(side("ada", "crowns", 0, trail, coins=[1235]), side("bea", "moons", 1),
                     board=board)
    text = GAME.render_board(state)
    assert "c Crown 1235 " in text and "P Crown 1240 " in text and "Crown null " in text
    assert all(len(line) <= 72 for line in text.splitlines())
    # The tiles still line up: every row of the 3x3 has four borders.
    rows = [line for line in text.splitlines() if line.startswith(("1  |", "2  |", "3  |"))]
    assert len(rows) == 3 and len({len(line) for line in rows}) == 1


def test_scores_are_left_out_while_the_game_runs_and_explained_at_the_end():
    from gm_parts import ReportInput, render_report

    state = position(side("ada", "suns", 0, ["b1"]), side("bea", "moons", 1, ["a3"]))
    text = render_report(ReportInput("t1", GAME, state, "ada", []))
    assert "Scores" not in text and not re.search(r"^\s+ada\s+0", text, re.M)
    over = play(position(pawn_only(29)), "ada", "X b1").state
    text = render_report(ReportInput("t1", GAME, over, "ada", []))
    assert "Result (Proximity has no points: 1 = won, 0 = lost):" in text
    assert re.search(r"^  bea\s+1  WINNER$", text, re.M)


# --- G1-G3 ---------------------------------------------------------------------


def test_g1_replay_from_seed_and_orders_is_exact():
    rng = random.Random(7)
    state = GAME.setup(["ada", "bea"], {}, seed=99)
    orders = []
    while not GAME.is_over(state):
        player = GAME.to_move(state)[0]
        text = GAME.random_order(state, player, rng)
        orders.append((player, text))
        state = play(state, player, text).state
    replay = GAME.setup(["ada", "bea"], {}, seed=99)
    for player, text in orders:
        replay = play(replay, player, text).state
    assert GAME.dump(replay) == GAME.dump(state)
    assert GAME.render_board(replay) == GAME.render_board(state)


def test_g2_a_finished_game_has_exactly_one_winner_and_the_report_says_so():
    from gm_parts import ReportInput, render_report

    state = play(position(pawn_only(29)), "ada", "X b1").state
    text = render_report(ReportInput("t1", GAME, state, "ada", []))
    assert "Winner: bea." in text and "Shared win" not in text


def test_g3_order_is_judged_on_the_position_when_submitted():
    state = position(side("ada", "suns", 0, ["b1"]), side("bea", "moons", 1, ["a3"]), mover="bea")
    # ada's "P a2" is legal now, but bea's move to a2 comes first.
    order = GAME.parse_order(position(side("ada", "suns", 0, ["b1"]),
                                      side("bea", "moons", 1, ["a3"])), "ada", "P a2")
    state = play(state, "bea", "P a2").state
    with pytest.raises(IllegalOrderError):
        GAME.submit(state, "ada", order, 0.0)


# --- notation and errors ----------------------------------------------------------


@pytest.mark.parametrize("text,canonical", [
    ("P c1", "P c1"), ("  pawn   to  C1 ", "P c1"), ("pc1", "P c1"), ("b0-c1", "P c1"),
    ("B0 c1", "P c1"), ("\n\nP c1\n\n", "P c1"), ("b0 to c1", "P c1"),
])
def test_notation_forms(text, canonical):
    state = position(mover="ada")
    assert str(GAME.parse_order(state, "ada", text)) == canonical


@pytest.mark.parametrize("text", ["", "hello", "P d1", "P b5", "Q b2", "P c1\nP b1", "P a0"])
def test_syntax_errors(text):
    with pytest.raises(OrderSyntaxError):
        GAME.parse_order(position(mover="ada"), "ada", text)


def test_not_your_turn_and_not_your_piece():
    state = position(mover="ada")
    with pytest.raises(NotYourTurnError):
        GAME.parse_order(state, "bea", "P b3")
    with pytest.raises(NotYourTurnError):
        GAME.parse_order(state, "cy", "P b3")
    assert GAME.legal_orders(state, "bea") == []
    assert "no piece of yours" in str(illegal(state, "ada", "b4-b3"))
    assert "no coin of yours" in str(illegal(state, "ada", "C b0"))


def test_submit_does_not_change_its_input():
    state = position(mover="ada")
    before = GAME.dump(state)
    play(state, "ada", "P c1")
    assert GAME.dump(state) == before


# --- JSON --------------------------------------------------------------------------


def test_json_round_trip():
    state, _ = chain_position()
    state = play(state, "ada", "X a1").state
    data = GAME.dump(state)
    assert json.loads(json.dumps(data)) == data
    assert GAME.load(data) == state
    assert GAME.dump(GAME.load(data)) == data


@pytest.mark.parametrize("breakage", [
    lambda d: d.update(version=2),
    lambda d: d["board"].update(a1="S1"),  # two Suns aces
    lambda d: d["board"].update(a1="X1"),
    lambda d: d.update(throne=5),
    lambda d: d["players"][0]["pieces"][0].update(square="b3"),  # off its trail
    lambda d: d["players"][0]["pieces"][0].update(age=3),
    lambda d: d["players"][1].update(suit="suns"),
    lambda d: d["players"][0]["pieces"].append(
        {"id": 5, "kind": "coin", "square": "b4", "age": 0}),  # on bea's null
    lambda d: d.update(mover=2),
    lambda d: d.update(coins="7"),
    lambda d: d.update(time_bank=60.0),  # banks missing
    lambda d: d["players"][0].pop("trail"),
])
def test_load_rejects_malformed_states(breakage):
    data = GAME.dump(position(side("ada", "suns", 0, ["b1"])))
    breakage(data)
    with pytest.raises(StateError):
        GAME.load(data)


# --- HELP and the report ----------------------------------------------------------


def rulings_text(prefixes=("PX", "G")) -> dict[str, str]:
    path = Path("/work/shared/RULINGS.md")
    if not path.exists():
        pytest.skip("RULINGS.md not available")
    items = {}
    for match in re.finditer(r"^- ((?:PX|G)\d+)\. (.*?)(?=^- |^#|\Z)", path.read_text(), re.M | re.S):
        items[match.group(1)] = " ".join(match.group(2).split())
    return items


def test_help_shows_notation_and_every_ruling_verbatim():
    text = GAME.help_text()
    assert all(len(line) <= 72 for line in text.splitlines())
    flat = " ".join(text.split())
    items = rulings_text()
    assert {f"PX{i}" for i in range(1, 10)} | {"G1", "G2", "G3"} <= set(items)
    for name, body in items.items():
        assert f"{name}. {body}" in flat, name
    for example in ("P b2", "C a1", "X c3", "b0", "b4"):
        assert example in text
    check_help_quotes_rulings(text, "PX")  # G4, G5 and PX10 too


def test_report_shows_board_pieces_open_sum_last_move_and_trail():
    from gm_parts import ReportInput, render_report

    state = position(side("ada", "suns", 0, ["c1", "b2"]), side("bea", "moons", 1, ["a3"]))
    result = play(state, "ada", "P b3")  # onto the Moons ace: ada -1, bea -2
    text = render_report(ReportInput("t1", GAME, result.state, "bea", result.events))
    assert all(len(line) <= 72 for line in text.splitlines())
    for fact in ("Open sum: 27",  # 30 - 1 (ada on b3) - 2 (bea on a3); b0 is a null
                 "Throne tile: Moon 5", "ada: P b3", "brings in a coin on b0",
                 "Trail of ada (Suns)", "Trail of bea (Moons)", "pawn on b3 (Moon A), age 3",
                 "coin on b0 (Sun null), age 0, next c1", "To move: bea", "P a2"):
        assert fact in text, fact
    # Shown again later without events (gm show): the last move is still there.
    later = render_report(ReportInput("t1", GAME, result.state, None, []))
    assert "Last move:" in later and "ada: P b3" in later


# --- random play -------------------------------------------------------------------


def independent_legal(data, index):
    """Legal orders worked out from the JSON alone, separately from the module."""
    tiles = {sq: int(code[1]) for sq, code in data["board"].items()}
    occupied = {p["square"] for pl in data["players"] for p in pl["pieces"] if p["square"]}
    open_sum = int(data["throne"][1]) + sum(v for sq, v in tiles.items() if sq not in occupied)
    me = data["players"][index]
    chain = sorted((p for p in me["pieces"] if p["square"]),
                   key=lambda p: (p["kind"] != "pawn", -p["age"]))
    trail = [sq for sq, struck in me["trail"] if not struck]
    moves = []
    for at, piece in enumerate(chain):
        below = chain[at + 1]["age"] if at + 1 < len(chain) else 0
        if piece["age"] - below > open_sum:
            continue
        if piece["kind"] == "pawn":
            x, y = "abc".index(piece["square"][0]), int(piece["square"][1])
            for sq in tiles:
                near = max(abs("abc".index(sq[0]) - x), abs(int(sq[1]) - y)) == 1
                if near and sq not in occupied:
                    moves.append(f"P {sq}")
        elif piece["age"] < len(trail) and trail[piece["age"]] not in occupied:
            moves.append(f"C {piece['square']}")
    if moves:
        return sorted(moves)
    sacrifices = []
    for at, piece in enumerate(chain):
        below = chain[at + 1]["age"] if at + 1 < len(chain) else 0
        if piece["kind"] == "pawn" or chain[at - 1]["age"] - below <= open_sum:
            sacrifices.append(f"X {piece['square']}")
    return sorted(sacrifices)


def expected_newcomer(before, index, text):
    """Who should get a new coin (PX6) after ``text``, worked out from JSON."""
    if text.startswith("X"):
        return None
    me = before["players"][index]
    square = text.split()[1]
    if text.startswith("P"):
        dest = square
    else:
        coin = next(p for p in me["pieces"] if p["square"] == square)
        dest = [sq for sq, struck in me["trail"] if not struck][coin["age"]]
    code = before["board"][dest]
    if code[1] != "1":
        return None
    ace_suit = code[0]
    where = {}
    for i, pl in enumerate(before["players"]):
        where[i] = [p["square"] for p in pl["pieces"] if p["square"]]
    where[index] = [dest if sq == square or (text.startswith("P") and sq == pawn_square(me))
                    else sq for sq in where[index]]
    sums = []
    for i in (0, 1):
        total = 0
        for sq in where[i]:
            if sq in NULLS:
                continue
            value = int(before["board"][sq][1])
            total += -value if before["board"][sq][0] == ace_suit else value
        sums.append(total)
    if sums[0] == sums[1]:
        return None
    best = 0 if sums[0] > sums[1] else 1
    live = sum(1 for p in before["players"][best]["pieces"] if p["square"] and p["kind"] == "coin")
    if live >= before["coins"] or NULLS[best] in where[best] or NULLS[best] in where[1 - best]:
        return None
    return best


def pawn_square(player_data):
    return next(p["square"] for p in player_data["pieces"] if p["square"] and p["kind"] == "pawn")


def live_coins(data, index):
    return sum(1 for p in data["players"][index]["pieces"] if p["square"] and p["kind"] == "coin")


MAX_STEPS = 20000  # random games with 2 coins can run to a few thousand moves


def test_random_play_many_full_games():
    """120 games to the end, checked against the JSON-only rules above.

    Every step of a game's first 300 is checked, then every 10th (long games
    with few coins run to thousands of moves and the JSON grows with the trail).
    """
    for seed in range(120):
        rng = random.Random(seed)
        coins = rng.choice(["7", "6", "2"])
        state = GAME.setup(["ada", "bea"], {"coins": coins}, seed)
        for step in range(MAX_STEPS):
            if GAME.is_over(state):
                break
            movers = GAME.to_move(state)
            assert len(movers) == 1
            player = movers[0]
            text = GAME.random_order(state, player, rng)
            order = GAME.parse_order(state, player, text)
            assert str(order) == text
            if step >= 300 and step % 10:
                state = GAME.submit(state, player, order, 0.0).state
                continue
            index = GAME.players(state).index(player)
            before = GAME.dump(state)
            assert sorted(GAME.legal_orders(state, player)) == independent_legal(before, index)
            newcomer = expected_newcomer(before, index, text)
            state = GAME.submit(state, player, order, 0.0).state
            after = GAME.dump(state)
            for i in (0, 1):
                change = live_coins(after, i) - live_coins(before, i)
                if i == newcomer:
                    assert change == 1
                elif text.startswith("X") and i == index:
                    # A coin sacrificed or promoted leaves play; a lone pawn loses.
                    assert change == (-1 if live_coins(before, i) else 0)
                else:
                    assert change == 0
            squares = [p["square"] for pl in after["players"] for p in pl["pieces"] if p["square"]]
            assert len(squares) == len(set(squares))
            if step % 25 == 0:
                assert GAME.load(after) == state
                assert json.loads(json.dumps(after)) == after
        assert GAME.is_over(state), f"seed {seed} did not end"
        winners = GAME.winners(state)
        assert len(winners) == 1
        loser = "bea" if winners == ["ada"] else "ada"
        assert not [p for p in pieces(state, loser) if p["kind"] == "pawn"]
        assert [p for p in pieces(state, winners[0]) if p["kind"] == "pawn"]
        assert GAME.load(GAME.dump(state)) == state
        assert all(len(line) <= 72 for line in GAME.render_board(state).splitlines())
