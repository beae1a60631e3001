"""gm ratings: the ladders of rated games (RULINGS G11), as RATINGS by mail shows them, and a
kind's ratings computed again from its results."""

from __future__ import annotations

from typing import List

import typer

from gm.cli.common import app, echo, fail, open_engine

USAGE = "gm ratings [KIND], or gm ratings recompute KIND"


@app.command()
def ratings(words: List[str] = typer.Argument(None, metavar="[KIND] | recompute KIND",
                                              help="a game kind; or recompute and a game kind")) -> None:
    """Print the ladder of a game kind's rated players (public names, ratings, games, last game),
    or every kind's first ten; `gm ratings recompute KIND` computes that kind's ratings again from
    its rated games' results, in the order they ended."""
    from gm.service.table import ratings as rated

    words = list(words or [])
    again = words[:1] == ["recompute"]
    if again:
        words = words[1:]
    if len(words) > 1 or (again and not words):
        fail(f"write {USAGE}")
    kind = rated.kind_named(words[0]) if words else None
    if words and kind is None:
        fail(f"no game kind {words[0]!r}; write {USAGE}")
    engine = open_engine()
    if again:
        assert kind is not None  # checked above
        with engine.store.write():
            count = rated.recompute(engine.store, kind)
        echo(f"{kind}: the ratings of {count} player{'s' if count != 1 else ''} recomputed")
        return
    for line in rated.ladders_text(engine.store, kind):
        echo(line)
