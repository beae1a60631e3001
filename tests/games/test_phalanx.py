"""Phalanx: RULINGS PH1-PH8 and G1-G3 on small hand-checked positions, errors,
JSON, the report, and seeded random play through the public interface.

Cell names (side 8, FB1): letter index - 7 = q, row - 8 = r, H8 is the centre.
The neighbours of H8 are G8 I8 (same row), H7 H9 (same letter), I7 G9.
Ada is red and Bob yellow in the positions built by ``position``.
"""

from __future__ import annotations

import functools
import json
import random

import pytest

from games.base import (
    IllegalOrderError,
    NotYourTurnError,
    OptionError,
    OrderSyntaxError,
    StateError,
)
from games.phalanx import GAME
from rulings_md import check_help_quotes_rulings


def position(red=(), yellow=(), walls=(), to_play="red", side=8, prisoners=(0, 0),
             passes=0, max_turns=300):
    return GAME.load({
        "version": 1, "players": ["ada", "bob"], "side": side, "pie": "small",
        "max_turns": max_turns, "seed": 7, "phase": "play",
        "colours": {"ada": "red", "bob": "yellow"},
        "red": list(red), "yellow": list(yellow), "walls": list(walls),
        "prisoners": {"red": prisoners[0], "yellow": prisoners[1]},
        "turn": 5, "normal_turns": 0, "passes": passes, "to_play": to_play,
        "end_reason": "",
    })


def play(state, text):
    player = GAME.to_move(state)[0]
    order = GAME.parse_order(state, player, text)
    return GAME.submit(state, player, order, 0.0)


def board(state):
    data = GAME.dump(state)
    return {key: set(data[key]) for key in ("red", "yellow", "walls")}


def illegal(state, text, *fragments):
    before = GAME.dump(state)
    with pytest.raises(IllegalOrderError) as caught:
        play(state, text)
    for fragment in fragments:
        assert fragment in str(caught.value)
    assert GAME.dump(state) == before  # nothing of the turn was applied
    return caught.value


# --- PH1: board and lines ---------------------------------------------------


def test_ph1_default_board_has_169_cells_with_fb1_names():
    state = GAME.setup(["ada", "bob"], {}, seed=1)
    text = GAME.render_board(state)
    grid_lines = [line for line in text.splitlines() if line[:2].strip().isdigit()]
    assert len(grid_lines) == 15  # rows 1..2N-1
    assert sum(line.count(".") for line in grid_lines) == 3 * 8 * 7 + 1 == 169
    # Row 1 runs H..O and row 8 A..O (FB1 with N = 8); A1 is no cell.
    for name in ("H1", "O1", "A8", "O8", "H15", "A15"):
        position(walls=[name])
    for name in ("A1", "G1", "P8", "I15"):
        with pytest.raises(StateError):
            position(walls=[name])


def test_ph1_lines_of_movement_are_the_three_axes():
    # Row axis F8-G8, letter axis H6-H7, and the third axis G9-H8 (q+1, r-1).
    for red, move, landed in (
        (["F8", "G8"], "MOVE G8 F8 1", {"G8", "H8"}),
        (["H6", "H7"], "MOVE H7 H6 1", {"H7", "H8"}),
        (["G9", "H8"], "MOVE H8 G9 1", {"H8", "I7"}),
        (["H8", "I7"], "MOVE H8 I7 1", {"G9", "H8"}),
    ):
        assert board(play(position(red=red), move).state)["red"] == landed
    # G8 and H6 are not on one axis.
    illegal(position(red=["G8", "H7", "H6"]), "MOVE H6 G8 1", "not on one straight line")


# --- PH2: the shape of a turn -------------------------------------------------


def test_ph2_growths_then_moves_in_the_order_written():
    state = position(red=["F8", "G8", "J10"])
    result = play(state, "GROW J11\nMOVE G8 F8 1")
    assert board(result.state)["red"] == {"G8", "H8", "J10", "J11"}
    kinds = [e.kind for e in result.events]
    assert kinds == ["grow", "move"]
    illegal(state, "MOVE G8 F8 1\nGROW J11", "growths come before moves")


def test_ph2_a_turn_with_nothing_is_a_pass_and_two_passes_end_the_game():
    state = position(red=["C10"], yellow=["M4"])
    first = play(state, "PASS").state
    assert not GAME.is_over(first) and GAME.to_move(first) == ["bob"]
    grown = play(first, "GROW M3").state  # a non-pass breaks the series
    assert not GAME.is_over(play(grown, "pass").state)
    second = play(first, "  pass ").state
    assert GAME.is_over(second)
    assert GAME.to_move(second) == []
    assert "passed" in GAME.dump(second)["end_reason"]
    with pytest.raises(NotYourTurnError):
        play_as(second, "ada", "PASS")


