"""What became of the mail gm sent: ``gm players [--bouncing | --clear X -m WHY]`` and
``gm deliveries ADDRESS``.

``gm outbox`` (gm.cli.play) shows each message's delivery state; these show the
addresses: which bounce and why (gm.service.outgoing.delivery_state), the away messages seen from
seats a game waits for (gm.service.intake.away), and one address's history.
Both begin with the mail held because the server refuses gm itself (gm.service.outgoing.holding).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import typer

from gm.cli.common import BY, WHY, app, echo, fail, open_engine, show_holds

if TYPE_CHECKING:
    from gm.store.gamerows import AwayNoticeRow

AWAY_SUBJECT_SHOWN = 60  # characters of an away message's subject `gm players` shows


@app.command()
def players(game_id: Optional[str] = typer.Argument(None, help="one game (default: every game)"),
            bouncing: bool = typer.Option(False, "--bouncing", help="only the addresses whose mail bounces"),
            clear: Optional[str] = typer.Option(None, "--clear", metavar="ADDRESS",
                                                help="end ADDRESS's bouncing state by hand and send its held "
                                                     "mail; 'sender' or '@domain': end that hold"),
            why: Optional[str] = WHY, by: Optional[str] = BY):
    """List the players and the delivery state of their addresses (ok, soft-failing, bouncing),
    and under a seat the last away message its address sent while a game waited for it."""
    from gm.core import times
    from gm.service.outgoing import delivery_state
    from gm.service.play.lifecycle import default_actor

    engine = open_engine()
    now = engine.clock()
    if clear is not None:
        if not why:
            fail("--clear needs -m WHY (it is recorded)")
        echo(delivery_state.clear_by_hand(engine, clear, why, by or default_actor()))
        return
    show_holds(engine)
    if bouncing:
        rows = delivery_state.bouncing(engine)
        if not rows:
            echo("no address is bouncing")
        for row in rows:
            seats = ", ".join(f"{name} in {game}" for game, name in row["seats"]) or "no seat"
            echo(f"{row['address']}  bouncing since {times.format_stamp(row['since'])} ({seats})")
            echo(f"    {row['reason']}")
        return
    games = [game_id] if game_id else [g.id for g in engine.store.games.every_game()]
    for gid in games:
        away = {row.player: row for row in engine.store.timers.away_notices_in(gid)}
        for player in engine.store.seats.players(gid):
            state = engine.store.delivery.address_state(player.email)
            shown = state.state if state is not None else "ok"
            if state is not None and state.state != "ok":
                shown += f" since {times.format_span(now - state.since)} ago"
            echo(f"{gid:<12} {player.name:<16} {player.email:<32} {shown}"
                 + ("" if player.active else " (left the game)"))
            if player.name in away:
                echo(away_line(away[player.name], now))


def away_line(row: AwayNoticeRow, now: float) -> str:
    """The line under a seat whose address sent an out-of-office while the game waited for it
    (gm.service.intake.away): when the last came, its subject cut short, when the seat was told."""
    from gm.core import times

    subject = row.subject if len(row.subject) <= AWAY_SUBJECT_SHOWN else row.subject[:AWAY_SUBJECT_SHOWN - 3] + "..."
    told = f"; told of ABSENCE {times.format_stamp(row.last_told)}" if row.last_told is not None else ""
    return (f"{'':<12} away message {times.format_stamp(row.last_seen)} "
            f"({times.format_span(now - row.last_seen)} ago): {subject!r}{told}")


@app.command()
def deliveries(address: str, limit: int = typer.Option(50, help="at most this many events, newest first")):
    """An address's delivery state and history: each refusal and bounce, its message, the server's words."""
    from gm.core import addresses, times

    engine = open_engine()
    address = addresses.normal(address) or address  # as gm keeps it: an IDN domain in A-label form
    state = engine.store.delivery.address_state(address)
    if state is None:
        echo(f"{address}: ok (no failure recorded)")
    else:
        echo(f"{address}: {state.state} since {times.format_stamp(state.since)}"
             + (f": {state.reason}" if state.reason else ""))
    for event in engine.store.delivery.delivery_events(address, limit):
        kind = "permanent" if event.permanent else "temporary"
        message = f"outbox #{event.outbox_id}" if event.outbox_id is not None else "no message"
        if event.subject:
            message += f" {event.subject[:50]!r}"
        echo(f"  {times.format_stamp(event.at)}  {kind:<9} {event.source:<6} {message}")
        echo(f"      {event.words}")
