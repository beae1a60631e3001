"""Fuzzy Borders: the rule text's examples, RULINGS FB1-FB7 and G1-G3, errors,
JSON, the report, and many seeded random games checked against an
independent recount of the board."""

import copy
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
from games.registry import get
from rulings_md import check_help_quotes_rulings

G = get("fuzzy-borders")
T0 = 1_700_000_000.0
DAY = 24 * 3600


# --- helpers ----------------------------------------------------------------

def new(players=("ada", "bob"), seed=1, **options):
    return G.setup(list(players), {k: str(v) for k, v in options.items()}, seed)


def play(state, claims, now=T0):
    """Submit {player: cell} (skipping None) and close the turn; return the Result."""
    for player, cell in claims.items():
        if cell is not None:
            state = G.submit(state, player, G.parse_order(state, player, f"CLAIM {cell}"), now).state
    return G.close_turn(state, now)


def claims_of(state):
    return {p: [c["cell"] for c in cs] for p, cs in G.dump(state)["claims"].items()}


def axial(name, side):
    """Independent of games.hexgrid: FB1's q = letter index - (N-1), r = row - N."""
    return ord(name[0]) - ord("A") - (side - 1), int(name[1:]) - side


def all_cells(side):
    n = side - 1
    return [(q, r) for r in range(-n, n + 1) for q in range(-n, n + 1) if abs(q + r) <= n]


def recount(data):
    """Scores and empty-cell count straight from FB2/FB3, over every cell of the board."""
    side, radius = data["options"]["side"], data["options"]["radius"]
    cells = set(all_cells(side))
    claimed = {axial(c["cell"], side): p for p, cs in data["claims"].items() for c in cs}
    influence = {cell: {p: 0 for p in data["players"]} for cell in cells}
    for (q, r), player in claimed.items():
        for dq in range(-radius, radius + 1):
            for dr in range(-radius, radius + 1):
                d = max(abs(dq), abs(dr), abs(dq + dr))
                if 1 <= d <= radius and (q + dq, r + dr) in cells:
                    influence[(q + dq, r + dr)][player] += radius + 1 - d
    scores = {p: 0 for p in data["players"]}
    empty = 0
    for cell in cells:
        if cell in claimed:
            scores[claimed[cell]] += 10
            continue
        best = max(influence[cell].values())
        leaders = [p for p, v in influence[cell].items() if v == best]
        if best > 0 and len(leaders) == 1:
            scores[leaders[0]] += min(best, 5)
        else:
            empty += 1
    return scores, empty


# --- FB4: the worked examples of the rule text --------------------------------

def test_fb4_ada_alone_on_i9_scores_130():
    state = new(["ada", "alan"])
    state = play(state, {"ada": "I9"}).state  # Alan sends nothing (FB5)
    assert G.scores(state)["ada"] == 130
    # by hand: 10 + 6*4 + 12*3 + 18*2 + 24*1
    assert 10 + 6 * 4 + 12 * 3 + 18 * 2 + 24 * 1 == 130


def test_fb4_ada_i9_alan_j13_score_114_each():
    state = play(new(["ada", "alan"]), {"ada": "I9", "alan": "J13"}).state
    assert G.scores(state) == {"ada": 114, "alan": 114}


def test_fb4_alan_on_j10_would_give_80_each():
    state = play(new(["ada", "alan"]), {"ada": "I9", "alan": "J10"}).state
    assert G.scores(state) == {"ada": 80, "alan": 80}


def test_fb4_second_turn_k10_and_o6_give_183_and_189():
    state = play(new(["ada", "alan"]), {"ada": "I9", "alan": "J13"}).state
    state = play(state, {"ada": "K10", "alan": "O6"}).state
    assert G.scores(state) == {"ada": 183, "alan": 189}
    assert recount(G.dump(state))[0] == {"ada": 183, "alan": 189}


# --- FB1 / FB2 / FB3 -------------------------------------------------------------

def test_fb1_coordinates_of_orders():
    state = new()
    assert "CLAIM J10" in G.legal_orders(state, "ada")
    assert len(G.legal_orders(state, "ada")) == 271
    for text, ok in [("S1", True), ("A10", True), ("A9", False), ("T1", False), ("J19", True)]:
        if ok:
            assert G.parse_order(state, "ada", f"CLAIM {text}").cell == text
        else:
            with pytest.raises(IllegalOrderError, match="no cell"):
                G.parse_order(state, "ada", f"CLAIM {text}")


def test_fb2_influence_falls_off_the_board_at_a_corner():
    state = play(new(), {"ada": "J1"}).state
    # a corner keeps 2d+1 cells at distance d: 10 + 3*4 + 5*3 + 7*2 + 9*1
    assert G.scores(state)["ada"] == 60


def test_fb2_influence_adds_up_over_a_players_claims_and_caps_at_5():
    state = play(new(side=5, radius=2), {"ada": "E5"}).state
    # FB2 with R=2 on the side-5 board's centre: 10 + 6*2 + 12*1
    assert G.scores(state)["ada"] == 34
    state = play(state, {"ada": "G5"}).state
    view = G.view(state, None)
    ada = view["players"][0]
    # F5 is next to both claims: 2 + 2 = 4; cells between reach 3 (2+1) etc.
    cells = state.board().cells
    f5 = cells[state.cell("F5")]
    assert (f5.leader, f5.influence, f5.value) == ("ada", 4, 4)
    assert ada["claimed"] == 2
    assert G.scores(state)["ada"] == recount(G.dump(state))[0]["ada"]


def test_fb3_value_is_capped_at_5_and_shown_as_owned():
    state = play(new(), {"ada": "J10", "bob": "A19"}).state
    state = play(state, {"ada": "L10", "bob": "S1"}).state
    k10 = state.board().cells[state.cell("K10")]
    assert k10.influence == 8 and k10.value == 5 and k10.owned
    assert G.view(state, None)["players"][0]["owned"] >= 1


def test_fb3_tie_for_the_lead_leaves_the_cell_empty_and_claimable():
    # H10 and L10 are both 2 from J10: 3 influence each there.
    state = play(new(), {"ada": "H10", "bob": "L10"}).state
    j10 = state.board().cells[state.cell("J10")]
    assert j10.empty and j10.leader is None
    assert "CLAIM J10" in G.legal_orders(state, "ada")
    assert "CLAIM J10" in G.legal_orders(state, "bob")
    # I10 is led by ada (4 against 2): bob may not claim it, ada may.
    assert "CLAIM I10" in G.legal_orders(state, "ada")
    assert "CLAIM I10" not in G.legal_orders(state, "bob")


