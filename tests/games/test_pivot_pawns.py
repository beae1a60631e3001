"""Pivot Pawns: deck (PP1), set-up (PP2), rounds and bids (PP3-PP6), G1-G3,
the optimal solver against a plain breadth-first search, notation, JSON,
report, and seeded random play through the public interface.

The reference search below works on card numbers and the icons the cards
show (a pivot goes to the third card showing the icon the two cards share),
not on the GF(2)^4 vectors the solver uses, so it checks the solver
independently of its encoding.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections import deque

import pytest

from games.base import (
    Event,
    GameError,
    IllegalOrderError,
    NotYourTurnError,
    OptionError,
    OrderSyntaxError,
    StateError,
)
from games.pivot_pawns import GAME, deck, solver
from games.pivot_pawns.state import coordinate
from games.registry import get
from rulings_md import check_help_quotes_rulings

COLOURS = deck.COLOURS
RED, GREEN, BLUE, YELLOW, BLACK = range(5)


# --- an independent model of the rules ------------------------------------------


def third_card(a: int, b: int) -> int:
    """The card showing the icon cards a and b share, other than a and b."""
    shared = set(deck.CARD_ICONS[a]) & set(deck.CARD_ICONS[b])
    assert len(shared) == 1
    (icon,) = shared
    (card,) = set(deck.ICON_CARDS[icon]) - {a, b}
    return card


def centre_colour(card: int) -> int:
    return deck.ICON_COLOUR[deck.CENTRE[card]]


def legal_moves(cards, target):
    for m in range(5):
        for q in range(5):
            if m == q:
                continue
            dest = third_card(cards[m], cards[q])
            if dest in cards:
                continue
            if centre_colour(dest) == m and dest != target:
                continue
            yield m, q, dest


def plain_bfs(cards, active, target):
    """Fewest pivots, or None: a textbook BFS over placement tuples."""
    start = tuple(cards)
    if start[active] == target:
        return 0
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        cards, dist = queue.popleft()
        for m, q, dest in legal_moves(cards, target):
            nxt = cards[:m] + (dest,) + cards[m + 1 :]
            if m == active and dest == target:
                return dist + 1
            if nxt not in seen:
                seen.add(nxt)
                queue.append((nxt, dist + 1))
    return None


def simulate(cards, pivots, active, target):
    """Play pivots; return the placement when the active pawn lands, else None."""
    cards = list(cards)
    if cards[active] == target:
        return cards
    for m, q in pivots:
        if m == q:
            return None
        dest = third_card(cards[m], cards[q])
        if dest in cards or (centre_colour(dest) == m and dest != target):
            return None
        cards[m] = dest
        if m == active and dest == target:
            return cards
    return None


def pivots_text(pivots) -> str:
    return " ".join(f"{COLOURS[m]}/{COLOURS[q]}" for m, q in pivots)


def shortest_pivots(cards, active, target):
    """One shortest solution from the plain model (for building scenarios)."""
    start = tuple(cards)
    parent = {start: None}
    queue = deque([start])
    while queue:
        cur = queue.popleft()
        for m, q, dest in legal_moves(cur, target):
            nxt = cur[:m] + (dest,) + cur[m + 1 :]
            if nxt in parent:
                continue
            parent[nxt] = (cur, m, q)
            if m == active and dest == target:
                path = []
                while parent[nxt] is not None:
                    nxt, m2, q2 = parent[nxt]
                    path.append((m2, q2))
                return path[::-1]
            queue.append(nxt)
    return None


# --- building positions -------------------------------------------------------------


def position(players=("ada", "bob"), pawns=None, token=None, timer="24h", seed=7):
    """A round-1 state with chosen pawn cards and target token (via dump/load)."""
    state = GAME.setup(list(players), {"timer": timer}, seed)
    data = GAME.dump(state)
    coord = {card: coordinate(pos) for pos, card in enumerate(state.tableau)}
    if pawns is not None:
        data["pawns"] = {COLOURS[c]: coord[card] for c, card in enumerate(pawns)}
    if token is not None:
        data["token"] = deck.ICON_NAMES[token]
        data["bag"] = [deck.ICON_NAMES[t] for t in deck.TOKENS if t != token]
    return GAME.load(data)


def goal(state):
    return deck.ICON_COLOUR[state.token], deck.target_card(state.token)


def find_round(rng, want):
    """A random (pawns, token) whose plain-BFS par satisfies ``want``."""
    while True:
        token = rng.choice(deck.TOKENS)
        cards = tuple(rng.sample(range(15), 5))
        par = plain_bfs(cards, deck.ICON_COLOUR[token], deck.target_card(token))
        if want(par, cards, token):
            return cards, token


def bid(state, player, text, now):
    return GAME.submit(state, player, GAME.parse_order(state, player, text), now)


# --- PP1: the deck ---------------------------------------------------------------------


def test_pp1_deck_incidence_properties():
    assert len(deck.ICON_CARDS) == 35 and len(set(deck.ICON_CARDS)) == 35
    for card in range(15):
        assert len(deck.CARD_ICONS[card]) == 7
    for icon in range(35):
        assert len(deck.ICON_CARDS[icon]) == 3
    for a, b in itertools.combinations(range(15), 2):
        assert len(set(deck.CARD_ICONS[a]) & set(deck.CARD_ICONS[b])) == 1


def test_pp1_deck_colours_and_centres():
    for colour in range(5):
        assert sum(1 for icon in range(35) if deck.ICON_COLOUR[icon] == colour) == 7
        assert sum(1 for card in range(15) if centre_colour(card) == colour) == 3
    for card in range(15):
        assert deck.CENTRE[card] in deck.CARD_ICONS[card]
        assert len(deck.other_icons(card)) == 6
    assert len(set(deck.CENTRE)) == 15


def test_pp1_icon_names_and_starting_cards():
    assert len(set(n.lower() for n in deck.ICON_NAMES)) == 35
    assert all(1 <= len(n) <= 11 for n in deck.ICON_NAMES)
    names = {deck.ICON_NAMES[deck.CENTRE[c]] for c in deck.STARTING_CARDS}
    assert names == {"music notes", "flask", "Mars symbol", "leaf", "sun"}
    assert {centre_colour(c) for c in deck.STARTING_CARDS} == set(range(5))


def test_pp1_lines_are_xor_lines_of_alpha_powers():
    # alpha^i recomputed here by polynomial multiplication modulo x^4 + x + 1
    def times_alpha(v):
        v <<= 1
        return v ^ 0b10011 if v & 16 else v

    powers, v = [], 1
    for _ in range(15):
        powers.append(v)
        v = times_alpha(v)
    assert sorted(powers) == list(range(1, 16))
    assert tuple(powers) == deck.VECTOR
    for cards in deck.ICON_CARDS:
        a, b, c = sorted(cards)
        assert powers[a] ^ powers[b] ^ powers[c] == 0
    # the construction named in PP1
    for i in range(15):
        assert deck.ICON_CARDS[i] == {i, (i + 1) % 15, (i + 4) % 15}
        assert deck.ICON_CARDS[15 + i] == {i, (i + 2) % 15, (i + 8) % 15}
        assert deck.ICON_COLOUR[i] == deck.ICON_COLOUR[15 + i] == i % 5
        assert deck.CENTRE[i] == i
    for k in range(5):
        assert deck.ICON_CARDS[30 + k] == {k, k + 5, k + 10}
        assert deck.ICON_COLOUR[30 + k] == k
    assert set(deck.STARTING_CARDS) == {0, 1, 2, 9, 13}


def test_pp1_destination_is_third_card_of_shared_icon():
    for a, b in itertools.permutations(range(15), 2):
        assert deck.destination(a, b) == third_card(a, b)
        assert deck.shared_icon(a, b) in deck.CARD_ICONS[deck.destination(a, b)]


def test_pp1_starting_cards_span_gf2_4():
    # Gaussian elimination over GF(2) on the starting cards' vectors
    rows = [deck.VECTOR[c] for c in deck.STARTING_CARDS]
    rank = 0
    for bit in range(4):
        pivot = next((r for r in rows[rank:] if r >> bit & 1), None)
        if pivot is None:
            continue
        i = rows.index(pivot, rank)
        rows[rank], rows[i] = rows[i], rows[rank]
        rows = [r ^ pivot if j != rank and r >> bit & 1 else r for j, r in enumerate(rows)]
        rank += 1
    assert rank == 4
    # and so every target is reachable from the start in principle: the XOR
    # closure of the starting cards is all 15 cards
    closure = {deck.VECTOR[c] for c in deck.STARTING_CARDS}
    while True:
        more = {a ^ b for a in closure for b in closure if a != b} | closure
        if more == closure:
            break
        closure = more
    assert closure == set(range(1, 16))


# --- PP2: set-up ------------------------------------------------------------------------


def test_pp2_setup_places_pawns_on_starting_cards_of_other_colours():
    seen_layouts, seen_pawns = set(), set()
    for seed in range(40):
        state = GAME.setup(["ada"], {}, seed)
        assert sorted(state.tableau) == list(range(15))
        assert sorted(state.pawns) == sorted(deck.STARTING_CARDS)
        for colour, card in enumerate(state.pawns):
            assert centre_colour(card) != colour
        seen_layouts.add(state.tableau)
        seen_pawns.add(state.pawns)
    assert len(seen_layouts) > 30 and len(seen_pawns) > 10  # shuffled, not fixed


def test_g1_setup_and_play_replay_exactly_from_seed_and_orders():
    def play(seed):
        rng = random.Random(99)
        state = GAME.setup(["ada", "bob", "cy"], {"timer": "1h"}, seed)
        dumps = [GAME.dump(state)]
        now = 1000.0
        while not GAME.is_over(state):
            for player in GAME.players(state):
                text = GAME.random_order(state, player, rng)
                if text:
                    now += 60
                    state = GAME.submit(state, player, GAME.parse_order(state, player, text), now).state
            state = GAME.close_turn(state, now).state
            dumps.append(GAME.dump(state))
        return dumps

    first, again = play(5), play(5)
    assert first == again
    assert play(6)[0] != first[0]


# --- PP3: bids --------------------------------------------------------------------------


def test_pp3_bid_announced_publicly_solution_confirmed_privately():
    state = position()
    result = bid(state, "ada", "BID 3: red/blue green/red red/black", 100.0)
    public = [e for e in result.events if e.to is None]
    private = [e for e in result.events if e.to is not None]
    assert [e.text.split(". ")[0] for e in public] == ["ada bids 3"]
    assert "red/blue" not in public[0].text and "3" in public[0].text
    assert len(private) == 1 and private[0].to == ("ada",)
    assert "red/blue green/red red/black" in private[0].text
    # the input state is untouched; the new one holds the sealed bid
    assert state.bids == {} and "ada" in result.state.bids


def test_pp4_news_of_a_bid_says_when_bidding_closes():
    # First bid at 100 s: the 24 h timer runs out at 1970-01-02 00:01 UTC.
    state = position(players=("ada", "bob", "cy"))
    first = bid(state, "ada", "BID 3: red/blue green/red red/black", 100.0)
    (news,) = [e for e in first.events if e.to is None]
    assert news.text == (
        "ada bids 3. Bidding closes when every player has bid or passed, at "
        "1970-01-02 00:01 UTC (the timer, 24h after the first bid), or at the round "
        "deadline, whichever comes first (PP4).")
    assert news.data["closes_at"] == 100.0 + 24 * 3600
    # A later bid keeps the timer of the first bid.
    second = bid(first.state, "bob", "BID 2: yellow/black blue/red", 7300.0)
    (news,) = [e for e in second.events if e.to is None]
    assert news.text.startswith("bob bids 2. ") and "1970-01-02 00:01 UTC" in news.text
    # The last player in closes the bidding.
    last = bid(second.state, "cy", "BID 1: red/blue", 7400.0)
    (news,) = [e for e in last.events if e.to is None]
    assert news.text == "cy bids 1. Every player has bid or passed, so bidding closes now (PP4)."
    # Without a timer: every player or the round deadline.
    untimed = bid(position(timer="none"), "ada", "BID 3: red/blue green/red red/black", 100.0)
    (news,) = [e for e in untimed.events if e.to is None]
    assert "UTC" not in news.text
    assert "every player has bid or passed, or at the round deadline" in news.text


def test_pp6_par_of_one_pivot_is_singular():
    cards, token = find_round(random.Random(3), lambda par, *_: par == 1)
    closed = GAME.close_turn(position(pawns=cards, token=token), 10.0)
    (par,) = [e.text for e in closed.events if e.kind == "par"]
    assert par.startswith("Par: 1 pivot, e.g. ") and "pivots" not in par
    cards, token = find_round(random.Random(3), lambda par, *_: par == 2)
    closed = GAME.close_turn(position(pawns=cards, token=token), 10.0)
    assert [e.text for e in closed.events if e.kind == "par"][0].startswith("Par: 2 pivots, e.g. ")


def test_pp3_solutions_hidden_from_other_players_in_view_and_report():
    state = position()
    state = bid(state, "ada", "BID 2: red/blue green/red", 100.0).state
    bob_view = GAME.view(state, "bob")
    assert bob_view["bids"][0]["bid"] == 2 and bob_view["bids"][0]["solution"] is None
    assert "red/blue" not in json.dumps(bob_view)
    assert GAME.view(state, "ada")["bids"][0]["solution"] == "red/blue green/red"
    assert GAME.view(state, None)["bids"][0]["solution"] == "red/blue green/red"


def test_pp3_lowering_allowed_raising_refused():
    state = position()
    state = bid(state, "ada", "BID 3: red/blue green/red red/black", 100.0).state
    with pytest.raises(IllegalOrderError, match="never raised"):
        GAME.parse_order(state, "ada", "BID 4: red/blue green/red red/black blue/red")
    with pytest.raises(IllegalOrderError, match="never raised"):
        GAME.submit(state, "ada", "BID 4: red/blue green/red red/black blue/red", 150.0)
    lowered = bid(state, "ada", "BID 1: yellow/black", 200.0)
    assert [e.text.split(". ")[0] for e in lowered.events if e.to is None] == [
        "ada lowers the bid from 3 to 1"]
    assert lowered.state.bids["ada"].pivots == 1
    assert lowered.state.bids["ada"].time == 200.0
    with pytest.raises(IllegalOrderError, match="cannot withdraw"):
        GAME.parse_order(lowered.state, "ada", "PASS")


def test_pp3_latest_solution_with_current_bid_counts():
    rng = random.Random(3)
    cards, token = find_round(rng, lambda par, *_: par == 2)
    active, target = deck.ICON_COLOUR[token], deck.target_card(token)
    good = shortest_pivots(cards, active, target)
    state = position(pawns=cards, token=token)
    state = bid(state, "ada", f"BID 2: {pivots_text(good)}", 100.0).state
    # resend the same number with a bad solution: it replaces the good one
    bad = [(active, (active + 1) % 5), (active, (active + 1) % 5)]
    assert simulate(cards, bad, active, target) is None
    resent = bid(state, "ada", f"BID 2: {pivots_text(bad)}", 300.0)
    assert resent.state.bids["ada"].time == 100.0  # keeps its place (PP4 ties)
    closed = GAME.close_turn(resent.state, 400.0)
    assert GAME.scores(closed.state)["ada"] == 0
    # and the other way round: a good solution sent last wins
    state = bid(position(pawns=cards, token=token), "ada", f"BID 2: {pivots_text(bad)}", 100.0).state
    state = bid(state, "ada", f"BID 2: {pivots_text(good)}", 200.0).state
    assert GAME.scores(GAME.close_turn(state, 300.0).state)["ada"] == 1


# --- PP4: closing and resolving ---------------------------------------------------------


def test_pp4_ready_when_every_player_has_bid_or_passed():
    state = position(players=("ada", "bob", "cy"))
    assert not GAME.ready(state, 1e12)  # no bid: no timer either
    assert GAME.timer(state) is None
    state = bid(state, "ada", "BID 2: red/blue green/red", 100.0).state
    assert not GAME.ready(state, 101.0)
    state = bid(state, "bob", "PASS", 102.0).state
    assert not GAME.ready(state, 103.0)
    assert GAME.to_move(state) == ["ada", "bob", "cy"]  # anyone may still bid or lower
    state = bid(state, "cy", "BID 5: red/blue", 104.0).state
    assert GAME.ready(state, 105.0)


def test_pp4_timer_starts_with_first_bid():
    state = position(players=("ada", "bob", "cy"), timer="1h")
    state = bid(state, "bob", "PASS", 50.0).state
    assert GAME.timer(state) is None  # a pass is not a bid
    state = bid(state, "ada", "BID 2: red/blue green/red", 1000.0).state
    assert GAME.timer(state) == 1000.0 + 3600
    assert not GAME.ready(state, 4599.0)
    assert GAME.ready(state, 4600.0)
    # a later bid does not restart the timer
    state = bid(state, "ada", "BID 1: red/blue", 2000.0).state
    assert GAME.timer(state) == 4600.0
    default = bid(position(), "ada", "BID 1: red/blue", 10.0).state
    assert GAME.timer(default) == 10.0 + 24 * 3600


def test_pp4_timer_option_values():
    assert GAME.check_options({})["timer"] == 24 * 3600
    assert GAME.check_options({"timer": "90m"})["timer"] == 5400
    assert GAME.check_options({"timer": "1h30m"})["timer"] == 5400
    assert GAME.check_options({"timer": "none"})["timer"] is None
    for bad in ("soon", "-1h", "1x"):
        with pytest.raises(OptionError):
            GAME.check_options({"timer": bad})
    with pytest.raises(OptionError):
        GAME.check_options({"speed": "1"})


def two_valid_solutions(seed):
    rng = random.Random(seed)
    cards, token = find_round(rng, lambda par, *_: par is not None and par >= 1)
    active, target = deck.ICON_COLOUR[token], deck.target_card(token)
    return cards, token, shortest_pivots(cards, active, target)


def test_pp4_tie_broken_by_time_of_bid():
    cards, token, good = two_valid_solutions(11)
    n = len(good)
    state = position(pawns=cards, token=token)
    state = bid(state, "bob", f"BID {n + 1}: {pivots_text(good)}", 100.0).state
    state = bid(state, "ada", f"BID {n}: {pivots_text(good)}", 150.0).state
    state = bid(state, "bob", f"BID {n}: {pivots_text(good)}", 200.0).state  # lowered later
    closed = GAME.close_turn(state, 300.0)
    assert GAME.scores(closed.state) == {"ada": 1, "bob": 0}
    assert closed.state.history[-1].winner == "ada"
    # equal times: the bid received first goes first
    state = position(pawns=cards, token=token)
    state = bid(state, "bob", f"BID {n}: {pivots_text(good)}", 100.0).state
    state = bid(state, "ada", f"BID {n}: {pivots_text(good)}", 100.0).state
    assert GAME.close_turn(state, 300.0).state.history[-1].winner == "bob"


def test_pp4_invalid_lowest_bid_passes_token_to_next_bidder():
    cards, token, good = two_valid_solutions(12)
    active, target = deck.ICON_COLOUR[token], deck.target_card(token)
    n = len(good)
    state = position(players=("ada", "bob", "cy"), pawns=cards, token=token)
    # ada's lower bid is invalid (pivots on the wrong pawns), bob's is valid
    bad = [((active + 1) % 5, (active + 2) % 5)] * max(n - 1, 1)
    assert simulate(cards, bad, active, target) is None
    state = bid(state, "ada", f"BID {len(bad)}: {pivots_text(bad)}", 100.0).state
    state = bid(state, "bob", f"BID {n + 1}: {pivots_text(good)}", 200.0).state
    state = bid(state, "cy", f"BID {n + 2}: {pivots_text(good)}", 50.0).state
    closed = GAME.close_turn(state, 300.0)
    texts = [e.text for e in closed.events]
    assert any(t.startswith(f"ada's bid of {len(bad)} fails") for t in texts)
    assert f"bob wins the {deck.ICON_NAMES[token]} token with a bid of {n + 1}" in texts
    assert GAME.scores(closed.state) == {"ada": 0, "bob": 1, "cy": 0}
    assert list(closed.state.pawns) == simulate(cards, good, active, target)
    # cy's bid was never tried: its solution is not revealed
    assert not any(t.startswith("cy") for t in texts)
    assert all(e.to is None for e in closed.events)


def test_pp4_solution_ends_when_active_pawn_lands():
    cards, token, good = two_valid_solutions(13)
    active, target = deck.ICON_COLOUR[token], deck.target_card(token)
    # an extra pivot after the landing is not played
    m, q = next((m, q) for m in range(5) for q in range(5) if m != q and m != active)
    extra = good + [(m, q)]
    state = position(pawns=cards, token=token)
    state = bid(state, "ada", f"BID {len(extra)}: {pivots_text(extra)}", 100.0).state
    closed = GAME.close_turn(state, 200.0)
    assert GAME.scores(closed.state)["ada"] == 1
    assert list(closed.state.pawns) == simulate(cards, good, active, target)


def test_pp4_bid_zero_valid_only_when_already_on_target():
    rng = random.Random(14)
    on, token = find_round(rng, lambda par, *_: par == 0)
    state = bid(position(pawns=on, token=token), "ada", "BID 0", 100.0).state
    closed = GAME.close_turn(state, 200.0)
    assert GAME.scores(closed.state)["ada"] == 1 and closed.state.pawns == on
    off, token = find_round(rng, lambda par, *_: par is not None and par > 0)
    state = bid(position(pawns=off, token=token), "ada", "BID 0", 100.0).state
    closed = GAME.close_turn(state, 200.0)
    assert GAME.scores(closed.state)["ada"] == 0
    assert any("fails" in e.text for e in closed.events)


def test_pp4_solution_longer_than_bid_accepted_when_sent():
    # PP4: pivots written after the landing are ignored, so a solution with more
    # pivots than its bid is accepted when sent; it is judged when bidding closes.
    state = position()
    order = GAME.parse_order(state, "ada", "BID 2: red/blue green/red red/black")
    assert (order.pivots, len(order.solution)) == (2, 3)
    sealed = GAME.submit(state, "ada", order, 100.0).state
    assert sealed.bids["ada"].pivots == 2 and len(sealed.bids["ada"].solution) == 3
    assert GAME.dump(GAME.load(GAME.dump(sealed))) == GAME.dump(sealed)  # a state the rules allow
    with pytest.raises(IllegalOrderError, match="cannot pivot around itself"):
        GAME.parse_order(state, "ada", "BID 2: red/red")


def test_pp4_landing_within_the_bid_then_extra_pivots_is_valid_and_wins():
    cards, token = find_round(random.Random(31), lambda par, *_: par is not None and par >= 1)
    active, target = deck.ICON_COLOUR[token], deck.target_card(token)
    good = shortest_pivots(cards, active, target)
    m, q = next((m, q) for m in range(5) for q in range(5) if m != q and active not in (m, q))
    written = good + [(m, q), (q, m)]  # two pivots after the landing, never played
    state = position(players=("ada", "bob"), pawns=cards, token=token)
    state = bid(state, "ada", f"BID {len(good)}: {pivots_text(written)}", 100.0).state
    state = bid(state, "bob", f"BID {len(good) + 1}: {pivots_text(good)}", 50.0).state
    closed = GAME.close_turn(state, 200.0)
    assert f"ada wins the {deck.ICON_NAMES[token]} token with a bid of {len(good)}" in [
        e.text for e in closed.events]
    assert GAME.scores(closed.state) == {"ada": 1, "bob": 0}
    assert list(closed.state.pawns) == simulate(cards, good, active, target)


def test_pp4_landing_beyond_the_bid_is_invalid():
    cards, token = find_round(random.Random(32), lambda par, *_: par is not None and par >= 2)
    active, target = deck.ICON_COLOUR[token], deck.target_card(token)
    good = shortest_pivots(cards, active, target)
    state = position(players=("ada",), pawns=cards, token=token)
    short = len(good) - 1  # the landing comes one pivot after the bid
    state = bid(state, "ada", f"BID {short}: {pivots_text(good)}", 100.0).state  # accepted
    closed = GAME.close_turn(state, 200.0)
    texts = [e.text for e in closed.events]
    assert any(t.startswith(f"ada's bid of {short} fails") and "beyond the bid" in t for t in texts)
    assert GAME.scores(closed.state) == {"ada": 0}
    assert closed.state.pawns == tuple(cards)  # PP6: the pawns stay where they were
    assert closed.state.history[-1].attempts[0].reason is not None


# --- PP5: landing colours -----------------------------------------------------------------


def test_pp5_no_landing_on_own_colour_centre_except_target():
    # find a pivot whose destination is a card of the moving pawn's colour
    rng = random.Random(15)
    while True:
        cards = tuple(rng.sample(range(15), 5))
        hits = [
            (m, q)
            for m in range(5)
            for q in range(5)
            if m != q
            and third_card(cards[m], cards[q]) not in cards
            and centre_colour(third_card(cards[m], cards[q])) == m
        ]
        if hits:
            break
    m, q = hits[0]
    dest = third_card(cards[m], cards[q])
    # as the target card of the active pawn m, the landing is allowed
    token = deck.CENTRE[dest]
    assert deck.ICON_COLOUR[token] == m
    state = bid(position(pawns=cards, token=token), "ada", f"BID 1: {pivots_text([(m, q)])}", 1.0).state
    assert GAME.scores(GAME.close_turn(state, 2.0).state)["ada"] == 1
    # with another target the same pivot is illegal, the pawns stay
    other = next(t for t in deck.TOKENS if deck.ICON_COLOUR[t] == m and t != token)
    state = bid(position(pawns=cards, token=other), "ada", f"BID 2: {pivots_text([(m, q), (m, q)])}", 1.0).state
    closed = GAME.close_turn(state, 2.0)
    assert closed.state.pawns == cards
    assert any(f"lands on a {COLOURS[m]}-centred card" in e.text for e in closed.events)


def test_pp5_only_destination_colour_checked():
    # The red pawn starts on a red-centred card and must leave it to reach
    # another red-centred target: leaving is legal, only landings are checked.
    rng = random.Random(16)
    while True:
        cards = tuple(rng.sample(range(15), 5))
        if centre_colour(cards[RED]) != RED:
            continue
        token = rng.choice([t for t in deck.TOKENS if deck.ICON_COLOUR[t] == RED])
        if deck.target_card(token) != cards[RED] and plain_bfs(cards, RED, deck.target_card(token)):
            break
    path = shortest_pivots(cards, RED, deck.target_card(token))
    state = bid(position(pawns=cards, token=token), "ada", f"BID {len(path)}: {pivots_text(path)}", 1.0).state
    closed = GAME.close_turn(state, 2.0)
    assert GAME.scores(closed.state)["ada"] == 1
    assert closed.state.pawns[RED] == deck.target_card(token)


# --- PP6: after the round, the end -----------------------------------------------------


def test_pp6_no_valid_bid_discards_token_and_leaves_pawns():
    state = position()
    start = state.pawns
    token = state.token
    state = bid(state, "ada", "PASS", 10.0).state
    state = bid(state, "bob", "PASS", 11.0).state
    assert GAME.ready(state, 12.0)
    closed = GAME.close_turn(state, 12.0)
    assert closed.state.pawns == start
    assert GAME.scores(closed.state) == {"ada": 0, "bob": 0}
    assert f"No bids: the {deck.ICON_NAMES[token]} token is discarded" in [e.text for e in closed.events]
    assert closed.state.token != token and token not in closed.state.bag
    assert closed.state.round == 2


def test_pp6_round_report_shows_par_and_winning_solution():
    from gm_parts import ReportInput, render_report

    cards, token, good = two_valid_solutions(17)
    active, target = deck.ICON_COLOUR[token], deck.target_card(token)
    state = position(pawns=cards, token=token)
    state = bid(state, "ada", f"BID {len(good) + 1}: {pivots_text(good)}", 100.0).state
    closed = GAME.close_turn(state, 200.0)
    par_events = [e for e in closed.events if e.kind == "par"]
    assert par_events[0].data["par"] == len(good) == plain_bfs(cards, active, target)
    text = render_report(ReportInput("t1", GAME, closed.state, "bob", closed.events))
    assert all(len(line) <= 72 for line in text.splitlines())
    assert f"Par (fewest pivots possible): {len(good)}" in text
    assert f"Won by ada with a bid of {len(good) + 1}: {pivots_text(good)}" in text
    # the par solution shown really is a solution of that length
    par_text = text.split("Par (fewest pivots possible): ")[1].split("e.g. ")[1].split("\n")[0]
    shown = GAME.parse_order(closed.state, "ada", f"BID 99: {par_text}").solution
    shown = [(p.moving, p.pivot) for p in shown]
    assert len(shown) == len(good) and simulate(cards, shown, active, target) is not None


def test_pp6_game_ends_after_15_rounds_most_tokens_wins():
    state = GAME.setup(["ada", "bob"], {}, 21)
    now = 0.0
    for round_number in range(1, 16):
        assert not GAME.is_over(state) and GAME.turn(state) == round_number
        active, target = goal(state)
        best = solver.solve(state.pawns, active, target)
        if best is not None and round_number != 4:
            winner = "ada" if round_number % 3 else "bob"
            now += 1
            state = bid(state, winner, f"BID {len(best)}: {pivots_text(best)}" if best else "BID 0", now).state
        state = GAME.close_turn(state, now).state
    assert GAME.is_over(state)
    assert GAME.to_move(state) == [] and not GAME.ready(state, 1e12)
    assert len(state.history) == 15 and state.bag == ()
    scores = GAME.scores(state)
    assert sum(scores.values()) == sum(1 for r in state.history if r.winner)
    assert scores["ada"] > scores["bob"]
    assert GAME.winners(state) == ["ada"]
    with pytest.raises(NotYourTurnError):
        GAME.parse_order(state, "ada", "BID 1: red/blue")
    with pytest.raises(GameError):
        GAME.close_turn(state, now)


def test_g2_tied_tokens_are_a_shared_win():
    state = GAME.setup(["ada", "bob", "cy"], {}, 22)
    data = GAME.dump(state)
    # finish the game by hand: 15 rounds played, ada and bob 2 tokens each
    names = [deck.ICON_NAMES[t] for t in deck.TOKENS]
    data.update(token=None, bag=[], round=15)
    data["tokens"] = {"ada": names[:2], "bob": names[2:4], "cy": names[4:5]}
    winners = {0: "ada", 1: "ada", 2: "bob", 3: "bob", 4: "cy"}
    data["history"] = [
        {
            "round": i + 1,
            "token": names[i],
            "start": data["pawns"],
            "winner": winners.get(i),
            "attempts": [{"player": winners[i], "bid": 1, "solution": "red/blue", "failure": None}]
            if i in winners
            else [],
            "par": 1,
            "par_solution": "red/blue",
        }
        for i in range(15)
    ]
    final = GAME.load(data)
    assert GAME.is_over(final)
    assert GAME.winners(final) == ["ada", "bob"]
    from gm_parts import ReportInput, render_report

    text = render_report(ReportInput("t1", GAME, final, "cy", []))
    assert "Shared win" in text and "ada, bob" in text


def test_g3_bids_judged_on_position_at_start_of_round():
    cards, token, good = two_valid_solutions(23)
    n = len(good)
    state = position(players=("ada", "bob", "cy"), pawns=cards, token=token)
    state = bid(state, "ada", f"BID {n}: {pivots_text(good)}", 100.0).state
    assert state.pawns == cards  # a bid does not move the pawns
    state = bid(state, "bob", f"BID {n + 1}: {pivots_text(good)}", 110.0).state
    closed = GAME.close_turn(state, 200.0)
    # ada won; bob's was never tried on the moved pawns
    assert closed.state.history[-1].winner == "ada"
    assert closed.state.history[-1].start == cards


def test_single_player_game_works():
    state = GAME.setup(["solo"], {}, 3)
    assert GAME.to_move(state) == ["solo"]
    active, target = goal(state)
    best = solver.solve(state.pawns, active, target)
    text = f"BID {len(best)}: {pivots_text(best)}" if best else "BID 0"
    state = bid(state, "solo", text, 5.0).state
    assert GAME.ready(state, 5.0)
    state = GAME.close_turn(state, 5.0).state
    assert GAME.scores(state) == {"solo": 1} and GAME.turn(state) == 2
    with pytest.raises(OptionError):
        GAME.check_players([])
    GAME.check_players([f"p{i}" for i in range(12)])
    with pytest.raises(OptionError):
        GAME.check_players([f"p{i}" for i in range(13)])


# --- the solver -----------------------------------------------------------------------


def test_solver_matches_plain_bfs_on_random_placements():
    rng = random.Random(31)
    seen = set()
    for _ in range(400):
        token = rng.choice(deck.TOKENS)
        active, target = deck.ICON_COLOUR[token], deck.target_card(token)
        cards = tuple(rng.sample(range(15), 5))
        expected = plain_bfs(cards, active, target)
        found = solver.solve(cards, active, target)
        assert (None if found is None else len(found)) == expected, (cards, token)
        if found is not None:
            assert simulate(cards, found, active, target) is not None
        seen.add(expected)
    assert None in seen and len(seen) >= 4  # several depths and unsolvable cases met


def test_solver_distance_table_matches_plain_bfs():
    rng = random.Random(32)
    token = deck.TOKENS[6]
    active, target = deck.ICON_COLOUR[token], deck.target_card(token)
    table = solver.distance_table(active, target)
    placements = list(itertools.permutations(range(15), 5))
    assert len(placements) == solver.PLACEMENTS == 360360
    # goal placements: the active pawn on the target, four others anywhere else
    assert table.count(0) == 14 * 13 * 12 * 11
    reachable = len(table) - table.count(solver.UNREACHABLE)
    assert 14 * 13 * 12 * 11 < reachable < 360360
    for cards in rng.sample(placements, 250):
        expected = plain_bfs(cards, active, target)
        value = table[solver.pack(cards)]
        assert (None if value == solver.UNREACHABLE else value) == expected
        path = solver.solution_from_table(table, cards, active, target)
        assert (None if path is None else len(path)) == expected
        if path:
            assert simulate(cards, path, active, target) is not None


def test_solver_reports_unsolvable_placement():
    # all pawns on cards whose vectors lie in the plane without bit 3: every
    # pivot stays in that plane, so a card outside it can never be reached
    plane = [c for c in range(15) if deck.VECTOR[c] < 8]
    outside = [t for t in deck.TOKENS if deck.VECTOR[deck.target_card(t)] >= 8]
    token = outside[0]
    active = deck.ICON_COLOUR[token]
    cards = tuple(plane[:5])
    assert plain_bfs(cards, active, deck.target_card(token)) is None
    assert solver.solve(cards, active, deck.target_card(token)) is None
    state = position(pawns=cards, token=token)
    state = bid(state, "ada", "BID 1: red/blue", 1.0).state
    closed = GAME.close_turn(state, 2.0)
    assert "Par: no solution existed this round" in [e.text for e in closed.events]
    assert closed.state.history[-1].par is None and closed.state.pawns == cards


# --- notation and errors --------------------------------------------------------------


def test_notation_forgiving_and_canonical():
    state = position()
    cases = {
        "BID 3: red/blue green/red red/black": "BID 3: red/blue green/red red/black",
        "  bid   2  R / b ,  g/K  ": "BID 2: red/blue green/black",
        "\n\nBid 2:\nred/blue\n\ngreen/red\n": "BID 2: red/blue green/red",
        "bid3:yellow/black": "BID 3: yellow/black",
        "bid 0": "BID 0",
        " pass ": "PASS",
    }
    for text, canonical in cases.items():
        assert str(GAME.parse_order(state, "ada", text)) == canonical


def test_syntax_errors_name_the_problem():
    state = position()
    cases = {
        "hello": "not an order",
        "": "no order found",
        "BID three: red/blue": "whole number",
        "BID 2": "needs its solution",
        "BID 2: red/purple": "'purple'",
        "BID 2: red": "write moving/pivot",
        "BID 2: red/blue\nBID 1: red/blue": "one bid",
    }
    for text, reason in cases.items():
        with pytest.raises(OrderSyntaxError, match=reason):
            GAME.parse_order(state, "ada", text)
    with pytest.raises(NotYourTurnError):
        GAME.parse_order(state, "zed", "PASS")


def test_submit_and_close_leave_the_input_state_unchanged():
    state = position()
    before = copy.deepcopy(GAME.dump(state))
    after = bid(state, "ada", "BID 1: red/blue", 1.0).state
    assert GAME.dump(state) == before
    middle = copy.deepcopy(GAME.dump(after))
    closed = GAME.close_turn(after, 2.0).state
    assert GAME.dump(after) == middle and closed.round == 2


# --- JSON ------------------------------------------------------------------------------


def test_json_round_trip_mid_round_and_after():
    state = position(players=("ada", "bob"))
    state = bid(state, "ada", "BID 2: red/blue green/red", 100.5).state
    state = bid(state, "bob", "PASS", 101.0).state
    data = json.loads(json.dumps(GAME.dump(state)))
    loaded = GAME.load(data)
    assert loaded == state and GAME.dump(loaded) == data
    closed = GAME.close_turn(state, 200.0).state
    data = json.loads(json.dumps(GAME.dump(closed)))
    assert GAME.load(data) == closed


@pytest.mark.parametrize(
    "edit, reason",
    [
        (lambda d: d.update(version=2), "version"),
        (lambda d: d.pop("seed"), "seed"),
        (lambda d: d["pawns"].update(red=d["pawns"]["blue"]), "two pawns"),
        (lambda d: d["pawns"].update(red="F9"), "coordinate"),
        (lambda d: d.update(token="rose"), "not a centre icon"),
        (lambda d: d.update(token="nonsense"), "icon name"),
        (lambda d: d["bag"].append(d["bag"][0]), "each token once"),
        (lambda d: d["tableau"][0].__setitem__(0, d["tableau"][0][1]), "each card"),
        (lambda d: d["bids"].update(ada={"bid": 1, "solution": "", "time": 1, "seq": 0}), "fit the bid"),
        (lambda d: d["bids"].update(zed={"bid": 1, "solution": "red/blue", "time": 1, "seq": 0}), "unknown player"),
        (lambda d: d.update(passes=["ada", "ada"]), "passes"),
        (lambda d: d["tokens"].update(ada=["leaf"]), "tokens won"),
        (lambda d: d.update(round=3), "round number"),
        (lambda d: d.update(timer_seconds="soon"), "number"),
        (lambda d: d["history"].append({"round": 2, "token": d["bag"][0], "start": d["pawns"], "winner": None,
                                        "attempts": [], "par": 1, "par_solution": "red/blue"}), "rounds 1, 2"),
    ],
)
def test_load_rejects_malformed_states(edit, reason):
    data = GAME.dump(position())
    edit(data)
    with pytest.raises(StateError, match=reason):
        GAME.load(data)


# --- presentation ------------------------------------------------------------------------


def test_board_shows_every_card_pawn_and_target():
    state = position()
    text = GAME.render_board(state)
    assert all(len(line) <= 72 for line in text.splitlines())
    assert text.isascii()
    for position_index, card in enumerate(state.tableau):
        assert coordinate(position_index) in text
        assert deck.ICON_NAMES[deck.CENTRE[card]].upper() in text
    active, target = goal(state)
    where = coordinate(state.tableau.index(target))
    assert f"Move the {COLOURS[active]} pawn to card {where}." in text
    for colour, card in enumerate(state.pawns):
        assert f"{coordinate(state.tableau.index(card))} @{COLOURS[colour].upper()}" in text


def test_report_template_mid_round():
    from gm_parts import ReportInput, render_report

    state = position(players=("ada", "bob", "cy"), timer="2h")
    r1 = bid(state, "ada", "BID 3: red/blue green/red red/black", 3600.0)
    r2 = bid(r1.state, "bob", "BID 2: yellow/black blue/red", 3700.0)
    events = r1.events + r2.events
    text = render_report(ReportInput("t1", GAME, r2.state, "ada", events))
    assert all(len(line) <= 72 for line in text.splitlines())
    assert "ada bids 3" in text and "bob bids 2" in text
    assert "red/blue green/red red/black" in text  # ada's own solution
    assert "yellow/black" not in text  # bob's is sealed
    token = deck.ICON_NAMES[state.token]
    assert f"target token {token}" in text
    assert "Not yet bid: cy" in text
    assert "1970-01-01 03:00 UTC" in text  # first bid 01:00 + 2 h timer
    bids = text.split("Bids so far, in the order they will be tried:")[1].splitlines()
    assert bids[1].split()[:2] == ["bob", "2"] and bids[2].split()[:2] == ["ada", "3"]
    gm_text = render_report(ReportInput("t1", GAME, r2.state, None, events))
    assert "yellow/black blue/red" in gm_text and "GM only: par" in gm_text
    assert "GM only" not in text


def test_help_text_lists_notation_and_every_ruling():
    text = GAME.help_text()
    assert all(len(line) <= 72 for line in text.splitlines())
    assert "BID 3: red/blue green/red red/black" in text and "PASS" in text
    for name in ("G1", "G2", "G3", "PP1", "PP2", "PP3", "PP4", "PP5", "PP6"):
        assert f"{name}. " in text
    flat = " ".join(text.split())
    assert "A bid of 0 is valid when the active pawn already stands on the target card." in flat
    assert "Only the destination card's colour is checked." in flat
    check_help_quotes_rulings(text, "PP")  # G1-G5 and PP1-PP6 word for word


def test_registry_finds_the_game():
    assert get("pivot-pawns") is GAME and get("Pivot_Pawns") is GAME


# --- seeded random play ---------------------------------------------------------------------


def check_history(state, full: bool):
    """Re-judge every closed round with the plain model of the rules."""
    for index, record in enumerate(state.history):
        active, target = deck.ICON_COLOUR[record.token], deck.target_card(record.token)
        numbers = [a.pivots for a in record.attempts]
        assert numbers == sorted(numbers)  # lowest bid first (PP4)
        after = record.start
        for attempt in record.attempts:
            pivots = [(p.moving, p.pivot) for p in attempt.solution]
            landed = simulate(record.start, pivots, active, target)
            assert (landed is not None) == (attempt.reason is None), attempt
            if landed is not None:
                after = tuple(landed)
        winners = [a.player for a in record.attempts if a.reason is None]
        assert winners == ([record.winner] if record.winner else [])
        if record.winner:
            assert record.attempts[-1].player == record.winner
            assert record.par is not None and record.attempts[-1].pivots >= record.par
        following = state.history[index + 1].start if index + 1 < len(state.history) else state.pawns
        assert following == after  # PP6: pawns stay where the winner left them, or unmoved
        if full:
            assert record.par == plain_bfs(record.start, active, target)


def check_invariants(state, wins_before, round_trip=True):
    if round_trip:
        data = GAME.dump(state)
        assert GAME.load(json.loads(json.dumps(data))) == state
    assert len(set(state.pawns)) == 5
    scores = GAME.scores(state)
    assert sum(scores.values()) == sum(1 for r in state.history if r.winner)
    assert all(scores[p] >= wins_before[p] for p in scores)
    assert len(state.history) + (state.token is not None) + len(state.bag) == 15
    if GAME.is_over(state):
        assert GAME.to_move(state) == [] and len(state.history) == 15
    else:
        assert GAME.to_move(state) == GAME.players(state)


def test_random_play_many_games():
    rng = random.Random(2024)
    for game_number in range(200):
        players = [f"p{i}" for i in range(rng.randint(1, 5))]
        state = GAME.setup(players, {"timer": rng.choice(["1h", "24h", "none"])}, game_number)
        now = 1_000_000.0 + game_number
        steps = 0
        while not GAME.is_over(state):
            wins = GAME.scores(state)
            for _ in range(rng.randint(0, 2 * len(players))):
                player = rng.choice(players)
                text = GAME.random_order(state, player, rng)
                if text is None:
                    continue
                now += rng.choice([1.0, 0.0, 600.0])
                order = GAME.parse_order(state, player, text)
                result = GAME.submit(state, player, order, now)
                assert any(e.to == (player,) for e in result.events)
                assert all("/" not in e.text for e in result.events if e.to is None)
                state = result.state
                check_invariants(state, wins, round_trip=rng.random() < 0.2)
            timer = GAME.timer(state)
            if timer is not None and rng.random() < 0.3:
                now = max(now, timer)
                assert GAME.ready(state, now)
            if GAME.ready(state, now) or rng.random() < 0.5:  # else the GM closes it
                record_count = len(state.history)
                result = GAME.close_turn(state, now)
                assert all(isinstance(e, Event) and e.to is None for e in result.events)
                state = result.state
                assert len(state.history) == record_count + 1
                check_invariants(state, wins)
                check_history(state, full=game_number < 20)
            steps += 1
            assert steps < 200
        assert len(GAME.winners(state)) >= 1
