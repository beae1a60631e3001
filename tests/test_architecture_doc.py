"""docs/architecture.md holds to the code where a test can: its layer list is the import-linter
contract's, its rooms table is gm/service's rooms in the contract's order, its judging steps are
gm.service.intake.judging.STEPS in order, and every file or folder of gm/, games/ or templates/
it names exists (so "where to add" sends nobody to a file that is not there)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "architecture.md"


def page() -> str:
    return PAGE.read_text(encoding="utf-8")


def contract(container: str) -> list[str]:
    """The layers of the import-linter layers contract on ``container``, as pyproject.toml says."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (found,) = [c for c in config["tool"]["importlinter"]["contracts"]
                if c["type"] == "layers" and c["containers"] == [container]]
    return found["layers"]


def section(title: str) -> str:
    """The text under the heading ``## title``, up to the next heading of that level."""
    return page().split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def first_fence(text: str) -> list[str]:
    return text.split("```\n", 2)[1].splitlines()


def test_the_layer_list_is_the_contracts():
    layers = []
    for line in first_fence(section("Layers")):
        if line.startswith("gm/"):  # "gm/present | gm/mail | gm/store", then what it holds
            words = re.match(r"(gm/\w+(?: \| gm/\w+)*)", line).group(1)
            layers.append(words.replace("gm/", ""))
    assert layers == contract("gm")
    assert first_fence(section("Layers"))[-1].startswith("games/")  # below them all


def test_the_rooms_table_is_gm_services_rooms_in_the_contracts_order():
    rows = [line for line in section("The rooms of `gm/service`").splitlines() if line.startswith("| `")]
    rooms = [re.match(r"\| `(\w+)/`", row).group(1) for row in rows]
    in_order = [room for layer in contract("gm.service") for room in layer.split(" | ")]
    assert rooms == in_order
    folders = sorted(p.parent.name for p in (ROOT / "gm" / "service").glob("*/__init__.py"))
    assert sorted(rooms) == folders


def test_every_room_lists_exactly_its_modules():
    for row in section("The rooms of `gm/service`").splitlines():
        if found := re.match(r"\| `(\w+)/` \|.*\| ([\w, ]+) \|$", row):
            listed = sorted(found.group(2).replace(" ", "").split(","))
            here = sorted(p.stem for p in (ROOT / "gm" / "service" / found.group(1)).glob("*.py")
                          if p.stem != "__init__")
            assert listed == here, found.group(1)


def test_every_path_the_page_names_exists():
    named = set(re.findall(r"(?<![\w/.])((?:gm|games|templates)/[\w./<>-]*)", page()))
    assert len(named) > 30
    for path in sorted(named):
        path = path.rstrip(".")
        pattern = re.sub(r"<\w+>", "*", path)  # templates/<kind>/report.txt.j2: some kind's
        assert list(ROOT.glob(pattern)) if pattern != path else (ROOT / path).exists(), path


def test_the_judging_steps_are_judgings_steps_in_order():
    from gm.service.intake import judging

    block = page().split("\n<!-- judging steps -->\n```\n", 1)[1].split("\n```", 1)[0]
    listed = [line.split()[0] for line in block.splitlines() if line.strip()]
    assert listed == [step.__name__ for step in judging.STEPS]
