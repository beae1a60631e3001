"""The picture of a Fuzzy Borders position: made through the rules, read back from its PNG."""

import io

from PIL import Image

from games.registry import get
from gm.present.pictures import fuzzy_borders
from gm.present.pictures.draw import EMPTY, blend, player_colour, png

G = get("fuzzy-borders")
T0 = 1_700_000_000.0
ADA, BOB, CYD = (player_colour(seat) for seat in range(3))


def claim(state, player, cell):
    return G.submit(state, player, G.parse_order(state, player, f"CLAIM {cell}"), T0).state


def position():
    """Two turns of three players on the standard board (side 10, radius 4), then ada's
    sealed claim of J8 for turn 3.  Ada claimed I9 and K10, bob O6 and P10, cyd F15 and E12."""
    state = G.setup(["ada", "bob", "cyd"], {}, 1)
    for turn in ({"ada": "I9", "bob": "O6", "cyd": "F15"}, {"ada": "K10", "bob": "P10", "cyd": "E12"}):
        for player, cell in turn.items():
            state = claim(state, player, cell)
        state = G.close_turn(state, T0).state
    return claim(state, "ada", "J8")


def decoded(state, viewer=None):
    data = png(fuzzy_borders.draw(G, state, viewer))
    return data, Image.open(io.BytesIO(data)).convert("RGB")


def off_centre(state, cell):
    """A pixel inside the cell below its centre, clear of its mark or number."""
    x, y = fuzzy_borders.cell_centre(state, cell)
    return x, y + round(fuzzy_borders.cell_radius(state) * 0.55)


def on_ring(state, cell):
    """A pixel on the ring of a sealed claim drawn on ``cell``."""
    inner, outer = fuzzy_borders.SEALED_RING
    x, y = fuzzy_borders.cell_centre(state, cell)
    return x, y + round(fuzzy_borders.cell_radius(state) * (inner + outer) / 2)


def test_size_and_bytes():
    data, image = decoded(position())
    assert image.size == (675, 675)
    assert len(data) < 100_000
    for viewer in ("ada", "bob", "(observer)"):  # the size tells no viewer anything
        assert decoded(position(), viewer)[1].size == (675, 675)


def test_the_same_state_gives_the_same_bytes_twice_and_after_a_reload():
    state = position()
    first, _ = decoded(state)
    assert decoded(state)[0] == first
    assert decoded(G.load(G.dump(state)))[0] == first


def test_claimed_cells_have_their_claimers_colour():
    state = position()
    _, image = decoded(state)
    for cell, colour in (("I9", ADA), ("K10", ADA), ("O6", BOB), ("P10", BOB), ("F15", CYD), ("E12", CYD)):
        assert image.getpixel(off_centre(state, cell)) == colour, cell


def test_led_cells_are_shaded_by_value_and_far_cells_are_empty():
    state = position()
    board = state.board()
    _, image = decoded(state)
    led = state.cell("J9")  # next to ada's I9 and K10
    assert board[led].leader == "ada"
    value = board[led].value
    assert image.getpixel(off_centre(state, "J9")) == blend(ADA, fuzzy_borders.shade(value))
    assert board[state.cell("J19")].empty
    assert image.getpixel(fuzzy_borders.cell_centre(state, "J19")) == EMPTY
    assert image.getpixel(fuzzy_borders.cell_centre(state, "S1")) == EMPTY


def test_a_sealed_claim_is_drawn_only_for_its_player_and_the_gm():
    state = position()
    assert state.sealed == {"ada": "J8"}
    ring = on_ring(state, "J8")
    for viewer in ("ada", None):
        assert decoded(state, viewer)[1].getpixel(ring) == ADA, viewer
    for viewer in ("bob", "(observer)", "someone else"):
        data, image = decoded(state, viewer)
        assert image.getpixel(ring) != ADA, viewer
        assert data == decoded(state, "cyd")[0], viewer  # nothing of ada's seal shows
    # Once the turn is closed the claim is placed, and every viewer sees it the same.
    closed = G.close_turn(state, T0).state
    assert decoded(closed, "bob")[1].getpixel(off_centre(closed, "J8")) == ADA
    assert decoded(closed, "bob")[0] == decoded(closed, "ada")[0]


def test_cell_centres_follow_fb1_axial_coordinates():
    state = position()
    radius = fuzzy_borders.cell_radius(state)
    cx, cy = fuzzy_borders.cell_centre(state, "J10")  # the centre
    assert abs(cx - 675 / 2) <= 1
    x, y = fuzzy_borders.cell_centre(state, "J1")  # same diagonal, row 1: up and to the left
    assert y == round(cy - 13.5 * radius) and x < cx
    x, y = fuzzy_borders.cell_centre(state, "K10")  # same row, next diagonal: to the right
    assert y == cy and abs(x - cx - radius * 3 ** 0.5) <= 1
