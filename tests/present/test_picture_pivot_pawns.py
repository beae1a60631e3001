"""The Pivot Pawns picture: a known position through the rules, decoded and checked by pixel.

The pawns, the target mark, the size, the same bytes on every run, and the
seal: a player's picture shows their own solution and nobody else's, so bob's
and an observer's pictures are the same bytes whatever pivots ada sealed.
"""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from games.pivot_pawns import deck
from games.pivot_pawns.state import card_coordinate, coordinate
from games.registry import get
from gm.present.pictures import draw as shared
from gm.present.pictures import pivot_pawns as picture
from gm.present.reports import OBSERVER

RULES = get("pivot-pawns")
SEED = 7
ADA_BID = "BID 3: red/blue green/red red/black"
ADA_OTHER = "BID 3: blue/red black/green yellow/red"  # the same bid, other sealed pivots


def bid(state, player, text, now):
    return RULES.submit(state, player, RULES.parse_order(state, player, text), now).state


def start(players=("ada", "bob", "cy")):
    return RULES.start(RULES.setup(list(players), {}, SEED), 0.0)


def known(text=ADA_BID):
    """Round 1 of seed 7: ada has bid 3 with ``text``'s solution, cy passed, bob waits."""
    state = bid(start(), "ada", text, 10.0)
    return RULES.submit(state, "cy", RULES.parse_order(state, "cy", "PASS"), 11.0).state


def png(state, viewer) -> bytes:
    return shared.png(picture.draw(RULES, state, viewer))


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def test_card_centres_follow_the_coordinates_of_the_text_report():
    xs = [picture.card_centre(f"{letter}1")[0] for letter in "ABCDE"]
    ys = [picture.card_centre(f"A{row}")[1] for row in "123"]
    assert xs == sorted(xs) and len(set(xs)) == 5
    assert ys == sorted(ys) and len(set(ys)) == 3
    assert picture.card_centre("c2") == (xs[2], ys[1])


def test_the_red_pawn_shows_in_red_on_its_card_and_no_pawn_elsewhere():
    state = known()
    image = decode(png(state, "bob"))
    for colour, card in enumerate(state.pawns):
        x, y = picture.pawn_spot(card_coordinate(state, card))
        # left of the disc's centre, clear of its letter
        assert image.getpixel((x - picture.PAWN_RADIUS + 3, y)) == picture.COLOUR_FILL[colour]
    red = card_coordinate(state, state.pawns[0])
    assert red == "A3"  # the known position, as the text report shows it
    assert "A3 @RED" in RULES.render_board(state)
    for position, card in enumerate(state.tableau):
        if card not in state.pawns:
            x, y = picture.pawn_spot(coordinate(position))
            assert image.getpixel((x - picture.PAWN_RADIUS + 3, y)) == picture.CARD


def test_the_centre_icon_is_a_band_in_its_colour():
    state = known()
    image = decode(png(state, None))
    for position, card in enumerate(state.tableau):
        x0, y0, _, _ = picture.centre_band(coordinate(position))
        colour = deck.ICON_COLOUR[deck.CENTRE[card]]
        assert image.getpixel((x0 + 4, y0 + 4)) == picture.COLOUR_FILL[colour]


def test_the_target_card_and_only_it_has_the_mark():
    state = known()
    image = decode(png(state, OBSERVER))
    target = card_coordinate(state, deck.target_card(state.token))
    assert "*" in RULES.render_board(state).split(target)[1].split("|")[0]
    for position in range(deck.CARDS):
        coord = coordinate(position)
        x0, y0, x1, y1 = picture.card_box(coord)
        _, cy = picture.card_centre(coord)
        frame = [image.getpixel((x0 + 1, cy)), image.getpixel((x1 - 1, cy)),
                 image.getpixel(((x0 + x1) // 2, y1 - 1))]
        if coord == target:
            assert frame == [picture.MARK] * 3
        else:
            assert picture.MARK not in frame


def test_size_and_bytes_are_small_and_the_same_every_time():
    state = known()
    first = png(state, "ada")
    assert first == png(state, "ada") == png(known(), "ada")
    assert first[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(first) < 150_000
    image = decode(first)
    assert image.width == picture.WIDTH
    # every viewer but the GM gets a picture of one size
    sizes = {decode(png(state, viewer)).size for viewer in ("ada", "bob", OBSERVER)}
    assert sizes == {image.size}


def test_ada_sees_her_sealed_solution_and_her_picture_differs_from_bobs_only_there():
    state = known()
    ada, bob = decode(png(state, "ada")), decode(png(state, "bob"))
    assert ada.size == bob.size
    box = ImageChops.difference(ada, bob).getbbox()
    assert box is not None  # ada's own solution is shown to her
    sealed_top = ada.height - 12 - picture.LINE  # the one sealed line under the caption
    assert box[1] >= sealed_top > picture.BOARD_H


def test_bob_and_an_observer_never_see_adas_pivots():
    one, other = known(ADA_BID), known(ADA_OTHER)
    assert one.bids["ada"].pivots == other.bids["ada"].pivots == 3
    assert one.bids["ada"].solution != other.bids["ada"].solution
    for viewer in ("bob", OBSERVER, "zed"):
        assert png(one, viewer) == png(other, viewer), viewer
    # ada and the GM do see the pivots
    assert png(one, "ada") != png(other, "ada")
    assert png(one, None) != png(other, None)
    # what bob does learn is the number: his picture changes once ada has bid
    waiting = RULES.submit(start(), "cy", RULES.parse_order(start(), "cy", "PASS"), 11.0).state
    assert png(waiting, "bob") != png(one, "bob")


def test_a_closed_round_and_a_finished_game_are_drawn():
    state = bid(bid(known(), "bob", "BID 5: red/blue green/red red/black", 20.0), "cy",
                "BID 4: red/blue green/red red/black", 30.0)
    closed = RULES.close_turn(state, 40.0).state
    assert closed.round == 2 and closed.history
    image = decode(png(closed, "bob"))
    assert image.width == picture.WIDTH
    over = closed
    for player in ("ada", "bob"):  # cy, the last one left, wins at once (RULINGS G7)
        over = RULES.leave(over, player, 50.0).state
    assert RULES.is_over(over)
    assert decode(png(over, OBSERVER)).width == picture.WIDTH


def test_the_png_is_a_palette_png_of_exactly_the_picture_drawn():
    """A Pivot Pawns picture keeps few enough colours to go out on a palette, and the palette
    PNG is the picture drawn, pixel for pixel, for every viewer."""
    state = start()
    for viewer in (None, "ada", OBSERVER):
        drawn = picture.draw(get("pivot-pawns"), state, viewer)
        data = shared.png(drawn)
        assert data[25] == 3  # the PNG's colour type: a palette
        in_rgb = picture.drawn_on(shared.canvas, get("pivot-pawns"), state, viewer)  # as drawn before a palette
        assert decode(data).tobytes() == drawn.convert("RGB").tobytes() == in_rgb.tobytes()
