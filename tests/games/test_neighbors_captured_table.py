"""Neighbors' table of captured pieces: each language's piece names whole in their columns,
the counts under them, within 72 columns; English as it always was."""

from __future__ import annotations

import pytest

from games.registry import get
from gm_parts import ReportInput, render_report

NAMES = {
    "en": ["queen", "rook", "bishop", "knight", "ferz"],
    "de": ["Dame", "Turm", "Läufer", "Springer", "Fers"],
    "fr": ["dame", "tour", "fou", "cavalier", "fers"],
}
HEADING = {"en": "Captured", "de": "Geschlagen", "fr": "Prises"}


def table(language: str) -> list[str]:
    """The heading line and the players' lines of a report after two captures."""
    game = get("neighbors")
    state = game.setup(["ada", "bob"], {}, 7)
    for _ in range(2):
        player = game.to_move(state)[0]
        order = game.legal_orders(state, player)[0]
        state = game.submit(state, player, game.parse_order(state, player, order), 0.0).state
    text = render_report(ReportInput("t1", game, state, "ada", [], language=language))
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(HEADING[language]))
    return lines[start:start + 3]


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_each_piece_name_is_whole_and_its_counts_under_it(language):
    heading, *rows = table(language)
    assert heading.split()[1:] == NAMES[language]
    assert [row.split()[0] for row in rows] == ["ada", "bob"]
    for row in rows:
        assert len(row) == len(heading) - 1 and len(heading) <= 72
        for name, count in zip(NAMES[language], row.split()[1:]):
            end = heading.index(name) + len(name) - 1  # a count ends a column before its name
            assert row[:end].endswith(count) and row[end - len(count) - 1] == " "


def test_english_keeps_its_columns_of_seven():
    heading, *rows = table("en")
    assert heading == "Captured" + " " * 11 + "".join(f"{name:>7}" for name in NAMES["en"])
    assert all(len(row) == 18 + 5 * 7 for row in rows)
