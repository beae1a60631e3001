"""games.rulings: the one copy of RULINGS.md's numbered rulings that HELP texts quote."""

from __future__ import annotations

import pytest

from games import registry, rulings
from rulings_md import check_help_quotes_rulings, rulings_md

PREFIX = {"neighbors": "NB", "fuzzy-borders": "FB", "phalanx": "PH", "proximity": "PX",
          "pivot-pawns": "PP"}


def test_the_copy_matches_rulings_md_exactly():
    source = rulings_md()
    assert list(rulings.RULINGS) == list(source)  # every numbered item, in order
    for name, body in source.items():
        assert rulings.RULINGS[name] == body, name


def test_rulings_for_a_prefix_set():
    chosen = rulings.rulings("G", "PP")
    assert list(chosen) == [f"G{i}" for i in range(1, 12)] + [f"PP{i}" for i in range(1, 7)]
    assert chosen["G2"] == "A tie for the win is a shared win; the report says so."
    assert list(rulings.rulings("PX"))[-1] == "PX10"  # PX1 does not take PX10 for PX1x
    with pytest.raises(KeyError):
        rulings.rulings("ZZ")


@pytest.mark.parametrize("kind", sorted(PREFIX))
def test_every_game_help_quotes_the_general_rulings_and_its_own(kind):
    assert set(PREFIX) == set(registry.MODULES)
    check_help_quotes_rulings(registry.get(kind).help_text(), PREFIX[kind])
