"""Neighbors: every NB ruling, the rule text's example, and random play."""

import random

import pytest

from games.base import (AmbiguousOrderError, IllegalOrderError, NotYourTurnError, OptionError, OrderSyntaxError,
                        StateError)
from games.neighbors import GAME, PIECE_SET, PIECE_VALUES, legal_captures
from rulings_md import check_help_quotes_rulings

# The rule text's example after Rb4xd4: F e6, F d5, R d4, B f4, F b2, Q d2, Q f2.
# Before the capture the rook stood on b4 and a knight on d4.
EXAMPLE_BEFORE = (
    "....F.."  # row 6
    "...F..."  # row 5
    ".R.N.B."  # row 4
    "......."  # row 3
    ".F.Q.Q."  # row 2
    "......."  # row 1
)


def play(state, player, text):
    return GAME.submit(state, player, GAME.parse_order(state, player, text), 0.0).state


def test_nb1_seeded_deal_has_the_piece_set_and_replays():
    a = GAME.setup(["ada", "bob"], {}, seed=7)
    b = GAME.setup(["ada", "bob"], {}, seed=7)
    c = GAME.setup(["ada", "bob"], {}, seed=8)
    assert sorted(a.board) == sorted(PIECE_SET)
    assert len(a.board) == 42 and "." not in a.board
    assert a.board == b.board
    assert a.board != c.board
    assert GAME.render_board(a).splitlines()[1].startswith(" 6")


def test_nb1_layout_option_reads_row_six_first():
    state = GAME.setup(["ada", "bob"], {"layout": EXAMPLE_BEFORE}, seed=1)
    assert state.at((4, 5)) == "F"  # e6
    assert state.at((1, 3)) == "R"  # b4
    assert state.at((3, 1)) == "Q"  # d2
    with pytest.raises(OptionError):
        GAME.setup(["ada", "bob"], {"layout": "QQQ"}, seed=1)
    with pytest.raises(OptionError):
        GAME.setup(["ada", "bob"], {"colour": "red"}, seed=1)


def test_nb2_sliders_are_blocked_knights_jump_ferz_one_diagonal():
    layout = (
        "......."
        "......."
        "..F...."
        ".NRB..."  # b3 knight, c3 rook, d3 bishop
        "......."
        "Q.....F"  # a1 queen, g1 ferz
    )
    state = GAME.setup(["ada", "bob"], {"layout": layout}, seed=1)
    legal = set(GAME.legal_orders(state, "ada"))
    assert "c3xc4" in legal and "c3xb3" in legal and "c3xd3" in legal
    assert "b3xc4" not in legal  # knights do not move like kings
    assert "a1xc3" in legal  # queen diagonal a1-b2-c3
    assert "a1xd4" not in legal  # the rook on c3 blocks the diagonal a1-b2-c3-d4
    assert "d3xc4" in legal  # bishop diagonal
    assert not any(m.startswith("g1") for m in legal)  # ferz: f2 is empty
    with pytest.raises(IllegalOrderError) as info:
        GAME.submit(state, "ada", GAME.parse_order(state, "ada", "c3xc1"), 0)
    assert "c1 is empty" in str(info.value)
    assert "c3xc4" in info.value.legal


def test_nb2_notation_variants_and_errors():
    state = GAME.setup(["ada", "bob"], {"layout": EXAMPLE_BEFORE}, seed=1)
    for text in ["b4xd4", "B4-D4", "Rb4xd4", "rb4xd4", " b4 x d4 ", "Rxd4"]:
        assert str(GAME.parse_order(state, "ada", text)) == "b4xd4"
    with pytest.raises(OrderSyntaxError):
        GAME.parse_order(state, "ada", "castle kingside")
    with pytest.raises(OrderSyntaxError):
        GAME.parse_order(state, "ada", "b4xd4\nd2xd4")
    with pytest.raises(IllegalOrderError, match="rook on b4, not a queen"):
        GAME.parse_order(state, "ada", "Qb4xd4")
    # Both queens (d2 diagonally, f2 along the file) can take the bishop on f4.
    with pytest.raises(AmbiguousOrderError) as info:
        GAME.parse_order(state, "ada", "Qxf4")
    assert set(info.value.candidates) == {"d2xf4", "f2xf4"}


def test_nb2_no_passing_and_wrong_turn():
    state = GAME.setup(["ada", "bob"], {"layout": EXAMPLE_BEFORE}, seed=1)
    with pytest.raises(NotYourTurnError):
        GAME.submit(state, "bob", GAME.parse_order(state, "bob", "b4xd4"), 0)
    with pytest.raises(OrderSyntaxError):
        GAME.parse_order(state, "ada", "pass")


def test_nb3_turn_order_follows_player_list_and_game_ends_without_captures():
    layout = "F" + "." * 6 + "." + "F" + "." * 5 + "." * 28
    state = GAME.setup(["ada", "bob", "cy"], {"layout": layout}, seed=1)
    assert GAME.to_move(state) == ["ada"]
    assert GAME.legal_orders(state, "ada") == ["a6xb5", "b5xa6"]
    state = play(state, "ada", "a6xb5")
    assert GAME.is_over(state)  # one piece left: bob has no capture
    assert GAME.to_move(state) == []
    assert GAME.scores(state) == {"ada": 1, "bob": 0, "cy": 0}
    assert GAME.winners(state) == ["ada"]