def test_fb3_claimed_cell_is_worth_10_and_never_influenced():
    state = play(new(), {"ada": "J10", "bob": "K10"}).state
    cells = state.board().cells
    assert cells[state.cell("K10")].claimer == "bob"
    assert cells[state.cell("K10")].leader is None  # in ada's reach, but claimed
    assert cells[state.cell("K10")].value == 10


def test_fb3_nothing_is_sticky():
    state = play(new(), {"ada": "J10", "bob": "A19"}).state
    m10 = state.cell("M10")  # 3 from J10: ada 2
    assert state.board().cells[m10].leader == "ada"
    # bob's P10 is 3 from M10 as well: 2 against 2, so M10 falls back to empty
    state = play(state, {"ada": "A10", "bob": "P10"}).state
    assert state.board().cells[m10].empty
    # bob's O10 (led by bob) adds 3 more: bob 5 against ada 2, bob leads it
    state = play(state, {"ada": "A11", "bob": "O10"}).state
    cell = state.board().cells[m10]
    assert (cell.leader, cell.influence) == ("bob", 5)


# --- FB5: orders ------------------------------------------------------------------

def test_fb5_claim_is_sealed_confirmed_privately_and_replaceable():
    state = new()
    before = G.dump(state)
    result = G.submit(state, "ada", G.parse_order(state, "ada", "claim k10"), T0)
    assert G.dump(state) == before  # the input state is untouched
    (event,) = result.events
    assert event.to == ("ada",) and "K10" in event.text
    state = result.state
    assert "K10" not in json.dumps(G.view(state, "bob"))
    assert G.view(state, "ada")["you"]["sealed"] == "K10"
    assert G.view(state, None)["sealed"] == {"ada": "K10"}
    assert "ada" in G.to_move(state)  # may still replace it
    assert not G.ready(state, T0)
    result = G.submit(state, "ada", G.parse_order(state, "ada", "CLAIM J9"), T0)
    assert "replaces K10" in result.events[0].text
    state = G.submit(result.state, "bob", G.parse_order(result.state, "bob", "CLAIM A10"), T0).state
    assert G.ready(state, T0)
    result = G.close_turn(state, T0)
    assert claims_of(result.state) == {"ada": ["J9"], "bob": ["A10"]}
    public = [e.text for e in result.events if e.to is None]
    assert "ada claims J9." in public and "bob claims A10." in public


def test_fb5_illegal_claims_name_the_reason():
    state = play(new(), {"ada": "J10", "bob": "A19"}).state
    with pytest.raises(IllegalOrderError, match="ada claimed it") as info:
        G.parse_order(state, "bob", "CLAIM J10")
    # A few cells near by, never the whole list of legal claims.
    assert info.value.legal is None
    nearest = str(info.value).split("The nearest cells you may claim: ")[1].rstrip(".")
    assert len(nearest.split(", ")) == 3
    for name in nearest.split(", "):
        assert f"CLAIM {name}" in G.legal_orders(state, "bob")
    with pytest.raises(IllegalOrderError, match="you claimed it"):
        G.parse_order(state, "ada", "CLAIM J10")
    with pytest.raises(IllegalOrderError, match="under ada's influence"):
        G.parse_order(state, "bob", "CLAIM K10")
    with pytest.raises(IllegalOrderError, match="no cell"):
        G.parse_order(state, "bob", "CLAIM Z30")
    assert G.parse_order(state, "ada", "CLAIM K10").cell == "K10"  # led by ada


@pytest.mark.parametrize("text", ["", "  \n \n", "CLAIM", "PASS", "CLAIM K10 K11",
                                  "CLAIM K10\nCLAIM K11", "CLAIM 10K", "hello there"])
def test_order_syntax_errors(text):
    with pytest.raises(OrderSyntaxError):
        G.parse_order(new(), "ada", text)


@pytest.mark.parametrize("text", ["CLAIM K10", "claim k10", "  Claim   K 10  ", "\n\nCLAIM K10\n",
                                  "K10", "claim: k10"])
def test_order_notation_is_forgiving(text):
    claim = G.parse_order(new(), "ada", text)
    assert claim.cell == "K10" and str(claim) == "CLAIM K10"


def test_fb5_and_g3_claims_judged_on_the_board_at_the_start_of_the_turn():
    state = new()
    # bob's K10 is next to ada's simultaneous J10: legal, as the board was empty.
    state = play(state, {"ada": "J10", "bob": "K10"}).state
    assert claims_of(state) == {"ada": ["J10"], "bob": ["K10"]}


def test_fb5_missing_claim_places_nothing_and_the_gm_can_close():
    state = new(["ada", "bob", "cy"])
    state = G.submit(state, "ada", G.parse_order(state, "ada", "CLAIM J10"), T0).state
    assert not G.ready(state, T0 + 10 * DAY)  # no rules timer on a normal turn
    assert G.timer(state) is None
    result = G.close_turn(state, T0)  # e.g. the GM runs gm process
    assert claims_of(result.state) == {"ada": ["J10"], "bob": [], "cy": []}
    assert "bob sent no claim and places nothing." in [e.text for e in result.events]
    assert G.turn(result.state) == 2


def test_fb5_player_with_no_legal_cell_places_nothing():
    # A hand-edited state (the GM's): side 2, ada holds the centre and leads
    # all six other cells, yet the game goes on.  bob has no cell he may claim.
    data = G.dump(new(side=2, radius=1))
    data["claims"]["ada"] = [{"turn": 1, "cell": "B2"}]
    data["turn"] = 2
    state = G.load(data)
    assert G.to_move(state) == ["ada"]
    assert G.legal_orders(state, "bob") == []
    with pytest.raises(NotYourTurnError, match="place nothing"):
        G.parse_order(state, "bob", "CLAIM A2")
    state = G.submit(state, "ada", "CLAIM A2", T0).state
    assert G.ready(state, T0)  # bob is not waited for
    result = G.close_turn(state, T0)
    assert claims_of(result.state) == {"ada": ["B2", "A2"], "bob": []}
    assert not any("bob" in e.text for e in result.events)
    assert G.is_over(result.state)


