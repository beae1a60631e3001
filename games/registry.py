"""Maps a game kind name to its rule module.

Modules are imported lazily so that the CLI starts quickly and a game that
fails to import does not take the others down.  Each module exposes ``GAME``,
an instance of ``games.base.Game``.  Each game is a package that keeps its
Game class and ``GAME`` in ``rules.py``, and the package re-exports them.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.base import Game

MODULES = {
    "neighbors": "games.neighbors",
    "fuzzy-borders": "games.fuzzy_borders",
    "phalanx": "games.phalanx",
    "proximity": "games.proximity",
    "pivot-pawns": "games.pivot_pawns",
}


def __getattr__(name: str) -> Any:
    """``UnknownGameKind``, from games.base when asked for: available() loads no rules at all."""
    if name == "UnknownGameKind":
        from games.base import UnknownGameKind

        return UnknownGameKind
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def available() -> list[str]:
    """The kinds whose module is installed, found without importing it: a HELP listing the games
    loads no rule engine."""
    return [kind for kind, module_name in MODULES.items() if importlib.util.find_spec(module_name) is not None]


def get(kind: str) -> Game:
    from games.base import UnknownGameKind
    from games.text import Text

    name = kind.strip().lower().replace("_", "-")
    module_name = MODULES.get(name)
    if module_name is None:
        raise UnknownGameKind(Text("no game called {kind}; known: {known}", kind=repr(kind),
                                   known=", ".join(MODULES)))
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            raise UnknownGameKind(Text("the game {kind} is not installed yet", kind=repr(kind))) from None
        raise
    return module.GAME
