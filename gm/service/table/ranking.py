"""How a game that ended came out, as every reader of it takes it: the winners the game master
declared (gm end --winner, a forfeit), else the rules'; the final ranking of RULINGS G11."""

from __future__ import annotations

import json

from gm.core.model import GameView
from gm.store import Store


def declared_winners(store: Store, game_id: str) -> list[str] | None:
    """The winners the game's result row names (the GM's or a forfeit's); None: as the rules say."""
    row = store.results.result_of(game_id)
    return json.loads(row.winners) if row is not None and row.winners else None


def final_ranking(store: Store, view: GameView) -> list[list[str]]:
    """The game's final standings as tiers of seat names, best first (RULINGS G11)."""
    return view.rules.ranking(view.state, declared_winners(store, view.id))