def test_not_your_turn():
    state = new()
    with pytest.raises(NotYourTurnError):
        G.parse_order(state, "zed", "CLAIM J10")
    over = play(new(side=2, radius=1), {"ada": "B2"}).state
    assert G.is_over(over) and G.to_move(over) == []
    with pytest.raises(NotYourTurnError):
        G.parse_order(over, "bob", "CLAIM A2")
    assert G.legal_orders(over, "bob") == []


# --- FB6: clashes -------------------------------------------------------------------

def test_fb6_turn1_two_player_clash_gives_the_cell_and_its_180_degree_turn():
    results = set()
    for seed in range(12):
        result = play(new(seed=seed), {"ada": "K10", "bob": "K10"})
        claims = claims_of(result.state)
        # K10 is (1,0); turned 180 degrees about J10 it is (-1,0) = I10
        assert sorted(claims["ada"] + claims["bob"]) == ["I10", "K10"]
        results.add(claims["ada"][0])
        assert G.turn(result.state) == 2
    assert results == {"I10", "K10"}  # the seeded order gives either player the cell


def test_fb6_turn1_three_player_clash_turns_120_degrees():
    result = play(new(["ada", "bob", "cy"]), {"ada": "K10", "bob": "K10", "cy": "K10"})
    placed = sorted(c for cs in claims_of(result.state).values() for c in cs)
    # (1,0) turned by 120 and 240 degrees: (-1,1) = I11 and (0,-1) = J9
    assert placed == ["I11", "J9", "K10"]


def test_fb6_turn1_clash_assignment_is_seeded_g1():
    one = play(new(["ada", "bob", "cy"], seed=42), {"ada": "M7", "bob": "M7", "cy": "M7"})
    two = play(new(["ada", "bob", "cy"], seed=42), {"ada": "M7", "bob": "M7", "cy": "M7"})
    assert G.dump(one.state) == G.dump(two.state)
    assert [e.text for e in one.events] == [e.text for e in two.events]


def test_fb6_turn1_four_players_take_the_nearest_sixths():
    players = ["ada", "bob", "cy", "dan"]
    result = play(new(players), dict.fromkeys(players, "K10"))
    placed = sorted(c for cs in claims_of(result.state).values() for c in cs)
    # K10 turned 0, 60, 180, 240 degrees clockwise: K10, J11, I10, J9
    assert placed == ["I10", "J11", "J9", "K10"]


def test_fb6_turn1_rotation_onto_another_claim_bounces_those_players():
    # ada and bob clash on K10; cy claimed I10, K10's 180-degree turn.
    result = play(new(["ada", "bob", "cy"], seed=3), {"ada": "K10", "bob": "K10", "cy": "I10"})
    claims = claims_of(result.state)
    total = sum(len(c) for c in claims.values())
    assert total == 1 and claims["cy"] == []
    assert any("none places" in e.text for e in result.events)


def test_fb6_turn1_centre_clash_two_players_reopens():
    result = play(new(), {"ada": "J10", "bob": "J10"})
    assert result.state.reopened and G.turn(result.state) == 1
    assert claims_of(result.state) == {"ada": [], "bob": []}


def test_fb6_turn1_centre_clash_three_players_bounce():
    result = play(new(["ada", "bob", "cy"]), {"ada": "J10", "bob": "J10", "cy": "A10"})
    assert claims_of(result.state) == {"ada": [], "bob": [], "cy": ["A10"]}


def test_fb6_two_player_clash_reopens_turn():
    state = play(new(reopen="24h"), {"ada": "A10", "bob": "S10"}).state
    state = G.submit(state, "ada", G.parse_order(state, "ada", "CLAIM J10"), T0).state
    state = G.submit(state, "bob", G.parse_order(state, "bob", "CLAIM J10"), T0).state
    now = T0 + 3600
    result = G.close_turn(state, now)
    new_state = result.state
    assert new_state.reopened and G.turn(new_state) == 2
    assert G.timer(new_state) == now + DAY
    assert claims_of(new_state) == {"ada": ["A10"], "bob": ["S10"]}
    assert G.to_move(new_state) == ["ada", "bob"]
    assert not G.ready(new_state, now + 60)
    texts = [e.text for e in result.events if e.to is None]
    assert any("both claimed J10" in t for t in texts)
    assert any("re-opened" in t and "24h" in t for t in texts)
    # new claims from both: both place as ordered
    after = play(new_state, {"ada": "J10", "bob": "K10"}, now + 60)
    assert claims_of(after.state) == {"ada": ["A10", "J10"], "bob": ["S10", "K10"]}
    assert not after.state.reopened and G.timer(after.state) is None and G.turn(after.state) == 3


def test_fb6_second_clash_places_nothing():
    state = play(new(), {"ada": "A10", "bob": "S10"}).state
    state = play(state, {"ada": "J10", "bob": "J10"}).state
    result = play(state, {"ada": "K10", "bob": "K10"})
    assert claims_of(result.state) == {"ada": ["A10"], "bob": ["S10"]}
    assert G.turn(result.state) == 3 and not result.state.reopened
    assert any("places nothing" in e.text for e in result.events)


def test_fb6_missing_order_in_reopened_turn_places_nothing():
    state = play(new(reopen="90m"), {"ada": "A10", "bob": "S10"}).state
    state = play(state, {"ada": "J10", "bob": "J10"}, T0).state
    assert G.timer(state) == T0 + 90 * 60
    state = G.submit(state, "ada", G.parse_order(state, "ada", "CLAIM K10"), T0 + 5).state
    assert not G.ready(state, T0 + 90 * 60 - 1)
    assert G.ready(state, T0 + 90 * 60)  # the rules timer ran out
    result = G.close_turn(state, T0 + 90 * 60)
    assert claims_of(result.state) == {"ada": ["A10"], "bob": ["S10"]}
    assert G.turn(result.state) == 3


def test_fb6_three_player_later_clash_bounces_only_the_clashing():
    state = play(new(["ada", "bob", "cy"]), {"ada": "A10", "bob": "S10", "cy": "J1"}).state
    result = play(state, {"ada": "J10", "bob": "J10", "cy": "J19"})
    assert claims_of(result.state) == {"ada": ["A10"], "bob": ["S10"], "cy": ["J1", "J19"]}
    assert not result.state.reopened
    assert "ada and bob both claimed J10: none places (FB6)." in [e.text for e in result.events]


@pytest.mark.parametrize("text,seconds", [("24h", DAY), ("90m", 5400), ("2d", 2 * DAY),
                                          ("1h30m", 5400), (" 45 s ", 45)])
