"""RATINGS [<kind>] by mail: the ladder of a game kind, or every rated kind's first ten.

Anyone may ask (no password, no GAME line), rate-limited as a stranger's HELP; the reply shows
public names (SET NAME), ratings, rated games and the last game's date, never an address
(gm.service.table.ratings.ladders_text, which `gm ratings` shows too).
"""

from __future__ import annotations

from games import registry
from games.text import Text
from gm.core.model import GameView
from gm.mail.inbound import Inbound
from gm.service.outgoing.answers import done, refuse
from games.text import in_lines
from gm.service.table import ratings
from gm.service.context import Context


def ratings_command(ctx: Context, view: GameView | None, player: object, args: str, inbound: Inbound) -> None:
    """RATINGS, or RATINGS <kind>."""
    words = args.split()
    kind = ratings.kind_named(words[0]) if len(words) == 1 else None
    if len(words) > 1 or (words and kind is None):
        refuse(ctx, inbound, None, Text("Ratings"), Text(
            "RATINGS {args}: write RATINGS for every game's ladder, or RATINGS <game> for one: {kinds}.",
            args=args[:60], kinds=", ".join(registry.available())))
        return
    text = in_lines(ratings.ladders_text(ctx.store, kind))
    done(ctx, inbound, None, Text("Ratings"), text, kind="help" if player is None else "reply")
