"""The archive site: a static HTML page per game and an index (``gm archive build DIR``).

It renders the data gm.service.audit.archive_data gathers.  A game's page
shows each turn's report as it was mailed (the ASCII board in a <pre>
block), links to the previous and next turn, press sent to ALL and
the final result.  Reports are the ones a player received: sealed orders of
an open turn never appear.
"""

from __future__ import annotations

import os
from pathlib import Path

from gm.core.times import format_stamp
from gm.present.templates import environment


def page_name(game_id: str) -> str:
    return f"game-{game_id}.html"


def build(directory: str | Path, data: list[dict], built_at: float) -> Path:
    """Write the site for the games' ``data`` (gm.service.audit.archive_data); returns the index."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    env = environment(html=True)
    built = format_stamp(built_at)
    for game in data:
        game.setdefault("page", page_name(game["id"]))
        for turn in game["turns"]:  # each turn's picture beside its page, named by game and turn
            turn["image"] = None
            if turn.get("picture"):
                turn["image"] = f"game-{game['id']}-turn-{turn['turn']}.png"
                _write_bytes(directory / turn["image"], turn["picture"])
        html = env.get_template("archive/game.html.j2").render(game=game, built=built)
        _write(directory / game["page"], html)
    _write(directory / "index.html", env.get_template("archive/index.html.j2").render(games=data, built=built))
    _write(directory / "archive.css", env.get_template("archive/archive.css.j2").render())
    return directory / "index.html"


def _write_bytes(path: Path, data: bytes) -> None:
    """Written whole or not at all: a web server never serves half a picture."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