# --- PH3: growth ----------------------------------------------------------------


def test_ph3_one_man_that_joins_two_groups_grows_both():
    state = position(red=["F8", "H8"])
    joined = play(state, "GROW G8").state
    assert board(joined)["red"] == {"F8", "G8", "H8"}
    # Both groups grew, so neither may move this turn ...
    illegal(state, "GROW G8\nMOVE H8 F8 2", "grew this turn")
    illegal(state, "GROW G8\nMOVE F8 G8 1", "grew this turn")
    # ... and a second new man on either old group is a second man for it.
    illegal(state, "GROW G8 G7", "GROW G8 G7", "both new men touch your group at F8")
    # Next turn they are one phalanx of three.
    later = play(play(joined, "PASS").state, "MOVE H8 F8 2").state
    assert board(later)["red"] == {"H8", "I8", "J8"}


def test_ph3_two_touching_new_men_join_two_groups():
    state = position(red=["E8", "H8"])
    # F8 touches only E8, G8 only H8, and F8 touches G8: legal.
    joined = play(state, "grow f8 g8").state
    assert board(joined)["red"] == {"E8", "F8", "G8", "H8"}
    # Next turn E8..H8 is one group: four men, one phalanx, one man of growth.
    after_pass = play(joined, "PASS").state
    # D8 touches the group at E8 and I8 at H8: the error names each contact.
    illegal(after_pass, "GROW D8 I8", "GROW D8 I8: both new men touch your group "
            "(D8 at E8, I8 at H8); I8 would be its second new man")
    moved = play(after_pass, "MOVE H8 E8 3").state
    assert board(moved)["red"] == {"H8", "I8", "J8", "K8"}


def test_ph3_two_new_men_on_one_group_are_illegal():
    error = illegal(position(red=["H8"]), "GROW G8 I8",
                    "GROW G8 I8: both new men touch your group at H8")
    assert "PH3" in str(error)


def test_ph3_two_new_men_on_one_group_name_the_cells_each_touches():
    # F8 touches the group G8 H8 at G8, I8 at H8: no single cell is touched by both.
    error = illegal(position(red=["G8", "H8"]), "GROW F8 I8", "GROW F8 I8",
                    "(F8 at G8, I8 at H8)", "I8 would be its second new man")
    assert "at H8;" not in str(error)


def test_ph3_a_new_man_touching_both_groups_beside_another_new_man_is_illegal():
    # F8 touches E8 and G8, F7 touches E8 too: E8's group would get two men.
    illegal(position(red=["E8", "G8"]), "GROW F8 F7", "both new men touch your group at E8")


def test_ph3_a_new_man_must_touch_a_group_of_the_start_of_the_turn():
    state = position(red=["H8"], yellow=["J8"])
    illegal(state, "GROW K8", "touches none")
    # Touching only another new man is not enough.
    illegal(state, "GROW G8 F8", "touches none")
    illegal(state, "GROW J8", "J8 is not empty: it holds a yellow man")
    illegal(state, "GROW G8 G8", "named twice")


def test_ph3_a_group_that_grew_cannot_move_but_another_group_can():
    state = position(red=["G8", "H8", "K10", "K11"])
    illegal(state, "GROW I7\nMOVE H8 G8 1", "the group at H8 grew this turn")
    result = play(state, "GROW I7\nMOVE K11 K10 1").state
    assert board(result)["red"] == {"G8", "H8", "I7", "K11", "K12"}


# --- PH4: moving -------------------------------------------------------------------


def test_ph4_a_group_joined_by_a_moving_group_loses_its_move():
    # F8 G8 moves to G8 H8, which touches I7: the group I6 I7 may not move.
    state = position(red=["F8", "G8", "I6", "I7"])
    illegal(state, "MOVE G8 F8 1\nMOVE I6 I7 1", "MOVE I6 I7 1",
            "joined by a moving group")
    # In the other order both moves are legal: the order of moves matters.
    result = play(state, "MOVE I6 I7 1\nMOVE G8 F8 1").state
    assert board(result)["red"] == {"G8", "H8", "I5", "I6"}


def test_ph4_a_group_moves_at_most_once():
    illegal(position(red=["F8", "G8"]), "MOVE G8 F8 1\nMOVE H8 G8 1", "already moved")