def test_nb4_two_player_majorities_and_ties_score_nothing():
    # Three rooks on row 6 and a knight on a3.
    layout = "R.R.R.." + "......." + "......." + "N......" + "......." + "......."
    state = GAME.setup(["ada", "bob"], {"layout": layout}, seed=1)
    state = play(state, "ada", "a6xc6")  # ada: one rook, the majority
    assert GAME.scores(state) == {"ada": 1, "bob": 0}
    state = play(state, "bob", "c6xe6")  # bob: one rook, now equal
    assert GAME.scores(state) == {"ada": 0, "bob": 0}
    assert GAME.is_over(state)  # e6 rook and a3 knight cannot reach each other
    assert GAME.winners(state) == ["ada", "bob"]  # G2: a shared win


def test_nb4_three_players_score_piece_values():
    state = GAME.setup(["ada", "bob", "cy"], {"layout": EXAMPLE_BEFORE}, seed=1)
    state = play(state, "ada", "b4xd4")  # a knight: 2
    state = play(state, "bob", "d2xd4")  # a rook: 5
    state = play(state, "cy", "d4xd5")  # a ferz: 1
    assert GAME.scores(state) == {"ada": PIECE_VALUES["N"], "bob": PIECE_VALUES["R"], "cy": PIECE_VALUES["F"]}


@pytest.mark.parametrize("rule, count", [("false", 13), ("true", 9)])
def test_nb5_rule_text_example_13_captures_without_option_9_with(rule, count):
    state = GAME.setup(["ada", "bob"], {"layout": EXAMPLE_BEFORE, "neighbors_rule": rule}, seed=1)
    state = play(state, "ada", "Rb4xd4")
    assert len(GAME.legal_orders(state, "bob")) == count
    if rule == "true":
        with pytest.raises(IllegalOrderError, match="file or row of d4"):
            GAME.submit(state, "bob", GAME.parse_order(state, "bob", "f2xd2"), 0)


def test_nb5_first_move_is_free():
    state = GAME.setup(["ada", "bob"], {"layout": EXAMPLE_BEFORE, "neighbors_rule": "true"}, seed=1)
    free = GAME.setup(["ada", "bob"], {"layout": EXAMPLE_BEFORE}, seed=1)
    assert GAME.legal_orders(state, "ada") == GAME.legal_orders(free, "ada")


def test_json_round_trip_and_bad_state():
    state = GAME.setup(["ada", "bob"], {"neighbors_rule": "true"}, seed=3)
    state = play(state, "ada", GAME.legal_orders(state, "ada")[0])
    data = GAME.dump(state)
    assert data["version"] == 1
    again = GAME.load(data)
    assert again == state
    with pytest.raises(StateError):
        GAME.load({**data, "version": 99})
    with pytest.raises(StateError):
        GAME.load({**data, "board": "Q" * 41})
    with pytest.raises(StateError):
        GAME.load({**data, "captured": {"ada": "", "bob": ""}})


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_random_play_invariants(players):
    names = [f"p{i}" for i in range(players)]
    for seed in range(40):
        rng = random.Random(seed)
        state = GAME.setup(names, {"neighbors_rule": rng.choice(["true", "false"])}, seed=seed)
        pieces = 42
        while not GAME.is_over(state):
            (mover,) = GAME.to_move(state)
            assert mover == names[(GAME.turn(state) - 1) % players]  # NB3
            text = GAME.random_order(state, mover, rng)
            state = GAME.submit(state, mover, GAME.parse_order(state, mover, text), 0.0).state
            now = sum(1 for x in state.board if x != ".")
            assert now == pieces - 1  # every move removes exactly one piece
            pieces = now
            assert GAME.load(GAME.dump(state)) == state
        # The end exactly when the player to move has no capture.
        assert legal_captures(state) == []
        assert sum(len(x) for x in state.captured.values()) == 42 - pieces
        scores = GAME.scores(state)
        if players == 2:
            assert sum(scores.values()) <= 5
        else:
            for p in names:
                assert scores[p] == sum(PIECE_VALUES[x] for x in state.captured[p])
        assert GAME.winners(state) and all(scores[w] == max(scores.values()) for w in GAME.winners(state))


def test_help_shows_notation_and_every_ruling():
    text = GAME.help_text()
    for example in ("b4xd4", "Rb4xd4", "Rxd4"):
        assert example in text
    check_help_quotes_rulings(text, "NB")  # G1-G5 and NB1-NB5 word for word


def test_help_never_splits_a_word_across_lines():
    from games import neighbors, rulings

    text = GAME.help_text()
    assert all(len(line) <= 72 for line in text.splitlines())
    # Every word of the HELP is a whole word of its sources: a word cut in
    # two at a line end would leave two pieces that are not.
    words = set(neighbors.HELP.split()) | set(rulings.SOURCE.split())
    assert [w for w in text.split() if w not in words] == []
