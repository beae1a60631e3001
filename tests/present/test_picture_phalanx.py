"""The picture of a Phalanx position: made through the rules, read back from its PNG."""

import io
import math

from PIL import Image

from games.phalanx import GAME
from gm.present.pictures import phalanx
from gm.present.pictures.draw import EMPTY, blend, png

RED, YELLOW = phalanx.MAN_COLOURS["red"], phalanx.MAN_COLOURS["yellow"]


def play(state, *orders):
    for text in orders:
        player = GAME.to_move(state)[0]
        state = GAME.submit(state, player, GAME.parse_order(state, player, text), 0.0).state
    return state


def after_capture():
    """Side 8: ada (red) H8 I8 against bob (yellow) E8 F8 K8; red steps to I8 J8, yellow
    to F8 G8, then red's MOVE J8 I8 1 takes K8, which becomes a wall: red is left on J8."""
    state = GAME.setup(["ada", "bob"], {}, 1)
    return play(state, "PLACE RED H8 YELLOW E8 K8", "COLOUR YELLOW", "PLACE I8", "GROW F8",
                "MOVE I8 H8 1", "MOVE F8 E8 1", "MOVE J8 I8 1")


def enclosed_corner():
    """Side 3: red D1 E2, then D2 grown to shut the corner E1 in; both pass: E1 is red's."""
    state = GAME.setup(["ada", "bob"], {"side": "3"}, 1)
    return play(state, "PLACE RED D1 YELLOW A4 B5", "COLOUR YELLOW", "PLACE E2", "PASS",
                "GROW D2", "PASS", "PASS")


def decoded(state, viewer=None):
    data = png(phalanx.draw(GAME, state, viewer))
    return data, Image.open(io.BytesIO(data)).convert("RGB")


def on_man(state, cell):
    """A pixel on the man's disc, below its centre (clear of arrows and dots)."""
    x, y = phalanx.cell_centre(state, cell)
    return x, y + round(phalanx.cell_radius(state) * 0.4)


def test_size_and_bytes():
    data, image = decoded(after_capture())
    assert image.size == (698, 684)
    assert len(data) < 100_000
    data, image = decoded(enclosed_corner())
    assert image.size[0] == phalanx.layout(enclosed_corner()).width == 560
    assert len(data) < 100_000


def test_the_same_state_gives_the_same_bytes_twice_whoever_looks():
    state = after_capture()
    first, _ = decoded(state)
    assert decoded(state)[0] == first
    assert decoded(GAME.load(GAME.dump(state)))[0] == first
    for viewer in ("ada", "bob", "(observer)"):
        assert decoded(state, viewer)[0] == first


def test_men_walls_and_empty_cells():
    state = after_capture()
    data = GAME.dump(state)
    assert (data["red"], data["yellow"], data["walls"]) == (["J8"], ["F8", "G8"], ["K8"])
    _, image = decoded(state)
    assert image.getpixel(on_man(state, "J8")) == RED
    assert image.getpixel(on_man(state, "F8")) == YELLOW
    assert image.getpixel(on_man(state, "G8")) == YELLOW
    assert image.getpixel(phalanx.cell_centre(state, "K8")) == phalanx.WALL_COLOUR
    for empty in ("H8", "I8", "E8", "A15", "O1"):  # H8 I8 E8: left by the moves
        assert image.getpixel(phalanx.cell_centre(state, empty)) == EMPTY, empty


def test_the_last_move_is_an_arrow_from_the_old_head_to_the_new():
    state = after_capture()
    assert phalanx.last_moves(state) == [(state.grid.parse("J8"), state.grid.parse("K8"))]
    _, image = decoded(state)
    (x0, y0), (x1, y1) = phalanx.cell_centre(state, "J8"), phalanx.cell_centre(state, "K8")
    middle = ((x0 + x1) // 2, (y0 + y1) // 2)  # on the edge between J8 and K8
    assert image.getpixel(middle) == phalanx.ARROW
    # A turn with no move draws no arrow: after bob's pass that pixel is the grid's edge.
    passed = play(state, "PASS")
    assert phalanx.last_moves(passed) == []
    assert decoded(passed)[1].getpixel(middle) != phalanx.ARROW


def test_territory_is_tinted_only_when_the_game_is_over():
    over = enclosed_corner()
    assert over.phase == "over"
    assert GAME.scores(over) == {"ada": 1, "bob": 0}
    _, image = decoded(over)
    assert image.getpixel(phalanx.cell_centre(over, "E1")) == blend(RED, phalanx.TERRITORY, EMPTY)
    assert image.getpixel(phalanx.cell_centre(over, "C3")) == EMPTY  # touches both colours
    # One step earlier (bob has passed once) the same corner is not yet tinted.
    before = play(GAME.setup(["ada", "bob"], {"side": "3"}, 1), "PLACE RED D1 YELLOW A4 B5",
                  "COLOUR YELLOW", "PLACE E2", "PASS", "GROW D2", "PASS")
    assert decoded(before)[1].getpixel(phalanx.cell_centre(before, "E1")) == EMPTY


def test_cell_centres_follow_fb1_axial_coordinates():
    state = after_capture()
    radius = phalanx.cell_radius(state)
    cx, cy = phalanx.cell_centre(state, "H8")
    x, y = phalanx.cell_centre(state, "I8")
    assert y == cy and abs(x - cx - radius * math.sqrt(3)) <= 1
    x, y = phalanx.cell_centre(state, "H9")  # next row, same diagonal: down and to the right
    assert abs(y - cy - 1.5 * radius) <= 1 and abs(x - cx - radius * math.sqrt(3) / 2) <= 1


def test_the_last_turns_new_men_carry_a_white_dot():
    state = play(GAME.setup(["ada", "bob"], {}, 1), "PLACE RED H8 YELLOW E8 K8", "COLOUR YELLOW",
                 "PLACE I8", "GROW F8")
    assert phalanx.last_growths(state) == [state.grid.parse("F8")]
    _, image = decoded(state)
    assert image.getpixel(phalanx.cell_centre(state, "F8")) == (255, 255, 255)
    assert image.getpixel(on_man(state, "F8")) == YELLOW
    assert image.getpixel(phalanx.cell_centre(state, "E8")) == YELLOW  # an older man: no dot
