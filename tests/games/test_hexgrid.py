"""The shared hex grid (games/hexgrid.py) against the facts of RULINGS FB1."""

from collections import deque

import pytest

from games.hexgrid import (
    AXES,
    DIRECTIONS,
    CellNameError,
    HexGrid,
    add,
    direction_between,
    distance,
    rotate,
    rotate60,
)

G10 = HexGrid(10)


def test_fb1_side_10_has_271_cells():
    assert len(G10.cells) == 271
    assert len(set(G10.cells)) == 271


@pytest.mark.parametrize("side", range(2, 14))
def test_cell_count_is_centred_hexagonal_number(side):
    # 1 + 6 + 12 + ... + 6(N-1) = 3N(N-1) + 1
    assert len(HexGrid(side).cells) == 3 * side * (side - 1) + 1


def test_fb1_centre_is_j10():
    assert G10.name((0, 0)) == "J10"
    assert G10.parse("J10") == (0, 0)


def test_fb1_row_1_runs_j_to_s():
    assert [G10.name(c) for c in G10.row_cells(1)] == [f"{ch}1" for ch in "JKLMNOPQRS"]


def test_fb1_diagonal_a_holds_rows_10_to_19():
    rows = sorted(int(G10.name(c)[1:]) for c in G10.cells if G10.name(c)[0] == "A")
    assert rows == list(range(10, 20))
    # and the north-east edge S holds rows 1..10
    rows_s = sorted(int(G10.name(c)[1:]) for c in G10.cells if G10.name(c)[0] == "S")
    assert rows_s == list(range(1, 11))


def test_cells_are_listed_row_by_row_west_to_east():
    names = [G10.name(c) for c in G10.cells]
    assert names[:3] == ["J1", "K1", "L1"]
    assert names[-1] == "J19"
    assert names[-10] == "A19"


def test_names_round_trip_and_parse_is_forgiving():
    for cell in G10.cells:
        assert G10.parse(G10.name(cell)) == cell
    assert G10.parse("  k 10 ") == (1, 0)
    assert G10.parse("s1") == (9, -9)


@pytest.mark.parametrize("text", ["T1", "A1", "J20", "J0", "K", "10", "hello", "", "JJ10"])
def test_parse_refuses_what_is_no_cell(text):
    with pytest.raises(CellNameError):
        G10.parse(text)


def test_distances_of_known_pairs():
    p = G10.parse
    assert distance(p("J10"), p("J10")) == 0
    assert distance(p("J10"), p("K10")) == 1
    assert distance(p("A10"), p("S10")) == 18  # across the board along row 10
    assert distance(p("J1"), p("J19")) == 18
    assert distance(p("J10"), p("S1")) == 9  # centre to a corner
    assert distance(p("I9"), p("J13")) == 5  # dq 1, dr 4, dq+dr 5


def test_distance_equals_breadth_first_steps():
    grid = HexGrid(5)
    start = grid.parse("C7")
    steps = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for other in grid.neighbours(cell):
            if other not in steps:
                steps[other] = steps[cell] + 1
                queue.append(other)
    assert len(steps) == len(grid.cells)
    for cell, n in steps.items():
        assert distance(start, cell) == n


def test_neighbours_centre_edge_corner():
    assert len(G10.neighbours((0, 0))) == 6
    # FB1 offsets (+1,0) (-1,0) (0,+1) (0,-1) (+1,-1) (-1,+1) from J10
    assert sorted(G10.name(c) for c in G10.neighbours(G10.parse("J10"))) == sorted(
        ["K10", "I10", "J11", "J9", "K9", "I11"]
    )
    assert len(G10.neighbours(G10.parse("J1"))) == 3  # a corner
    assert len(G10.neighbours(G10.parse("M1"))) == 4  # the top edge
    for cell in G10.cells:
        for other in G10.neighbours(cell):
            assert distance(cell, other) == 1


