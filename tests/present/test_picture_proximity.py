"""The picture of a Proximity position (issue "Board pictures"; RULINGS PX1-PX2).

Positions come from the rules themselves (set-up, then orders through
parse_order/submit) or are written by hand as JSON, as a GM edits a state.
The PNG is decoded again and read pixel by pixel at the tiles' centres.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image

import games.registry
from gm.present.pictures import draw as shared
from gm.present.pictures import proximity as picture

RULES = games.registry.get("proximity")
PLAYERS = ["ada", "bea"]
BOARD = [f"{f}{r}" for r in "123" for f in "abc"]


def started(seed=3):
    return RULES.start(RULES.setup(PLAYERS, {}, seed), 0.0)


def play(state, text):
    player = RULES.to_move(state)[0]
    return RULES.submit(state, player, RULES.parse_order(state, player, text), 0.0).state


def decoded(state, viewer=None):
    data = shared.png(picture.draw(RULES, state, viewer))
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return data, image.convert("RGB")


def at(image, square):
    return image.getpixel(picture.tile_centre(square))


def suit_of(state, square):
    """The suit of a tile as the JSON form writes it (S1, M4...), never read off the picture."""
    code = RULES.dump(state)["board"][square]
    return {"S": "suns", "M": "moons", "C": "crowns", "A": "arms"}[code[0]]


def occupied(state):
    return {p["square"]: index for index, side in enumerate(RULES.dump(state)["players"])
            for p in side["pieces"] if p["square"] is not None}


def test_set_up_pawns_on_their_null_tiles_and_empty_tiles_in_their_suit_colour():
    state = started()
    data, image = decoded(state)
    assert image.size == (picture.WIDTH, picture.HEIGHT)
    assert len(data) < 100_000
    # PX2: each pawn starts on its own null tile, b0 the first listed player's, b4 the second's.
    assert at(image, "b0") == shared.player_colour(0)
    assert at(image, "b4") == shared.player_colour(1)
    for square in BOARD:  # the whole 3x3 is empty: each tile shows its suit's face colour
        assert at(image, square) == picture.tile_colour(suit_of(state, square)), square
    throne = RULES.dump(state)["throne"]
    assert at(image, "throne") == picture.tile_colour({"S": "suns", "M": "moons"}[throne[0]])


def test_after_two_moves_the_pawns_stand_where_they_went():
    state = started()
    first = RULES.to_move(state)[0]
    one = RULES.legal_orders(state, first)[0]  # e.g. "P a3"
    state = play(state, one)
    second = RULES.to_move(state)[0]
    two = RULES.legal_orders(state, second)[0]
    state = play(state, two)
    _, image = decoded(state)
    for player, order in ((first, one), (second, two)):
        seat = PLAYERS.index(player)
        square = order.split()[-1]
        assert occupied(state)[square] == seat
        assert at(image, square) == shared.player_colour(seat)
    # The null tiles the pawns left are empty again: the null tile's suit colour.
    suits = [side["suit"] for side in RULES.dump(state)["players"]]
    assert "b0" not in occupied(state) and "b4" not in occupied(state)
    assert at(image, "b0") == picture.tile_colour(suits[0])
    assert at(image, "b4") == picture.tile_colour(suits[1])
    for square in BOARD:
        if square not in occupied(state):
            assert at(image, square) == picture.tile_colour(suit_of(state, square)), square


def hand_position(winner=None):
    """ada (Suns) has walked b1, b2: pawn age 2 on b2, coins of age 1 on b1 and 0 on b0.
    bea (Moons): pawn age 1 on b3, a coin of age 0 on b4."""
    def pieces(specs):
        return [{"id": n, "kind": kind, "square": sq, "age": age}
                for n, (kind, sq, age) in enumerate(specs)]

    bea = pieces([("pawn", "b3", 1), ("coin", "b4", 0)])
    if winner == 0:
        bea[0]["square"] = None
    return RULES.load({
        "version": 1, "seed": 0, "coins": 7,
        "board": {"a3": "M2", "b3": "M1", "c3": "S3",
                  "a2": "S5", "b2": "S4", "c2": "M3",
                  "a1": "M4", "b1": "S2", "c1": "S1"},
        "throne": "M5",
        "players": [
            {"name": "ada", "suit": "suns", "bank": None, "trail": [["b1", False], ["b2", False]],
             "pieces": pieces([("pawn", "b2", 2), ("coin", "b1", 1), ("coin", "b0", 0)])},
            {"name": "bea", "suit": "moons", "bank": None, "trail": [["b3", False]],
             "pieces": bea},
        ],
        "mover": 1, "moves": 3, "time_bank": None, "clock_start": None,
        "winner": winner, "end_reason": "bea sacrificed the pawn" if winner == 0 else None,
        "last": [],
    })


def test_coins_show_their_player_colour_on_their_tiles():
    state = hand_position()
    _, image = decoded(state, "bea")
    for square in ("b2", "b1", "b0"):
        assert at(image, square) == shared.player_colour(0), square
    for square in ("b3", "b4"):
        assert at(image, square) == shared.player_colour(1), square
    assert at(image, "a2") == picture.tile_colour("suns")  # S5, empty
    assert at(image, "a1") == picture.tile_colour("moons")  # M4, empty
    assert at(image, "throne") == picture.tile_colour("moons")  # M5


def test_each_piece_has_its_age_badge_beside_it():
    # The badge (white disc, ringed in the player's colour) lies right of and below the centre.
    _, image = decoded(hand_position())
    for square, seat in (("b2", 0), ("b1", 0), ("b0", 0), ("b3", 1), ("b4", 1)):
        cx, cy = picture.tile_centre(square)
        ring = [image.getpixel((cx + 21 + dx, cy + 12)) for dx in range(-10, 11)]
        assert shared.player_colour(seat) in ring, square
    cx, cy = picture.tile_centre("a2")  # an empty tile has no badge
    assert image.getpixel((cx + 21, cy + 12)) == picture.tile_colour("suns")


def test_the_same_state_gives_the_same_bytes():
    state = play(started(), RULES.legal_orders(started(), RULES.to_move(started())[0])[0])
    first, _ = decoded(state, "ada")
    again, _ = decoded(state, "ada")
    assert first == again
    reloaded = RULES.load(RULES.dump(state))  # a replay's state draws the same picture
    assert decoded(reloaded, "ada")[0] == first
    assert decoded(started(4))[0] != decoded(started(3))[0]  # another deal, another picture


def test_game_over_is_drawn_too():
    state = hand_position(winner=0)
    data, image = decoded(state, None)
    assert image.size == (picture.WIDTH, picture.HEIGHT) and len(data) < 100_000
    assert at(image, "b3") == picture.tile_colour("moons")  # bea's pawn is gone


def test_tile_centres_follow_the_text_report_layout():
    x = {f: picture.tile_centre(f"{f}2")[0] for f in "abc"}
    y = {r: picture.tile_centre(f"b{r}")[1] for r in range(5)}
    assert x["a"] < x["b"] < x["c"]  # files a-c from the left
    assert y[4] < y[3] < y[2] < y[1] < y[0]  # rows from the bottom; b4 above, b0 below
    assert picture.tile_centre("b0")[0] == picture.tile_centre("b4")[0] == x["b"]
    tx, ty = picture.tile_centre("throne")
    assert tx > x["c"] + picture.TILE and ty == y[2]  # off the board, right of the middle row
    for name in ("a0", "c4", "d1", "throne2"):
        with pytest.raises(ValueError):
            picture.tile_centre(name)