def test_fb6_reopen_option_durations(text, seconds):
    assert G.check_options({"reopen": text})["reopen"] == seconds


@pytest.mark.parametrize("text", ["24", "soon", "0h", "h", "-3h", "24x"])
def test_fb6_reopen_option_refuses_bad_durations(text):
    with pytest.raises(OptionError):
        G.check_options({"reopen": text})


# --- FB7: the end ---------------------------------------------------------------

def test_fb7_game_ends_after_the_turn_leaving_no_empty_cell():
    # side 2 (7 cells), radius 1: the centre's claimer leads all six others
    result = play(new(side=2, radius=1), {"ada": "B2"})
    state = result.state
    assert G.is_over(state)
    assert G.scores(state) == {"ada": 16, "bob": 0}
    assert G.winners(state) == ["ada"]
    assert G.turn(state) == 1 and not G.ready(state, T0)
    assert "ada wins with 16 points." in [e.text for e in result.events]


def test_fb7_max_turns_ends_the_game_earlier():
    state = new(max_turns=2)
    state = play(state, {"ada": "A10", "bob": "S10"}).state
    assert not G.is_over(state)
    state = play(state, {"ada": "A19", "bob": "S1"}).state
    assert G.is_over(state) and G.turn(state) == 2


# --- FB8: empty turns in a row end the game -----------------------------------------

def clash_twice(state, cell="J10", now=T0):
    """A later turn of a two-player game on which both claim ``cell``, are re-opened (FB6) and
    claim it again: the turn places nothing.  Returns the Result of the second close."""
    reopened = play(state, {"ada": cell, "bob": cell}, now)
    assert reopened.state.reopened
    return play(reopened.state, {"ada": cell, "bob": cell}, now)


def test_fb8_two_players_clashing_turn_after_turn_end_after_3_empty_turns():
    state = play(new(), {"ada": "A10", "bob": "S10"}).state  # turn 1 places
    scores = G.scores(state)
    for turn in (2, 3):
        state = clash_twice(state).state
        assert not G.is_over(state) and G.turn(state) == turn + 1
        assert state.empty_run() == turn - 1
    result = clash_twice(state)
    state = result.state
    assert G.is_over(state) and G.turn(state) == 4 and G.to_move(state) == []
    assert G.scores(state) == scores  # scored as it stands
    texts = [e.text for e in result.events if e.kind == "end"]
    assert texts[0] == ("No claim was placed on the last 3 turns: 3 empty turns in a row end "
                        "the game, scored as it stands (FB8).")
    # A10 and S10 mirror each other: a shared win (G2), as at FB7's end
    assert texts[1] == f"Shared win (G2): ada and bob with {scores['ada']} points each."
    assert G.winners(state) == ["ada", "bob"]
    with pytest.raises(Exception, match="over"):
        G.close_turn(state, T0)


def test_fb8_a_placement_resets_the_run():
    state = play(new(), {"ada": "A10", "bob": "S10"}).state
    state = clash_twice(clash_twice(state).state).state
    assert state.empty_run() == 2
    state = play(state, {"ada": "A19", "bob": "S1"}).state  # turn 4 places: the run is over
    assert state.empty_run() == 0 and not G.is_over(state)
    state = clash_twice(clash_twice(state).state).state
    assert state.empty_run() == 2 and not G.is_over(state) and G.turn(state) == 7
    # one placing claim is enough: bob sends nothing, ada places
    state = play(state, {"ada": "A11"}).state
    assert state.empty_run() == 0 and not G.is_over(state)
    assert G.is_over(clash_twice(clash_twice(clash_twice(state).state).state).state)


def test_fb8_empty_turns_1_ends_at_the_first_empty_turn():
    state = new(empty_turns=1)
    result = G.close_turn(state, T0)  # nobody sent a claim (the GM closed the turn)
    assert G.is_over(result.state) and G.turn(result.state) == 1
    assert "No claim was placed on this turn: 1 empty turn in a row end" in result.events[-2].text


def test_fb8_empty_turns_none_never_ends_the_game():
    for off in ("none", "off"):
        state = play(new(empty_turns=off), {"ada": "A10", "bob": "S10"}).state
        assert state.empty_turns is None and "empty_turns" not in G.dump(state)["options"]
        for _ in range(10):
            state = clash_twice(state).state
            state = G.close_turn(state, T0).state  # and turns nobody sends a claim for
        assert not G.is_over(state) and G.turn(state) == 22 and state.empty_run() == 20
        assert "empty_turns" not in G.view(state, "ada") or G.view(state, "ada")["empty_turns"] is None


@pytest.mark.parametrize("value,expected", [("3", 3), ("1", 1), ("12", 12), (" 5 ", 5),
                                            ("none", None), ("None", None), ("off", None),
                                            ("no", None)])
def test_fb8_empty_turns_option(value, expected):
    assert G.check_options({"empty_turns": value})["empty_turns"] == expected


def test_fb8_empty_turns_is_among_the_options_gm_new_names():
    assert G.options["empty_turns"].default == "3" and "FB8" in G.options["empty_turns"].help
    with pytest.raises(OptionError, match="this game knows: empty_turns, max_turns, radius, "
                                          "reopen, side"):
        G.check_options({"colour": "red"})  # what gm new answers a mistyped option


@pytest.mark.parametrize("value", ["0", "-1", "three", "2.5", "3 turns"])
def test_fb8_empty_turns_option_refuses_bad_values(value):
    with pytest.raises(OptionError, match="^option empty_turns: "):  # not "unknown option"
        G.check_options({"empty_turns": value})


def test_fb8_a_reopened_turn_that_places_nothing_counts_once():
    state = play(new(empty_turns=2), {"ada": "A10", "bob": "S10"}).state
    reopened = play(state, {"ada": "J10", "bob": "J10"}).state
    assert reopened.reopened and reopened.empty_run() == 0  # a re-open is not a close
    state = play(reopened, {"ada": "J10", "bob": "J10"}).state  # the second clash: empty
    assert state.empty_run() == 1 and not G.is_over(state)
    reopened = play(state, {"ada": "K10", "bob": "K10"}).state
    assert reopened.empty_run() == 1 and not G.is_over(reopened)
    # the re-opened turn places after all: not an empty turn
    state = play(reopened, {"ada": "K10", "bob": "J10"}).state
    assert state.empty_run() == 0 and not G.is_over(state)
    assert claims_of(state) == {"ada": ["A10", "K10"], "bob": ["S10", "J10"]}
    # a re-opened turn closed by its timer with a claim missing: empty, and the second ends it
    state = clash_twice(state, "C16").state
    reopened = play(state, {"ada": "D16", "bob": "D16"}).state
    ada_only = G.submit(reopened, "ada", "CLAIM E16", T0).state
    assert G.ready(ada_only, reopened.reopen_until)
    result = G.close_turn(ada_only, reopened.reopen_until)
    assert G.is_over(result.state) and G.turn(result.state) == 5
    assert any("(FB8)" in e.text for e in result.events)


