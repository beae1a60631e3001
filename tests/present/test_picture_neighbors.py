"""The picture of a Neighbors position: read back from its PNG bytes, pixel by pixel."""

import io

from PIL import Image

from games.neighbors import GAME
from gm.present.pictures import neighbors
from gm.present.pictures.draw import INK, player_colour, png
from support import EXAMPLE_LAYOUT


def example_after_capture():
    """The rule text's example after ada's Rb4xd4 (the rook takes the knight on d4)."""
    state = GAME.setup(["ada", "bob"], {"layout": EXAMPLE_LAYOUT}, seed=1)
    return GAME.submit(state, "ada", GAME.parse_order(state, "ada", "Rb4xd4"), 0.0).state


def decoded(state, viewer=None):
    data = png(neighbors.draw(GAME, state, viewer))
    return data, Image.open(io.BytesIO(data)).convert("RGB")


def corner(square):
    """A pixel inside the square, away from its disc and from any arrow."""
    left, top, _, _ = neighbors.square_box(square)
    return left + 6, top + 6


def test_the_picture_has_the_expected_size_and_stays_small():
    data, image = decoded(example_after_capture())
    assert image.size == neighbors.image_size(2) == (560, 572)
    assert len(data) < 100_000
    six = GAME.setup(["a", "b", "c", "d", "e", "f"], {}, seed=3)  # a full board, six legend lines
    data, image = decoded(six)
    assert image.size == neighbors.image_size(6)
    assert len(data) < 100_000


def test_the_same_state_gives_the_same_bytes_whoever_looks():
    first, _ = decoded(example_after_capture())
    again, _ = decoded(example_after_capture())
    as_bob, _ = decoded(example_after_capture(), "bob")
    state = example_after_capture()
    reloaded, _ = decoded(GAME.load(GAME.dump(state)))
    assert first == again == as_bob == reloaded


def test_squares_are_laid_out_as_the_text_report_row_six_on_top():
    assert neighbors.square_centre("a6")[1] < neighbors.square_centre("a1")[1]
    assert neighbors.square_centre("a1")[0] < neighbors.square_centre("g1")[0]
    assert neighbors.square_centre("d4")[1] == neighbors.square_centre("b4")[1]
    x, y = neighbors.square_centre("a6")
    assert (x - neighbors.square_centre("b6")[0], y - neighbors.square_centre("a5")[1]) == (-72, -72)


def test_empty_squares_have_the_empty_colours():
    _, image = decoded(example_after_capture())
    for square in ("a1", "b1", "g6", "c3", "e5"):  # empty in the example
        assert image.getpixel(neighbors.square_centre(square)) == neighbors.square_colour(square)
    assert neighbors.square_colour("a1") == neighbors.DARK  # a1 dark, as on a chessboard
    assert neighbors.square_colour("b1") == neighbors.LIGHT


def test_the_last_capture_is_tinted_and_joined_by_an_arrow_in_the_movers_colour():
    _, image = decoded(example_after_capture())
    assert image.getpixel(corner("d4")) == neighbors.TO_TINT
    assert image.getpixel(corner("b4")) == neighbors.FROM_TINT
    ada = player_colour(0)
    assert image.getpixel(neighbors.square_centre("c4")) == ada  # the shaft crosses c4
    assert image.getpixel(neighbors.square_centre("b4")) == ada  # and starts on the emptied square
    # Other squares are not tinted.
    assert image.getpixel(corner("f4")) == neighbors.square_colour("f4")


def test_no_tint_before_the_first_capture():
    state = GAME.setup(["ada", "bob"], {"layout": EXAMPLE_LAYOUT}, seed=1)
    _, image = decoded(state)
    for square in ("b4", "d4"):
        assert image.getpixel(corner(square)) == neighbors.square_colour(square)


def test_pieces_are_discs_with_an_ink_ring_and_a_light_fill():
    _, image = decoded(example_after_capture())
    for square in ("d4", "e6", "d5", "f4", "b2", "d2", "f2"):  # the seven pieces left
        x, y = neighbors.square_centre(square)
        r = neighbors.DISC_RADIUS
        assert image.getpixel((x + r - 1, y)) == INK, square
        assert image.getpixel((x, y - r + 1)) == INK, square
        assert image.getpixel((x + r - 6, y)) == neighbors.PIECE_FILL, square
        # the letter: some ink inside the disc, well away from the ring
        inside = [image.getpixel((x + dx, y + dy)) for dx in range(-8, 9) for dy in range(-8, 9)]
        assert INK in inside, square
    x, y = neighbors.square_centre("b4")  # the rook has left b4: no ring above the arrow's start
    assert image.getpixel((x, y - neighbors.DISC_RADIUS + 1)) == neighbors.FROM_TINT


def test_different_pieces_draw_different_letters():
    _, image = decoded(example_after_capture())

    def glyph(square):
        x, y = neighbors.square_centre(square)
        return image.crop((x - 14, y - 14, x + 15, y + 15)).tobytes()

    assert glyph("d2") == glyph("f2")  # two queens on the same colour of square
    assert glyph("d2") != glyph("b2")  # a queen and a ferz


def test_a_pasted_disc_is_pixel_for_pixel_the_disc_drawn_in_place():
    from PIL import ImageChops

    for radius, letter_size, ring in ((neighbors.DISC_RADIUS, 28, 3), (9, 12, 1)):
        for piece in "QRBNF":
            drawn = Image.effect_noise((80, 80), 60).convert("RGB")
            pasted = drawn.copy()
            neighbors.draw_disc(drawn, 40, 40, radius, piece, letter_size, ring)
            sprite, footprint = neighbors.disc_sprite(radius, piece, letter_size, ring)
            pasted.paste(sprite, (40 - radius, 40 - radius), footprint)
            assert ImageChops.difference(drawn, pasted).getbbox() is None, (radius, piece)
