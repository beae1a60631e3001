"""docs/rules/: each game's rules in the project's own words.

A page per game kind, with every numbered ruling of that game and an index
with the general ones; its order examples are played through the game's own
parser; nothing in the repository sends a reader to a folder outside it.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from games import registry, rulings
from gm.present import reports
from support import body, last_outbox_id, order_mail, outbox

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules"
INDEX = RULES / "README.md"
PREFIX = {"fuzzy-borders": "FB", "phalanx": "PH", "proximity": "PX", "pivot-pawns": "PP", "neighbors": "NB"}
PLAYERS = ["ann", "ben"]
# A fenced block of mails, played in order from the opening of the game made with that seed;
# "each": every line is mailed alone, from that opening (ways of writing one order).
ORDERS_FENCE = re.compile(r"```orders seed=(\d+)( each)?")
# A fenced board: the opening board of that seed, as the GM sees it.
BOARD_FENCE = re.compile(r"```board seed=(\d+)")


def page(kind: str) -> str:
    return (RULES / f"{kind}.md").read_text(encoding="utf-8")


def fenced(text: str, opening: re.Pattern) -> list[tuple[re.Match, list[str]]]:
    """Each block whose opening line matches: (that match, its lines up to the closing fence)."""
    blocks, lines = [], text.split("\n")
    for at, line in enumerate(lines):
        found = opening.fullmatch(line)
        if found:
            end = lines.index("```", at + 1)
            blocks.append((found, lines[at + 1:end]))
    return blocks


def opening(kind: str, seed: int):
    rules = registry.get(kind)
    return rules, rules.start(rules.setup(PLAYERS, rules.check_options({}), seed), 0.0)


def test_there_is_a_page_for_every_game_and_every_ruling_prefix():
    assert set(PREFIX) == set(registry.MODULES)
    assert set(PREFIX.values()) | {"G"} == {rulings.prefix_of(name) for name in rulings.RULINGS}
    index = INDEX.read_text(encoding="utf-8")
    for kind in PREFIX:
        assert f"]({kind}.md)" in index, kind
        assert "## Rulings in force" in page(kind), kind


@pytest.mark.parametrize("name", sorted(rulings.RULINGS))
def test_every_numbered_ruling_is_named_in_the_rules_pages(name):
    prefix = rulings.prefix_of(name)
    where = INDEX if prefix == "G" else RULES / f"{next(k for k, p in PREFIX.items() if p == prefix)}.md"
    # \b: FB1 must stand on its own, not inside FB10.
    assert re.search(rf"\b{name}\b", where.read_text(encoding="utf-8")), f"{name} not in {where.name}"


@pytest.mark.parametrize("kind", sorted(PREFIX))
def test_every_order_example_is_accepted_by_the_games_parser(kind):
    blocks = fenced(page(kind), ORDERS_FENCE)
    assert blocks, f"{kind}.md has no orders block"
    for fence, lines in blocks:
        rules, start = opening(kind, int(fence.group(1)))
        state = start
        for line in lines:
            if fence.group(2):
                state = start
            player, _, text = line.partition(": ")
            assert player in PLAYERS, line
            order = rules.parse_order(state, player, text)  # raises on a refused example
            state = rules.submit(state, player, order, 0.0).state
            if rules.ready(state, 0.0):
                state = rules.close_turn(state, 0.0).state


@pytest.mark.parametrize("kind", sorted(PREFIX))
def test_every_board_shown_is_the_opening_of_its_seed(kind):
    for fence, lines in fenced(page(kind), BOARD_FENCE):
        rules, state = opening(kind, int(fence.group(1)))
        assert "\n".join(lines) == rules.render_board(state, None).rstrip("\n")


def test_nothing_in_the_repository_points_outside_it():
    # Built from parts so that this file does not name what it looks for.  (The tests that
    # compare games/rulings.py with the RULINGS file where one is at hand name its path; they skip
    # without it, and no reader is sent there.)
    outside = ("../" + "shared", "shared/" + "rules")
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    checked = 0
    for name in tracked.decode().split("\0"):
        path = ROOT / name
        if not name or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # pictures and other binary files
        checked += 1
        for needle in outside:
            assert needle not in text, f"{name} mentions {needle}"
    assert checked > 100


def test_the_readme_links_the_rules_pages():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "](docs/rules/)" in readme
    for kind in PREFIX:
        assert f"](docs/rules/{kind}.md)" in readme, kind


@pytest.mark.parametrize("kind", sorted(PREFIX))
def test_each_games_help_names_its_rules_page(kind):
    text = reports.render_text("help", game=registry.get(kind), game_id="g1", kinds=[], commands=[], press=None)
    assert f"docs/rules/{kind}.md in the gm repository" in " ".join(text.split())
    assert (RULES / f"{kind}.md").is_file()


def test_help_by_mail_names_the_rules_page(engine, nb_game):
    start = last_outbox_id(engine)
    engine.ingest(order_mail("ada@example.org", "HELP", game_id="nb1", password=nb_game["ada"]))
    (reply,) = outbox(engine, start)
    assert "docs/rules/neighbors.md in the gm repository" in " ".join(body(reply).split())