def test_ph4_fragments_of_a_moved_group_cannot_move_again_but_grow_next_turn():
    # G7 hangs on F8 and G8.  Moving G8-H8 one cell leaves {F8, G7} and {H8, I8}.
    state = position(red=["F8", "G8", "H8", "G7"])
    moved = play(state, "MOVE H8 G8 1").state
    assert board(moved)["red"] == {"F8", "G7", "H8", "I8"}
    illegal(state, "MOVE H8 G8 1\nMOVE G7 F8 1", "already moved")
    # Next turn each fragment is a group of its own and may grow one man.
    grown = play(play(moved, "PASS").state, "GROW E8 J8").state
    assert board(grown)["red"] == {"E8", "F8", "G7", "H8", "I8", "J8"}


def test_ph4_maximum_range_is_one_less_than_the_phalanx():
    state = position(red=["F8", "G8", "H8"])
    assert board(play(state, "MOVE H8 F8 2").state)["red"] == {"H8", "I8", "J8"}
    assert board(play(state, "MOVE H8 F8 1").state)["red"] == {"G8", "H8", "I8"}
    illegal(state, "MOVE H8 F8 3", "a phalanx of 3 men moves 1 to 2 cells")
    # The other end is a head too.
    assert board(play(state, "MOVE F8 H8 2").state)["red"] == {"D8", "E8", "F8"}


def test_ph4_tail_inside_the_run_moves_only_tail_to_head():
    state = position(red=["F8", "G8", "H8"])
    # n = 2 (G8..H8): the man behind the tail stays.
    assert board(play(state, "MOVE H8 G8").state)["red"] == {"F8", "H8", "I8"}
    illegal(state, "MOVE H8 G8 2", "a phalanx of 2 men moves 1 to 1 cells")


def test_ph4_head_must_be_an_end_and_the_run_unbroken():
    illegal(position(red=["F8", "G8", "H8"]), "MOVE G8 F8 1", "end man", "H8")
    illegal(position(red=["F8", "H8"]), "MOVE H8 F8 1", "broken at G8")
    illegal(position(red=["F8", "G8"]), "MOVE G8 G8 1", "two different men")
    illegal(position(red=["F8", "G8"], yellow=["H8"]), "MOVE H8 G8 1",
            "H8 holds a yellow man, not one of your red men")


def test_an_empty_cell_is_said_to_be_empty():
    error = illegal(position(red=["G8"]), "MOVE H8 G8 1", "H8 is empty, not one of your red men")
    assert "holds empty" not in str(error)
    error = illegal(position(red=["G8"], walls=["H8"]), "GROW H8", "H8 is not empty: it is a wall")
    assert "holds" not in str(error)


@pytest.mark.parametrize("text", ["MOVE H8 G8 -1", "MOVE H8 G8 0", "move h8 g8 - 2",
                                  "MOVE H8 G8 -0", "GROW I7\nMOVE H8 G8 -1"])
def test_ph4_a_negative_or_zero_distance_is_a_syntax_error(text):
    with pytest.raises(OrderSyntaxError, match="distance"):
        GAME.parse_order(position(red=["G8", "H8"]), "ada", text)
    # A dash between cells is still a separator.
    assert str(GAME.parse_order(position(red=["G8", "H8"]), "ada", "move h8-g8 1")) == \
        "MOVE H8 G8 1"


def test_ph4_distance_may_be_left_out_only_for_two_men():
    error = illegal(position(red=["F8", "G8", "H8"]), "MOVE H8 F8", "say how far")
    assert error.legal == ["MOVE H8 F8 1", "MOVE H8 F8 2"]


# --- PH5: restrictions and capture ------------------------------------------------


def test_ph5_moving_onto_or_over_a_wall_is_illegal():
    illegal(position(red=["F8", "G8", "H8"], walls=["J8"]), "MOVE H8 F8 2", "J8 is a wall")
    illegal(position(red=["F8", "G8", "H8"], walls=["I8"]), "MOVE H8 F8 2", "I8 is a wall")
    illegal(position(red=["F8", "G8", "H8"], walls=["I8"]), "MOVE H8 F8 1", "I8 is a wall")
    short = play(position(red=["F8", "G8", "H8"], walls=["J8"]), "MOVE H8 F8 1").state
    assert board(short)["red"] == {"G8", "H8", "I8"}


