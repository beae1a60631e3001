"""A function named in a table and imported when first called.

The tables of gm name many functions: the steps a mail passes, the mail
commands HELP lists.  Naming each by its module and name, not importing it,
lets a mail that needs few of them (a robot's, a stranger's HELP) load only
those: what a player's order needs loads with the first order.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable


def later(module: str, name: str) -> Callable[..., Any]:
    """The function ``name`` of ``module``, imported at its first call; it bears that name."""
    def call(*args: Any, **kwargs: Any) -> Any:
        function: Callable[..., Any] = getattr(importlib.import_module(module), name)
        return function(*args, **kwargs)
    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"{module}.{name}, imported at its first call."
    return call