def test_fb8_three_players_all_clashing_is_an_empty_turn_two_of_three_is_not():
    state = play(new(["ada", "bob", "cy"]), {"ada": "A10", "bob": "S10", "cy": "J1"}).state
    state = play(state, {"ada": "J10", "bob": "J10", "cy": "J19"}).state  # cy places
    assert state.empty_run() == 0
    for turn in (3, 4):
        state = play(state, {"ada": "J10", "bob": "J10", "cy": "J10"}).state  # no re-open
        assert not state.reopened and state.empty_run() == turn - 2 and not G.is_over(state)
    # two clash and the third sends nothing: nobody places either
    result = play(state, {"ada": "K10", "bob": "K10"})
    assert G.is_over(result.state) and G.turn(result.state) == 5
    assert claims_of(result.state) == {"ada": ["A10"], "bob": ["S10"], "cy": ["J1", "J19"]}
    assert any("(FB8)" in e.text for e in result.events)
    assert G.winners(result.state) == ["cy"]


def test_fb8_turns_nobody_sends_a_claim_for_end_the_game():
    state = play(new(["ada", "bob", "cy"]), {"ada": "A10", "bob": "S10", "cy": "J1"}).state
    for _ in range(2):
        state = G.close_turn(state, T0).state  # the GM closes, or the deadline passes
        assert not G.is_over(state)
    result = G.close_turn(state, T0)
    assert G.is_over(result.state) and G.turn(result.state) == 4
    assert "cy sent no claim and places nothing." in [e.text for e in result.events]
    assert [e.kind for e in result.events][-2:] == ["end", "end"]


def test_fb8_nobody_with_a_legal_cell_still_closes_the_turn():
    # A hand-edited state (the GM's): side 2, cy on the centre leads the six other cells and
    # has left the game (G5), so neither ada nor bob has a legal cell (FB5).  Nobody is waited
    # for, so the rules are ready at once (the service's should_close asks rules.ready, and the
    # daemon's tick or gm process closes it); the close places nothing and ends the game: with
    # no empty cell left FB7 ends it before FB8 would need a run.
    data = G.dump(new(["ada", "bob", "cy"], side=2, radius=1, empty_turns=3))
    data["claims"]["cy"] = [{"turn": 1, "cell": "B2"}]
    data["turn"], data["left"] = 2, ["cy"]
    state = G.load(data)
    assert G.to_move(state) == [] and G.ready(state, T0)
    result = G.close_turn(state, T0)
    assert G.is_over(result.state) and result.state.empty_run() == 1
    assert "No empty cell is left: the game is over (FB7)." in [e.text for e in result.events]


def test_g2_tie_is_a_shared_win():
    # side 2: A2 and C2 are opposite; B2 between them is a tie, so empty
    result = play(new(side=2, radius=1, max_turns=1), {"ada": "C2", "bob": "A2"})
    state = result.state
    assert G.scores(state) == {"ada": 12, "bob": 12}
    assert G.winners(state) == ["ada", "bob"]
    assert any(e.text.startswith("Shared win (G2)") for e in result.events)


# --- side 5, radius 2 ---------------------------------------------------------------

def test_board_of_side_5_and_radius_2():
    state = new(["ada", "bob", "cy"], side=5, radius=2)
    assert len(G.legal_orders(state, "ada")) == 61
    state = play(state, {"ada": "E1", "bob": "E5", "cy": "I5"}).state
    # E1 is a corner: 10 + 3*2 + 5*1 before the others compete
    scores, empty = recount(G.dump(state))
    assert G.scores(state) == scores
    assert G.view(state, "ada")["empty_cells"] == empty
    text = G.render_board(state)
    assert max(len(line) for line in text.split("\n")) <= 72
    assert "[@]" in text and "[*]" in text and "[+]" in text


# --- JSON --------------------------------------------------------------------------

def test_json_round_trip_at_every_kind_of_moment():
    state = new(["ada", "bob"], seed=9, max_turns=30)
    moments = [state]
    state = play(state, {"ada": "A10", "bob": "S10"}).state
    moments.append(state)
    state = G.submit(state, "ada", G.parse_order(state, "ada", "CLAIM J10"), T0).state
    moments.append(state)
    state = G.submit(state, "bob", G.parse_order(state, "bob", "CLAIM J10"), T0).state
    state = G.close_turn(state, T0 + 0.5).state
    moments.append(state)  # re-opened, with a fractional deadline
    moments.append(play(new(side=2, radius=1), {"ada": "B2"}).state)  # over
    for moment in moments:
        data = json.loads(json.dumps(G.dump(moment)))
        loaded = G.load(data)
        assert loaded == moment
        assert G.dump(loaded) == G.dump(moment)
        assert G.scores(loaded) == G.scores(moment)
        assert G.render_board(loaded) == G.render_board(moment)


def _broken(mutate):
    state = play(new(["ada", "bob", "cy"]), {"ada": "A10", "bob": "S10", "cy": "J1"}).state
    state = G.submit(state, "ada", G.parse_order(state, "ada", "CLAIM A11"), T0).state
    data = copy.deepcopy(G.dump(state))
    mutate(data)
    return data