def test_ph5_moving_onto_or_over_an_own_man_is_illegal():
    illegal(position(red=["F8", "G8", "H8", "J8"]), "MOVE H8 F8 2", "J8 holds your own man")
    illegal(position(red=["E8", "F8", "G8", "H8", "J8"]), "MOVE H8 E8 3",
            "J8 holds your own man")
    joined = play(position(red=["F8", "G8", "H8", "J8"]), "MOVE H8 F8 1").state
    assert board(joined)["red"] == {"G8", "H8", "I8", "J8"}


def test_ph5_a_phalanx_may_not_leave_the_board():
    illegal(position(red=["N8", "O8"]), "MOVE O8 N8 1", "leave the board")


def test_ph5_capture_makes_prisoners_and_wall():
    state = position(red=["F8", "G8"], yellow=["H8", "H5"])
    result = play(state, "MOVE G8 F8 1")
    after = board(result.state)
    assert after == {"red": {"G8"}, "yellow": {"H5"}, "walls": {"H8"}}
    assert GAME.dump(result.state)["prisoners"] == {"red": 1, "yellow": 0}
    assert any(e.kind == "capture" and "H8" in e.text for e in result.events)


def test_ph5_an_equal_length_attack_on_the_line_of_movement_is_illegal():
    state = position(red=["F8", "G8"], yellow=["H8", "I8"])
    illegal(state, "MOVE G8 F8 1", "H8 I8", "longer")
    # Three against two is fine.
    longer = play(position(red=["E8", "F8", "G8"], yellow=["H8", "I8"]), "MOVE G8 E8 1")
    assert board(longer.state) == {"red": {"F8", "G8"}, "yellow": {"I8"}, "walls": {"H8"}}
    # n counts only tail to head: a two-man part of a longer run is still two.
    illegal(position(red=["E8", "F8", "G8", "H8"], yellow=["I8", "J8"]), "MOVE H8 G8 1",
            "phalanx of 2", "I8 J8")
    three = play(position(red=["E8", "F8", "G8", "H8"], yellow=["I8", "J8"]), "MOVE H8 F8 1")
    assert board(three.state) == {"red": {"E8", "G8", "H8"}, "yellow": {"J8"}, "walls": {"I8"}}


def test_ph5_the_attacked_line_need_not_be_head_to_head():
    # The full yellow run counts even though only I8 is covered.
    result = play(position(red=["E8", "F8", "G8"], yellow=["I8", "J8"]), "MOVE G8 E8 2")
    assert board(result.state) == {"red": {"G8", "H8"}, "yellow": {"J8"}, "walls": {"I8"}}
    illegal(position(red=["E8", "F8", "G8"], yellow=["I8", "J8", "K8"]), "MOVE G8 E8 2",
            "I8 J8 K8")


def test_ph5_a_run_across_the_line_of_movement_does_not_protect():
    # Yellow H7 H8 H9 is a phalanx of three, but on the row it is one man.
    state = position(red=["F8", "G8"], yellow=["H7", "H8", "H9"])
    after = board(play(state, "MOVE G8 F8 1").state)
    assert after == {"red": {"G8"}, "yellow": {"H7", "H9"}, "walls": {"H8"}}


def test_ph5_rule_text_combination_three_prisoners_three_walls():
    # Yellow I8 J8 K8 on a row.  The red pair K6 K7 takes K8 off its own line,
    # then the red three F8 G8 H8 takes the remaining two (3 > 2).
    state = position(red=["F8", "G8", "H8", "K6", "K7"], yellow=["I8", "J8", "K8"])
    result = play(state, "MOVE K7 K6 1\nMOVE H8 F8 2")
    assert board(result.state) == {
        "red": {"H8", "K7"}, "yellow": set(), "walls": {"I8", "J8", "K8"},
    }
    assert GAME.dump(result.state)["prisoners"]["red"] == 3
    # The other way round the three meets a yellow three on its line.
    illegal(state, "MOVE H8 F8 2\nMOVE K7 K6 1", "MOVE H8 F8 2", "I8 J8 K8")


# --- PH6: score -------------------------------------------------------------------

# Side 3 (19 cells): a wall across row 3 (A3..E3) leaves rows 1-2 (C1 D1 E1,
# B2 C2 D2 E2: 7 cells) and rows 4-5 (A4 B4 C4 D4, A5 B5 C5: 7 cells).
MIDDLE_WALL = ["A3", "B3", "C3", "D3", "E3"]


def test_ph6_territory_with_walls_minus_prisoners():
    state = position(side=3, red=["C1"], yellow=["A5"], walls=MIDDLE_WALL, prisoners=(2, 1))
    assert GAME.scores(state) == {"ada": 6 - 1, "bob": 6 - 2}
    sides = {s["name"]: s for s in GAME.view(state, "ada")["sides"]}
    assert sides["ada"]["territory"] == 6 and sides["bob"]["territory"] == 6
    assert sides["ada"]["prisoners"] == 2 and sides["bob"]["prisoners"] == 1


