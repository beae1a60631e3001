"""gm forget: the game master has gm forget an address (a player's request by other means than
mail, or the law's), as FORGET ME does once confirmed (gm.service.people.forget); no code is
mailed, and the reason (-m, required) is kept in the history."""

from __future__ import annotations

from typing import Optional

from gm.cli.common import WHY, app, open_engine, run


@app.command()
def forget(address: str, why: Optional[str] = WHY) -> None:
    """Erase an address everywhere gm keeps it (a pseudonym in finished games): gm forget ADDRESS -m WHY."""
    from gm.cli.base import echo
    from gm.service.people import forget as forgetting

    echo(run(forgetting.gm_forget, open_engine(), address, why=why))