@pytest.mark.parametrize("mutate", [
    lambda d: d.update(version=99),
    lambda d: d.pop("turn"),
    lambda d: d.update(extra=1),
    lambda d: d["claims"]["bob"].append({"turn": 1, "cell": "A10"}),  # claimed twice
    lambda d: d["claims"]["bob"].append({"turn": 1, "cell": "J10"}),  # two on turn 1
    lambda d: d["claims"]["bob"].append({"turn": 5, "cell": "J10"}),  # a future turn
    lambda d: d["claims"]["bob"][0].update(cell="T1"),
    lambda d: d["claims"].pop("cy"),
    lambda d: d["sealed"].update(bob="B10"),  # led by ada: not legal for bob
    lambda d: d["sealed"].update(zed="J10"),
    lambda d: d.update(reopened=True, reopen_until=T0),  # three players never re-open
    lambda d: d.update(reopen_until=T0),
    lambda d: d["options"].update(side=14),
    lambda d: d["options"].update(radius=0),
    lambda d: d["options"].update(reopen="24h"),
    lambda d: d.update(over="no"),
    lambda d: d.update(players=["ada", "ada", "cy"]),
    lambda d: d["last"].update(outcome="maybe"),
    lambda d: d.update(seed="x"),
    lambda d: d["options"].update(empty_turns=0),  # FB8: a whole number from 1
    lambda d: d["options"].update(empty_turns="3"),
    lambda d: d["options"].update(empty_turns=True),
    lambda d: d.update(turn=5),  # turns 2-4 closed empty: 3 of 3, the game is over (FB8)
])
def test_load_refuses_malformed_states(mutate):
    with pytest.raises(StateError):
        G.load(_broken(mutate))


def test_fb8_states_without_empty_turns_load_as_off_and_dump_as_they_were():
    state = new(["ada", "bob", "cy"], seed=3)
    assert state.empty_turns == 3 and G.dump(state)["options"]["empty_turns"] == 3
    state = play(state, {"ada": "A10", "bob": "S10", "cy": "J1"}).state
    old = G.dump(state)
    del old["options"]["empty_turns"]  # as every state stored before FB8 was built
    loaded = G.load(json.loads(json.dumps(old)))
    assert loaded.empty_turns is None and G.dump(loaded) == old
    for _ in range(5):  # empty turns never end a game that began without FB8
        loaded = G.close_turn(loaded, T0).state
    assert not G.is_over(loaded) and G.dump(loaded)["options"] == old["options"]
    old["options"]["empty_turns"] = None  # written out by hand: the same
    assert G.load(old).empty_turns is None
    edited = G.dump(state)
    edited["turn"] = 3
    assert G.load(edited).empty_run() == 1  # the run follows the claims, whatever the GM edits


def test_load_accepts_the_unbroken_state():
    assert G.load(_broken(lambda d: None)).sealed == {"ada": "A11"}
    assert G.load(_broken(lambda d: d.update(turn=4))).empty_run() == 2  # FB8: 2 of 3 is open


# --- options ---------------------------------------------------------------------

def test_options_defaults_and_errors():
    assert G.check_options({}) == {"side": 10, "radius": 4, "max_turns": None, "reopen": DAY,
                                   "empty_turns": 3}
    assert G.check_options({"max_turns": "none"})["max_turns"] is None
    assert G.check_options({"max_turns": "40"})["max_turns"] == 40
    typed = G.check_options({"side": "5", "radius": "2", "reopen": "90m"})
    assert G.check_options(typed) == typed  # already typed options pass through unchanged
    for bad in [{"colour": "red"}, {"side": "14"}, {"side": "1"}, {"radius": "0"},
                {"max_turns": "0"}, {"side": "ten"}]:
        with pytest.raises(OptionError):
            G.check_options(bad)
    with pytest.raises(OptionError):
        new(["ada"])
    with pytest.raises(OptionError):
        new([f"p{i}" for i in range(13)])
    assert G.players(new([f"p{i}" for i in range(12)])) == [f"p{i}" for i in range(12)]


# --- presentation ------------------------------------------------------------------

def test_render_board_side_10_draws_who_and_worth_within_72_columns():
    state = play(new(["ada", "alan"]), {"ada": "I9", "alan": "J13"}).state
    state = play(state, {"ada": "K10", "alan": "O6"}).state
    text = G.render_board(state)
    lines = text.split("\n")
    assert max(len(line) for line in lines) <= 72
    assert "Players' marks: @ ada   * alan" in text
    # two maps, each with rows 1..19 labelled at both ends
    assert sum(1 for line in lines if line.startswith("19 ") and line.endswith(" 19")) == 2

    def cells_of(block):
        # rows 1..19 of a map: the row label at both ends and, on rows 2..10,
        # the letter of the diagonal whose first cell starts the row; the rest
        # are the cells
        text = ""
        for row, line in enumerate(block[1:20], start=1):
            tokens = line.split()
            assert tokens[0] == tokens[-1] == str(row)
            inner = tokens[2:-1] if 2 <= row <= 10 else tokens[1:-1]
            assert len(inner) == 19 - abs(10 - row)
            text += "".join(inner)
        return text

    def block_after(heading):
        start = next(i for i, line in enumerate(lines) if line.startswith(heading))
        first_row = next(i for i in range(start, len(lines)) if lines[i].startswith(" 1 "))
        return lines[first_row - 1:]

    who, worth = cells_of(block_after("Who")), cells_of(block_after("Worth"))
    cells = state.board().cells.values()
    assert worth.count("#") == 4
    assert who.count("@") == sum(1 for c in cells if c.holder() == "ada")
    assert who.count("*") == sum(1 for c in cells if c.holder() == "alan")
    assert worth.count("5") == sum(1 for c in cells if c.owned) > 0
    assert worth.count(".") == who.count(".") == sum(1 for c in cells if c.empty)


@pytest.mark.parametrize("side", [3, 5, 8, 10, 13])
def test_fb1_each_diagonal_letter_labels_the_cells_of_its_own_diagonal(side):
    from games.hexgrid import HexGrid

    grid = HexGrid(side)
    state = play(new(side=side, radius=2), {"ada": grid.name((0, 0)), "bob": None}).state
    text = G.render_board(state)
    first_map = text.split("\n")[1:2 * side + 1] if text.startswith("Who") else \
        text.split("\n")[:2 * side]
    header, rows = first_map[0], first_map[1:]
    width = 1 if text.startswith("Who") else 3
    # Drawn with the cells' own names, each letter stands where its cells are.
    named = grid.render(lambda c: grid.name(c)[0] * width, width).split("\n")
    assert named[0] == header
    for row in range(1, 2 * side):
        cells = grid.row_cells(row)
        tokens = rows[row - 1].split()
        if 2 <= row <= side:
            # The letter at the left edge of a row is its first cell's diagonal.
            assert tokens[1] == grid.name(cells[0])[0]
            assert named[row].split()[1] == named[row].split()[2][0]
        else:
            assert tokens[1][0] in "@.[", tokens  # a cell, not a letter
    # The header letters stand straight above row 1's cells of their diagonal.
    for cell in grid.row_cells(1):
        letter = grid.name(cell)[0]
        column = header.index(letter)
        assert named[1][column] == letter