def test_ph6_cells_reaching_both_colours_or_none_are_neutral():
    both = position(side=3, red=["C1"], yellow=["E1", "A5"], walls=MIDDLE_WALL)
    assert GAME.scores(both) == {"ada": 0, "bob": 6}
    none = position(side=3, yellow=["A5"], walls=MIDDLE_WALL + ["A4", "B4", "C4", "D4"])
    # Yellow's A5 sees B5 C5; the 7 top cells touch no man at all.
    assert GAME.scores(none)["bob"] == 2
    # Without the wall everything reaches both colours.
    open_board = position(side=3, red=["C1"], yellow=["A5"])
    assert GAME.scores(open_board) == {"ada": 0, "bob": 0}


# --- PH7: the pie -------------------------------------------------------------------


def test_ph7_small_pie_chooser_takes_yellow():
    state = GAME.setup(["ada", "bob"], {}, seed=3)
    assert GAME.to_move(state) == ["ada"]
    with pytest.raises(NotYourTurnError):
        play_as(state, "bob", "PLACE RED H8 YELLOW E8 K8")
    illegal(state, "GROW H8", "not begun")
    illegal(state, "PLACE RED H8 YELLOW E8", "1 red and 2 yellow")
    state = play(state, "place red h8 yellow e8, k8").state
    assert board(state) == {"red": {"H8"}, "yellow": {"E8", "K8"}, "walls": set()}
    assert GAME.to_move(state) == ["bob"]
    assert GAME.legal_orders(state, "bob") == ["COLOUR RED", "COLOUR YELLOW"]
    state = play(state, "COLOUR YELLOW").state
    assert GAME.dump(state)["colours"] == {"ada": "red", "bob": "yellow"}
    assert GAME.to_move(state) == ["ada"]  # Red places one more man
    illegal(state, "PLACE E8", "not empty")
    state = play(state, "PLACE H5").state
    assert board(state)["red"] == {"H8", "H5"}
    assert GAME.to_move(state) == ["bob"]  # Yellow takes the first normal turn
    assert GAME.dump(state)["phase"] == "play"
    state = play(state, "GROW F8").state
    assert GAME.to_move(state) == ["ada"]


def test_ph7_chooser_takes_red_and_places_the_extra_man():
    state = GAME.setup(["ada", "bob"], {"pie": "large"}, seed=3)
    illegal(state, "PLACE RED H8 YELLOW E8 K8", "2 red and 3 yellow")
    state = play(state, "PLACE RED H8 H6 YELLOW E8 K8 K10").state
    state = play(state, "colour red").state
    assert GAME.dump(state)["colours"] == {"bob": "red", "ada": "yellow"}
    assert GAME.to_move(state) == ["bob"]
    state = play(state, "PLACE C8").state
    assert board(state)["red"] == {"H8", "H6", "C8"}
    assert GAME.to_move(state) == ["ada"]  # ada is Yellow and starts
    with pytest.raises(OptionError):
        GAME.setup(["ada", "bob"], {"pie": "huge"}, seed=3)


def test_ph7_opening_notation_variants_and_mistakes():
    state = GAME.setup(["ada", "bob"], {}, seed=3)
    placed = play(state, "yellow e8 k8 red h8").state
    assert board(placed) == board(play(state, "PLACE RED H8 YELLOW E8 K8").state)
    illegal(state, "PLACE RED H8 YELLOW E8 H8", "named twice")
    illegal(state, "PLACE RED A1 YELLOW E8 K8", "no cell A1")
    with pytest.raises(OrderSyntaxError):
        GAME.parse_order(state, "ada", "PLACE H8 E8 K8")
    for text in ("color yellow", "CHOOSE YELLOW", "yellow"):
        chosen = play(placed, text).state
        assert GAME.dump(chosen)["colours"]["bob"] == "yellow"
    with pytest.raises(OrderSyntaxError):
        GAME.parse_order(placed, "bob", "COLOUR BLUE")
    illegal(placed, "PASS", "not begun")


def play_as(state, player, text):
    return GAME.submit(state, player, GAME.parse_order(state, player, text), 0.0)


# --- PH8: turn limit -----------------------------------------------------------------