def test_directions_come_in_opposite_pairs():
    assert len(set(DIRECTIONS)) == 6
    for d in DIRECTIONS:
        assert (-d[0], -d[1]) in DIRECTIONS
    assert len(AXES) == 3


def test_rings_and_within():
    centre = (0, 0)
    for k in range(1, 10):
        assert len(G10.ring(centre, k)) == 6 * k
    assert len(list(G10.within(centre, 4))) == 60
    # off-board cells are left out: a corner keeps 2d+1 cells at distance d
    corner = G10.parse("J1")
    assert [len(G10.ring(corner, d)) for d in range(1, 5)] == [3, 5, 7, 9]
    assert all(d == distance(corner, c) for c, d in G10.within(corner, 4))


def test_lines_run_to_the_edge():
    east = [G10.name(c) for c in G10.line(G10.parse("J10"), (1, 0))]
    assert east == [f"{ch}10" for ch in "KLMNOPQRS"]
    assert list(G10.line(G10.parse("S10"), (1, 0))) == []


def test_direction_between():
    p = G10.parse
    assert direction_between(p("J10"), p("M10")) == ((1, 0), 3)
    assert direction_between(p("J10"), p("J7")) == ((0, -1), 3)
    assert direction_between(p("J10"), p("K9")) == ((1, -1), 1)
    assert direction_between(p("J10"), p("K8")) is None
    assert direction_between(p("J10"), p("J10")) is None


def test_rotations():
    k10 = G10.parse("K10")
    # clockwise on the page: east (K10) turns to south-east (J11)
    assert G10.name(rotate60(k10)) == "J11"
    for cell in G10.cells:
        assert rotate(cell, 6) == cell
        assert rotate(cell, 3) == (-cell[0], -cell[1])
        assert rotate(cell, 1) == rotate60(cell)
        assert G10.exists(rotate(cell, 2))
        assert distance((0, 0), rotate(cell, 1)) == distance((0, 0), cell)
    assert add((1, 2), (0, 1), times=3) == (1, 5)


def _drawn_cells(text: str) -> int:
    return sum(line[3:].count("#") for line in text.split("\n"))


@pytest.mark.parametrize("side,width", [(10, 1), (13, 1), (8, 3), (5, 3), (2, 3)])
def test_render_fits_72_columns_with_every_cell_and_row(side, width):
    grid = HexGrid(side)
    text = grid.render(lambda c: "#" * width, width)
    lines = text.split("\n")
    assert max(len(line) for line in lines) <= 72
    assert _drawn_cells(text) == len(grid.cells) * width
    for row in range(1, 2 * side):
        assert lines[row].startswith(f"{row:>2}")
        assert lines[row].rstrip().endswith(str(row))


def test_render_side_10_places_diagonal_letters_and_touching_cells():
    lines = G10.render(lambda c: G10.name(c)[0], 1).split("\n")
    # The header row carries the letters of the diagonals that start in row 1,
    # each straight above its diagonal's head (no other cell is as near).
    assert lines[0].split() == list("JKLMNOPQRS")
    assert lines[0].index("J") == lines[1].index("J", 3)
    assert lines[0].index("S") == lines[1].index("S", 3)
    # Rows 2..10 start with the letter of their first cell's diagonal, one
    # cell to its left on the same line: "10 A A B ..." (label, then A10).
    for row in range(2, 11):
        assert lines[row].split()[1:3] == [lines[row].split()[2]] * 2
    assert lines[10].startswith("10 A A B")
    # A row's cells are one column apart from the next row's: neighbours touch.
    assert abs(lines[10].index("A", 4) - lines[9].index("B", 5)) == 1


def test_render_refuses_even_width():
    with pytest.raises(ValueError):
        G10.render(lambda c: "..", 2)


def test_side_out_of_range():
    with pytest.raises(ValueError):
        HexGrid(1)
    with pytest.raises(ValueError):
        HexGrid(14)