def test_fb1_player_marks_are_never_read_as_coordinates():
    players = [f"p{i}" for i in range(12)]
    state = new(players, side=13, radius=2)
    claims = {p: None for p in players}
    claims.update(p0="M13", p1="A13", p2="Y13")
    state = play(state, claims).state
    marks = [p["symbol"] for p in G.view(state)["players"]]
    assert len(set(marks)) == 12
    assert not any(m.isalnum() or m in ".#[]" for m in marks)
    text = G.render_board(state)
    assert "Players' marks: @ p0   * p1   + p2" in text
    assert "Letters A-Y name the diagonals (above row 1 and left of rows 2-13)" in text
    who = text.split("Worth")[0].split("\n")[2:27]
    for row, line in enumerate(who, start=1):
        cells = line.split()[1:-1]
        if 2 <= row <= 13:
            cells = cells[1:]  # the diagonal's letter
        assert not any(c.isalpha() for c in cells), line
    # The small board: [@] claimed by @, @3 led by @ worth 3.
    small = play(new(side=4, radius=2), {"ada": "D4", "bob": None}).state
    text = G.render_board(small)
    assert "[@]" in text and "@2" in text and "@ ada" in text


def test_fb5_a_cell_that_does_not_exist_gets_a_short_error():
    state = new()
    with pytest.raises(IllegalOrderError) as info:
        G.parse_order(state, "ada", "CLAIM Z5")
    error = str(info.value)
    assert info.value.legal is None  # not the 271 legal claims
    assert error.startswith("There is no cell Z5 on this board: its diagonals run A-S "
                            "and its rows 1-19 (the centre is J10).")
    nearest = error.split("The nearest cells you may claim: ")[1].rstrip(".").split(", ")
    assert nearest == ["S5", "S6", "S7"] and len(error) < 200  # the same row first
    with pytest.raises(IllegalOrderError, match="no cell A1 on this board") as info:
        G.parse_order(state, "ada", "claim a1")
    assert info.value.legal is None and str(info.value).endswith("claim: J1, I2, H3.")
    # A cell that exists but is taken: the reason and a few cells, not the list.
    state = play(state, {"ada": "J10", "bob": "A19"}).state
    with pytest.raises(IllegalOrderError) as info:
        G.parse_order(state, "bob", "CLAIM K10")
    assert info.value.legal is None and str(info.value).count(", ") <= 3


def test_examples_name_cells_of_the_games_own_board():
    from gm_parts import ReportInput, render_report

    state = new(side=5)
    for text in ("hello", ""):
        with pytest.raises(OrderSyntaxError) as info:
            G.parse_order(state, "ada", text)
        assert "CLAIM E5" in str(info.value) and "J10" not in str(info.value)
    with pytest.raises(IllegalOrderError, match="E5"):
        G.parse_order(state, "ada", "CLAIM E55")
    report = render_report(ReportInput(game_id="t5", rules=G, state=state,
                                       viewer="ada", events=[]))
    assert "Send your claim for turn 1, e.g. CLAIM E5." in report
    assert "J10" not in report and "K10" not in report
    # Once E5 is taken the example is a cell the reader may claim.
    state = play(state, {"ada": "E5", "bob": "A5"}).state
    example = G.view(state, "bob")["example"]
    assert f"CLAIM {example}" in G.legal_orders(state, "bob")
    # HELP serves every side: its example is for side 10 and says so, and it
    # tells how the names run on other sides.
    text = " ".join(G.help_text().split())
    assert "e.g. on the standard board (side 10): CLAIM K10" in text
    assert "E5 on side 5" in text


def test_render_board_largest_board_fits():
    state = play(new(["ada", "bob"], side=13), {"ada": "M13", "bob": "A13"}).state
    assert max(len(line) for line in G.render_board(state).split("\n")) <= 72


def test_report_template_shows_the_facts_and_hides_sealed_claims():
    from gm_parts import ReportInput, render_report

    result = play(new(["ada", "bob", "cy"], side=6, radius=3), {"ada": "F6", "bob": "H3", "cy": "H3"})
    state = G.submit(result.state, "ada",
                     G.parse_order(result.state, "ada", "CLAIM A6"), T0).state

    def report(viewer):
        text = render_report(ReportInput(game_id="t1", rules=G, state=state,
                                         viewer=viewer, events=result.events))
        assert max(len(line) for line in text.split("\n")) <= 72
        return text

    ada, bob, gm = report("ada"), report("bob"), report(None)
    _, empty = recount(G.dump(state))
    for text in (ada, bob, gm):
        assert f"Empty cells left: {empty}" in text
        assert "Claims of turn 1:" in text
        assert "both claimed H3" in text
        assert "[@]" in text
    assert "Your claim on turn 1: F6 (placed)." in ada
    assert "Your sealed claim for turn 2: A6" in ada
    assert "A6" not in bob.replace("A6 ", "")  # no sealed claim shown (nor on the board)
    assert "Your sealed claim" not in bob
    assert "Sealed claims (GM only): ada A6" in gm


def test_report_of_a_reopened_turn_and_of_the_end():
    from gm_parts import ReportInput, render_report

    state = play(new(), {"ada": "A10", "bob": "S10"}).state
    result = play(state, {"ada": "J10", "bob": "J10"})
    text = render_report(ReportInput(game_id="t2", rules=G, state=result.state,
                                     viewer="bob", events=result.events))
    assert "re-opened" in text and "within 24h" in text
    result = play(new(side=2, radius=1, max_turns=1), {"ada": "C2", "bob": "A2"})
    text = render_report(ReportInput(game_id="t3", rules=G, state=result.state,
                                     viewer="ada", events=result.events))
    assert "Shared win" in text
    assert max(len(line) for line in text.split("\n")) <= 72