def test_ph8_max_turns_ends_a_game_without_two_passes():
    state = position(red=["C10"], yellow=["M4"], max_turns=3)
    state = play(state, "GROW C11").state
    state = play(state, "GROW M3").state
    assert not GAME.is_over(state)
    result = play(state, "GROW C12")
    assert GAME.is_over(result.state)
    assert "turn limit of 3" in GAME.dump(result.state)["end_reason"]
    assert result.events[-1].kind == "end"
    assert GAME.check_options({})["max_turns"] == 300
    with pytest.raises(OptionError):
        GAME.check_options({"max_turns": "0"})


# --- G1-G3 ---------------------------------------------------------------------------


def test_g1_a_game_replays_exactly_from_seed_and_orders():
    from gm_parts import ReportInput, render_report

    def run(seed, orders):
        state = GAME.setup(["ada", "bob"], {"side": "6"}, seed=seed)
        reports = []
        for text in orders:
            result = play(state, text)
            state = result.state
            reports.append(render_report(ReportInput(
                game_id="g1", rules=GAME, state=state, viewer="ada", events=result.events)))
        return GAME.dump(state), reports

    rng = random.Random(11)
    state = GAME.setup(["ada", "bob"], {"side": "6"}, seed=42)
    orders = []
    while not GAME.is_over(state) and len(orders) < 40:
        text = GAME.random_order(state, GAME.to_move(state)[0], rng)
        orders.append(text)
        state = play(state, text).state
    first, second = run(42, orders), run(42, orders)
    assert first == second
    assert first[0]["seed"] == 42


def test_g2_a_tie_is_a_shared_win_and_the_report_says_so():
    from gm_parts import ReportInput, render_report

    state = position(side=3, red=["C1"], yellow=["A5"], walls=MIDDLE_WALL)
    result = play(play(state, "PASS").state, "PASS")
    assert GAME.winners(result.state) == ["ada", "bob"]
    report = render_report(ReportInput(game_id="g2", rules=GAME, state=result.state,
                                       viewer="bob", events=result.events))
    assert "Shared win" in report
    uneven = position(side=3, red=["C1"], yellow=["A5"], walls=MIDDLE_WALL, prisoners=(1, 0))
    over = play(play(uneven, "PASS").state, "PASS").state
    assert GAME.winners(over) == ["ada"]


def test_g3_orders_are_judged_on_the_position_when_carried_out():
    state = position(red=["F8", "G8"])
    order = GAME.parse_order(state, "ada", "MOVE G8 F8 1")
    # The GM puts a wall in the way before the order is carried out.
    data = GAME.dump(state)
    data["walls"] = ["H8"]
    with pytest.raises(IllegalOrderError, match="H8 is a wall"):
        GAME.submit(GAME.load(data), "ada", order, 0.0)
    assert board(GAME.submit(state, "ada", order, 0.0).state)["red"] == {"G8", "H8"}


# --- errors, notation ----------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "", "\n\n", "HELLO", "H8", "MOVE H8", "MOVE H8 G8 far", "GROW", "PASS GROW H7",
    "PASS H7", "MOVE H8 G8 1 2",
])
def test_syntax_errors_are_not_orders(text):
    with pytest.raises(OrderSyntaxError):
        GAME.parse_order(position(red=["G8", "H8"]), "ada", text)


def test_well_formed_but_forbidden_orders_are_illegal_with_reasons():
    state = position(red=["G8", "H8"])
    illegal(state, "GROW Z9", "GROW Z9", "no cell Z9")
    illegal(state, "PLACE H5", "opening is over")
    illegal(state, "MOVE H8 G8 1\nMOVE J5 J6 1", "MOVE J5 J6 1", "empty")


def test_notation_is_case_insensitive_and_forgiving_of_spaces():
    state = position(red=["F8", "G8", "H8", "K10"])
    loose = GAME.parse_order(state, "ada", "  grow   k11 \n\n  move h8-f8   2\n")
    tight = GAME.parse_order(state, "ada", "GROW K11; MOVE H8 F8 2")
    assert loose == tight
    assert str(loose) == "GROW K11\nMOVE H8 F8 2"
    assert GAME.parse_order(state, "ada", str(loose)) == loose
    assert str(GAME.parse_order(state, "ada", "pass")) == "PASS"


def test_not_your_turn():
    state = position(red=["G8"], yellow=["C10"])
    with pytest.raises(NotYourTurnError):
        GAME.parse_order(state, "bob", "PASS")
    with pytest.raises(NotYourTurnError):
        GAME.submit(state, "bob", GAME.parse_order(state, "ada", "PASS"), 0.0)


