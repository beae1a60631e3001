"""What every override of the game master shares: who made it, why, its history line, the
lines that tell the players, and the game's clock set again after it."""

from __future__ import annotations

import os

from games.text import Text
from gm.core.model import GameView, ServiceError
from gm.service.context import Context
from gm.service.table import deadlines, games

NO_REASON = "(no reason given)"


def default_actor() -> str:
    """Who made an override when the command line does not say: gm:<login name>."""
    try:
        import getpass  # pwd and termios: only when no GM_USER names the actor

        user = os.environ.get("GM_USER") or getpass.getuser()
    except Exception:  # no login name in a container
        user = "unknown"
    return f"gm:{user}"


def record(ctx: Context, view: GameView, action: str, detail: str, who: str | None,
           why: str | None) -> None:
    """The history line of an override: who, when, what and why."""
    text = detail + ("; " if detail else "") + f"why: {why or NO_REASON}"
    ctx.store.history.log(view.id, view.turn, who or default_actor(), action, text, ctx.clock())


def gm_lines(text: str, why: str | None) -> list[str]:
    """A notice's lines: what the game master did, and their reason if they gave one."""
    return [text] + ([Text("Reason: {why}", why=why)] if why else [])


def required_reason(why: str | None, command: str) -> str:
    """The reason an override must give (stripped); ServiceError naming the command if none."""
    if why is None or not why.strip():
        raise ServiceError(Text("give the reason: {command} -m REASON (it is recorded and told to the player)",
                                command=command))
    return why.strip()


def reschedule(ctx: Context, game_id: str) -> None:
    """After a change of status, seats or settings: when the game next needs the clock."""
    deadlines.schedule(ctx.store, games.load(ctx.store, game_id))
