"""RULINGS.md as the tests read it: the source the games' HELP texts must quote."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

_CANDIDATES = (
    Path(__file__).resolve().parents[3] / "shared" / "RULINGS.md",
    Path("/work/shared/RULINGS.md"),
)
_ITEM = re.compile(r"^- ([A-Z]+\d+)\. (.*?)(?=^- |^#|\Z)", re.M | re.S)


def rulings_md() -> dict[str, str]:
    """Every numbered ruling of RULINGS.md, white space folded; skip when it is not there."""
    for path in _CANDIDATES:
        if path.exists():
            return {name: " ".join(body.split()) for name, body in _ITEM.findall(path.read_text())}
    pytest.skip("RULINGS.md not available")


def check_help_quotes_rulings(text: str, prefix: str) -> None:
    """Every G ruling and every ruling of ``prefix`` stands in ``text`` word for word."""
    assert all(len(line) <= 72 for line in text.splitlines())
    flat = " ".join(text.split())
    wanted = {name: body for name, body in rulings_md().items()
              if name.rstrip("0123456789") in ("G", prefix)}
    assert {"G1", "G2", "G3", "G4", "G5", f"{prefix}1"} <= set(wanted)
    for name, body in wanted.items():
        assert f"{name}. {body}" in flat, name