def test_submit_does_not_mutate_its_input():
    state = position(red=["F8", "G8", "H8", "K6", "K7"], yellow=["I8", "J8", "K8"])
    before = GAME.dump(state)
    play(state, "MOVE K7 K6 1\nMOVE H8 F8 2")
    assert GAME.dump(state) == before


# --- JSON ------------------------------------------------------------------------------


def test_json_round_trip_and_state_contents():
    state = position(red=["F8", "G8"], yellow=["H8"], walls=["C10"], prisoners=(1, 2))
    data = json.loads(json.dumps(GAME.dump(state)))
    assert data["version"] == GAME.state_version
    assert data["red"] == ["F8", "G8"] and data["walls"] == ["C10"]
    assert data["prisoners"] == {"red": 1, "yellow": 2}
    assert GAME.load(data) == state
    fresh = GAME.setup(["ada", "bob"], {"side": "5", "pie": "large"}, seed=9)
    assert GAME.load(GAME.dump(fresh)) == fresh


@pytest.mark.parametrize("change", [
    {"version": 99},
    {"players": ["ada", "ada"]},
    {"side": 40},
    {"pie": "medium"},
    {"phase": "lunch"},
    {"red": ["F8", "F8"]},
    {"yellow": ["F8"]},  # F8 is red already
    {"walls": ["Q1"]},
    {"prisoners": {"red": -1, "yellow": 0}},
    {"colours": {"ada": "red", "bob": "red"}},
    {"to_play": "blue"},
    {"passes": "1"},
])
def test_load_rejects_malformed_states(change):
    data = GAME.dump(position(red=["F8", "G8"]))
    data.update(change)
    with pytest.raises(StateError):
        GAME.load(data)


# --- presentation ------------------------------------------------------------------------


def test_board_fits_72_columns_and_shows_men_walls():
    for side in range(3, 14):
        # The centre cell and its east neighbours (FB1: letter index side-1, row side).
        row = [f"{chr(ord('A') + side - 1 + i)}{side}" for i in range(3)]
        state = position(side=side, red=row[:1], yellow=row[1:2], walls=row[2:])
        text = GAME.render_board(state)
        assert max(len(line) for line in text.splitlines()) <= 72
        # The centre row carries its row numbers, diagonal A's letter and the cells.
        centre = next(line for line in text.splitlines() if line.startswith(f"{side:>2} "))
        assert [centre.count(symbol) for symbol in "RY#."] == [1, 1, 1, 2 * side - 4]
        assert centre.index("R") < centre.index("Y") < centre.index("#")


def test_report_shows_prisoners_territory_walls_and_mover():
    from gm_parts import ReportInput, render_report

    state = position(red=["F8", "G8", "H8", "K6", "K7"], yellow=["I8", "J8", "K8", "B12"])
    result = play(state, "MOVE K7 K6 1\nMOVE H8 F8 2")
    report = render_report(ReportInput(game_id="t1", rules=GAME, state=result.state,
                                       viewer="ada", events=result.events))
    assert all(len(line) <= 72 for line in report.splitlines())
    assert "ada (red) takes 2 yellow men; wall at I8 J8" in report
    assert "prisoners held   3" in report
    assert "Walls: 3." in report
    assert "To move: bob" in report
    assert "ada          red     men   2  prisoners held   3  territory   0" in report
    assert "Last turn" not in report
    # A BOARD mail has no events of its own: the last turn is shown from the state.
    board_mail = render_report(ReportInput(game_id="t1", rules=GAME, state=result.state,
                                           viewer="bob", events=[]))
    assert "Last turn:" in board_mail
    assert "  ada (red) moves head H8 tail F8 by 2" in board_mail


@pytest.mark.parametrize("side", [3, 5, 8, 13])
@pytest.mark.parametrize("pie", ["small", "large"])
def test_opening_instructions_give_examples_that_work_on_the_board(side, pie):
    state = GAME.setup(["ada", "bob"], {"side": str(side), "pie": pie}, seed=1)
    for _ in range(3):
        instruction = GAME.view(state, None)["instruction"]
        example = instruction.split("e.g. ")[-1] if "e.g." in instruction else "COLOUR YELLOW"
        state = play(state, example).state
    assert GAME.view(state, None)["phase"] == "play"