def test_fb8_report_counts_the_empty_turns_in_a_row():
    from gm_parts import ReportInput, render_report

    def report(state, events=()):
        return render_report(ReportInput(game_id="t4", rules=G, state=state, viewer="ada",
                                         events=list(events)))

    state = play(new(), {"ada": "A10", "bob": "S10"}).state
    assert "Empty turns in a row" not in report(state)  # none yet: no line
    state = clash_twice(state).state
    assert "Empty turns in a row: 1 of 3 (FB8: at 3 the game ends)." in report(state)
    state = clash_twice(state).state
    assert "Empty turns in a row: 2 of 3 (FB8: at 3 the game ends)." in report(state)
    assert G.view(state, None)["empty_run"] == 2 and G.view(state, None)["empty_turns"] == 3
    result = clash_twice(state)
    text = report(result.state, result.events)
    assert "Empty turns in a row: 3 of 3" in text
    assert "3 empty turns in a row end the game, scored as it stands (FB8)." in " ".join(text.split())
    assert "Shared win (G2)" in text
    assert max(len(line) for line in text.split("\n")) <= 72
    off = clash_twice(play(new(empty_turns="none"), {"ada": "A10", "bob": "S10"}).state).state
    assert off.empty_run() == 1 and "Empty turns in a row" not in report(off)


def test_help_text_shows_notation_and_every_ruling():
    text = G.help_text()
    assert "CLAIM K10" in text
    for label in ["G1.", "G2.", "G3."] + [f"FB{i}." for i in range(1, 9)]:
        assert label in text
    words = " ".join(text.split())
    assert "empty_turns (how many empty turns in a row end the game, FB8: default 3" in words
    assert '"Empty turns in a row: 2 of 3"' in words
    assert max(len(line) for line in text.split("\n")) <= 72
    check_help_quotes_rulings(text, "FB")  # G1-G5 and FB1-FB8 word for word


# --- seeded random play ---------------------------------------------------------

def _check_invariants(state, live_before=None):
    data = G.dump(state)
    assert G.load(json.loads(json.dumps(data))) == state
    for viewer in [None, *G.players(state)]:
        json.dumps(G.view(state, viewer))
        if viewer is not None:
            assert G.view(state, viewer)["sealed"] == {}
    scores, empty = recount(data)
    assert G.scores(state) == scores
    assert G.view(state, None)["empty_cells"] == empty
    cells = [c["cell"] for cs in data["claims"].values() for c in cs]
    assert len(cells) == len(set(cells))
    for player, placed in data["claims"].items():
        turns = [c["turn"] for c in placed]
        assert turns == sorted(set(turns)) and all(t <= G.turn(state) for t in turns)
    if G.is_over(state):
        assert (empty == 0 or G.turn(state) == data["options"]["max_turns"]
                or state.empty_run() == data["options"].get("empty_turns"))  # FB7 or FB8
        best = max(scores.values())
        assert G.winners(state) == [p for p in G.players(state) if scores[p] == best]
        assert G.to_move(state) == []
    else:
        assert empty > 0
        assert set(G.to_move(state)) == set(G.players(state))  # empty cells are open to all


def test_random_play_many_games_to_the_end():
    rng = random.Random(20261121)
    finished = reopened = clashes = empty_ends = 0
    for game in range(200):
        side = rng.choice([2, 3, 4, 5, 6, 7, 10])
        radius = rng.randint(1, min(4, 2 * (side - 1)))
        players = [f"p{i}" for i in range(rng.randint(2, 12 if side >= 5 else 3))]
        options = {"side": side, "radius": radius}
        if rng.random() < 0.2:
            options["max_turns"] = rng.randint(1, 6)
        state = new(players, seed=game, **options)
        now = T0
        _check_invariants(state)
        while not G.is_over(state):
            now += 3600
            for player in G.to_move(state):
                # a player who sends nothing; more often when cornered, or players
                # whose only legal cell is the same one would clash forever
                cornered = len(G.legal_orders(state, player)) <= 2
                if rng.random() < (1 - 1 / len(players) if cornered else 0.08):
                    continue
                for _ in range(rng.choice([1, 1, 2])):  # sometimes replace the claim
                    if rng.random() < 0.3 and len(players) <= 3:
                        # herd onto one cell to provoke clashes
                        legal = sorted(G.legal_orders(state, player))
                        text = legal[0]
                    else:
                        text = G.random_order(state, player, rng)
                    order = G.parse_order(state, player, text.lower())
                    before = G.dump(state)
                    result = G.submit(state, player, order, now)
                    assert G.dump(state) == before
                    assert all(e.to == (player,) for e in result.events)
                    state = result.state
            if not G.ready(state, now):
                timer = G.timer(state)
                if timer is not None:
                    now = timer
                    assert G.ready(state, now)
            turn = G.turn(state)
            before = G.dump(state)
            result = G.close_turn(state, now)
            assert G.dump(state) == before
            assert all(e.to is None for e in result.events)
            clashes += any(e.kind == "clash" for e in result.events)
            empty_ends += any(e.kind == "end" and "(FB8)" in e.text for e in result.events)
            if result.state.reopened:
                reopened += 1
                assert G.turn(result.state) == turn and G.timer(result.state) > now
            state = result.state
            _check_invariants(state)
            assert G.turn(state) <= 400
        finished += 1
    assert finished == 200
    assert reopened > 0 and clashes > 0  # the clash paths were exercised
    assert empty_ends > 0  # and FB8's end


def _random_game(seed, record=None, replay=None):
    """Play one game; record its orders, or replay recorded ones.  Returns dumps and events."""
    rng = random.Random(seed)
    state = new(["ada", "bob", "cy"], seed=seed, side=5, radius=2)
    history, now, step = [], T0, 0
    while not G.is_over(state):
        for player in G.to_move(state):
            if replay:
                text = replay[step]
            else:
                text = G.random_order(state, player, rng)
                if rng.random() < 0.3:
                    text = sorted(G.legal_orders(state, player))[0]  # provoke clashes
                record.append(text)
            step += 1
            result = G.submit(state, player, text, now)
            state = result.state
            history.append([e.text for e in result.events])
        result = G.close_turn(state, now)
        state = result.state
        history.append((G.dump(state), [e.text for e in result.events]))
    return history


def test_g1_a_game_replays_exactly_from_seed_and_orders():
    orders = []
    first = _random_game(77, record=orders)
    closes = [entry for entry in first if isinstance(entry, tuple)]
    assert closes[-1][0]["over"] and any("FB6" in t for _, texts in closes for t in texts)
    assert _random_game(77, replay=orders) == first
    assert _random_game(78, replay=orders[:0], record=[]) != first


def test_close_turn_after_the_end_is_refused():
    state = play(new(side=2, radius=1), {"ada": "B2"}).state
    with pytest.raises(Exception, match="over"):
        G.close_turn(state, T0)
