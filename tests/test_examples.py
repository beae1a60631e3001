"""docs/examples/: one of each mail gm sends, written by scripts/examples.py, read as a
player reads it.  The command writes the same files on every run, the files in the repository are
what it writes now, and no mail there says its footer twice or has a prose line over 78 columns
(boards and tables, such as the full TRAIL table, are drawn to their own width and never wrapped)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "examples"
SCRIPT = ROOT / "scripts" / "examples.py"
PROSE_WIDTH = 78
FOOTER_LINES = ("To send orders, reply to this mail", "To send orders, mail a line GAME",
                "Send HELP for the order format", "Send a mail with the single word HELP")
# A board or table row: cells set in columns (a run of two spaces or more between two marks), or
# a row of one- and two-character cells (a board drawn with single spaces).
COLUMNS = re.compile(r"\S {2,}\S")


def written(out: Path) -> dict[str, str]:
    subprocess.run([sys.executable, str(SCRIPT), str(out)], check=True, capture_output=True, cwd=ROOT)
    return {p.name: p.read_text() for p in sorted(out.iterdir())}


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> dict[str, str]:
    return written(tmp_path_factory.mktemp("examples"))


def is_board_or_table(line: str) -> bool:
    cells = line.split()
    return bool(COLUMNS.search(line.strip())) or (len(cells) > 3 and all(len(c) <= 2 for c in cells))


def test_the_command_writes_the_same_files_each_run(fresh, tmp_path):
    again = written(tmp_path / "again")
    assert again == fresh  # seeded games, fixed clock, seeded passwords


def test_docs_examples_are_what_the_command_writes_now(fresh):
    kept = {p.name: p.read_text() for p in sorted(DOCS.iterdir())}
    stale = sorted(name for name in set(kept) | set(fresh) if kept.get(name) != fresh.get(name))
    assert stale == [], f"run: .venv/bin/python scripts/examples.py (changed: {stale[:5]})"


def test_every_mail_template_is_shown(fresh):
    text = "\n".join(fresh.values())
    for words in ("Welcome to", "report", "was empty", "Not read (your seat passed on)",
                  "You were removed", "Your seat was given away", "The full trail tables",
                  "This is the last answer gm sends", "Press in game", "sealed", "CONFIRM"):
        assert words in text, words


@pytest.mark.parametrize("where", ["fresh", "docs"])
def test_no_example_says_its_footer_twice(fresh, where):
    mails = fresh if where == "fresh" else {p.name: p.read_text() for p in DOCS.iterdir()}
    for name, text in mails.items():
        lines = text.splitlines()
        assert lines.count("--") <= 1, name
        for start in FOOTER_LINES:
            assert sum(line.startswith(start) for line in lines) <= 1, (name, start)


@pytest.mark.parametrize("where", ["fresh", "docs"])
def test_no_prose_line_is_over_78_columns(fresh, where):
    mails = fresh if where == "fresh" else {p.name: p.read_text() for p in DOCS.iterdir()}
    long = [(name, line) for name, text in mails.items() for line in text.splitlines()
            if len(line) > PROSE_WIDTH and not is_board_or_table(line)]
    assert long == []


def test_what_counts_as_a_board_or_table():
    assert is_board_or_table(" 6  F F Q N R F Q  6")
    assert is_board_or_table("  ada                  @        1   39      0")
    assert not is_board_or_table("Your orders were not read: the password is wrong for game nb1. Use the")
