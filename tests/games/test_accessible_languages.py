"""Every game's board for a screen reader (describe, board_table) is said whole in German and
in French: each line and each table cell a Text the catalogues translate, for positions of
seeded random games of every kind (one test for all games, after OpenSpiel's generic test)."""

from __future__ import annotations

import random

import pytest

from games import registry
from games.text import Text, localize
from gm.core.i18n import translations
from support import players_for
from test_all_games import play_step

KINDS = registry.available()


def positions(rules, seeds: int = 3, every: int = 5, most: int = 400):
    """States of seeded random games: the first, every ``every``-th step, and the last."""
    for seed in range(seeds):
        rng = random.Random(seed)
        state = rules.setup(players_for(rules, rng), {}, seed)
        yield state
        for step in range(most):
            if rules.is_over(state):
                break
            state = play_step(rules, state, rng, 1_800_000_000.0 + step)[0]
            if step % every == 0:
                yield state
        yield state


@pytest.mark.parametrize("language", ["de", "fr"])
@pytest.mark.parametrize("kind", KINDS)
def test_every_line_and_cell_is_said_in_german_and_french(kind, language):
    rules, catalogue = registry.get(kind), translations(language)
    for state in positions(rules):
        for viewer in (None, *rules.players(state)[:1]):
            lines = rules.describe(state, viewer)
            header, rows = rules.board_table(state, viewer)
            said = [item for item in [*lines, *header, *(cell for row in rows for cell in row)]
                    if isinstance(item, Text)]
            assert said
            untranslated = [item for item in said if localize(item, catalogue) == item]
            assert not untranslated, untranslated[:3]