def test_help_shows_notation_and_every_ruling():
    text = GAME.help_text()
    assert all(len(line) <= 72 for line in text.splitlines())
    for item in ["PH1.", "PH2.", "PH3.", "PH4.", "PH5.", "PH6.", "PH7.", "PH8.", "G1.",
                 "G2.", "G3.", "GROW E5 G7", "MOVE F6 F4 2", "PASS", "COLOUR YELLOW"]:
        assert item in text
    check_help_quotes_rulings(text, "PH")  # G1-G5 and PH1-PH8 word for word
    # The examples name cells of the default board, and the worked move is right.
    position(walls=["E5", "G7", "F6", "F4", "H8", "G8", "E8", "K8", "H5"])
    state = position(red=["F8", "G8", "H8"])
    assert "MOVE H8 F8 2 puts them on H8 I8 J8" in " ".join(text.split())
    assert board(play(state, "MOVE H8 F8 2").state)["red"] == {"H8", "I8", "J8"}
    assert board(play(state, "MOVE H8 G8 1").state)["red"] == {"F8", "H8", "I8"}


# --- seeded random play --------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def neighbours(name, side):
    """FB1 neighbours computed from the name, independently of the rules."""
    q, r = ord(name[0]) - ord("A") - (side - 1), int(name[1:]) - side
    found = []
    for dq, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)):
        nq, nr = q + dq, r + dr
        if max(abs(nq), abs(nr), abs(nq + nr)) <= side - 1:
            found.append(f"{chr(nq + side - 1 + ord('A'))}{nr + side}")
    return tuple(found)


@functools.lru_cache(maxsize=None)
def all_cells(side):
    n = side - 1
    return [f"{chr(q + n + ord('A'))}{r + side}" for q in range(-n, n + 1)
            for r in range(-n, n + 1) if abs(q + r) <= n]


def expected_scores(data):
    side, occupied = data["side"], {}
    for key in ("red", "yellow", "walls"):
        occupied.update({name: key for name in data[key]})
    land = {"red": 0, "yellow": 0}
    seen = set()
    for start in all_cells(side):
        if start in occupied or start in seen:
            continue
        region, todo, colours = {start}, [start], set()
        while todo:
            for near in neighbours(todo.pop(), side):
                if near not in occupied and near not in region:
                    region.add(near)
                    todo.append(near)
                elif occupied.get(near) in ("red", "yellow"):
                    colours.add(occupied[near])
        seen |= region
        if len(colours) == 1:
            land[colours.pop()] += len(region)
    other = {"red": "yellow", "yellow": "red"}
    return {p: land[c] - data["prisoners"][other[c]] for p, c in data["colours"].items()}


def test_random_play_keeps_invariants():
    finished = 0
    for game in range(200):
        rng = random.Random(game)
        side = rng.choice([3, 4, 5, 6, 8])
        state = GAME.setup(["ada", "bob"], {"side": str(side), "max_turns": "40",
                                            "pie": rng.choice(["small", "large"])}, seed=game)
        steps = 0
        while not GAME.is_over(state):
            movers = GAME.to_move(state)
            assert len(movers) == 1
            player = movers[0]
            before = GAME.dump(state)
            text = GAME.random_order(state, player, rng)
            result = GAME.submit(state, player, GAME.parse_order(state, player, text), 0.0)
            assert GAME.dump(state) == before
            state = result.state
            data = GAME.dump(state)
            json.dumps(data)
            assert GAME.load(data) == state
            assert data["turn"] == before["turn"] + 1
            cells = data["red"] + data["yellow"] + data["walls"]
            assert len(cells) == len(set(cells))
            assert set(cells) <= set(all_cells(side))
            # Walls come only from captures and never go away.
            assert set(before["walls"]) <= set(data["walls"])
            assert len(data["walls"]) == sum(data["prisoners"].values())
            if before["phase"] == "play":
                colour = before["to_play"]
                enemy = "yellow" if colour == "red" else "red"
                taken = data["prisoners"][colour] - before["prisoners"][colour]
                new_walls = len(data["walls"]) - len(before["walls"])
                grown = sum(len(line.split()) - 1 for line in text.splitlines()
                            if line.startswith("GROW"))
                assert taken == new_walls
                assert len(data[colour]) == len(before[colour]) + grown - new_walls
                assert len(data[enemy]) == len(before[enemy]) - taken
                assert data["prisoners"][enemy] == before["prisoners"][enemy]
                assert data["normal_turns"] == before["normal_turns"] + 1
                assert GAME.scores(state) == expected_scores(data)
            steps += 1
            assert steps < 200
        assert data["normal_turns"] <= 40
        assert data["passes"] == 2 or data["normal_turns"] == 40
        scores = GAME.scores(state)
        winners = GAME.winners(state)
        assert winners and all(scores[w] == max(scores.values()) for w in winners)
        finished += 1
    assert finished == 200
