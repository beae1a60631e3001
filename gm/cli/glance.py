"""The commands a GM and scripts run most to look: gm list, gm show, gm status.

Plain functions on gm.cli.base, returning the exit status: gm.cli.plain runs them
without the CLI framework, and their Typer commands (gm.cli.play, gm.cli.statuscmd)
call them for every other form of the line.
"""

from __future__ import annotations

import json
import time

from gm.cli.base import echo, open_engine, open_store, run


def list_games() -> int:
    """gm list: every game, its kind, status, turn and players (the store alone, no service)."""
    store = open_store()
    rows = store.games.every_game()
    if not rows:
        echo("no games yet (start one with: gm new neighbors --id nb1 --player ...)")
        return 0
    for row in rows:
        latest = store.turns.latest_state(row.id)  # None: an open game, not started
        names = ", ".join(p.name for p in store.seats.players(row.id))
        turn = latest.turn if latest else "-"
        echo(f"{row.id:<12} {row.kind:<14} {row.status:<9} turn {turn:<4} {names}")
    return 0


def show_json(view, now: float) -> dict:
    """gm show --json: the game as one JSON object (its state, the players, the clock's banks)."""
    from gm.service.play import clocks

    rules, st = view.rules, view.state
    over = rules.is_over(st)
    to_move = [] if over else rules.to_move(st)
    scores = rules.scores(st)
    return {
        "id": view.id,
        "kind": rules.kind,
        "status": view.status,
        "turn": rules.turn(st),
        "seq": view.seq,  # the change this state is: gm edit --file refuses to save over a later one
        "to_move": to_move,
        "waiting_for": rules.waiting(st) if rules.simultaneous and not over else to_move,
        "players": [{"name": p.name, "email": p.email, "score": scores.get(p.name, 0)}
                    for p in view.players],
        "winners": rules.winners(st) if over else [],
        "legal": rules.legal_orders(st, to_move[0]) if len(to_move) == 1 else None,
        "seed": view.row.seed,
        "options": json.loads(view.row.options),
        "state": rules.dump(st),
        "clock": None if rules.clock_of(st) is None else {  # G10: the seconds left in each bank now
            "option": rules.clock_of(st).spec.text(), "left": clocks.banks_now(view, now)},
    }


def show(game_id: str, as_json: bool = False) -> int:
    """gm show: the current report as the GM sees it, or (``as_json``) show_json's object; the
    store and the game's table alone (no outbox, no mail stack)."""
    from gm.service.table import deadlines, games

    store = open_store()
    view = run(games.load, store, game_id)
    if as_json:
        echo(json.dumps(show_json(view, time.time()), indent=2, sort_keys=True))
        return 0
    echo(deadlines.report_text(store, view, None, [], time.time()), nl=False)
    if view.rules.clock_of(view.state) is None:  # no banks to show (and no clock module to load)
        return 0
    from gm.service.play import clocks

    lines = clocks.show_lines(view, time.time())  # G10: the banks as they stand now
    if lines:
        echo("\n".join(["", *lines]))
    return 0


def stamp(at: float | None, now: float) -> str:
    from gm.core import times  # gm status's alone (times loads the rules' durations)

    return "never" if at is None else f"{times.format_stamp(at)} ({times.format_span(abs(now - at))} " + (
        "ago)" if at <= now else "from now)")


def backlog(shown: dict) -> str:
    """The inbox backlog the last poll left, and what it handled."""
    figures = shown["inbox_backlog"]
    if figures is None:
        return "not measured (no live daemon has polled the inbox)"
    text = f"{figures['left']} left in the inbox after the last poll, which handled {figures['handled']}"
    if figures["since"] is not None:
        text += f"; mail left after every poll since {stamp(figures['since'], shown['now'])}"
    return text


def status(as_json: bool = False) -> int:
    """gm status: daemons alive, last beat, inbox backlog, outbox, bouncing addresses, next
    deadlines, errors; the exit status 1 when unhealthy (gm.service.outgoing.status)."""
    from gm.service.outgoing import status as status_service

    engine = open_engine(create=False)
    shown = status_service.gather(engine)
    if as_json:
        echo(json.dumps(shown, indent=2, sort_keys=True))
    else:
        now = shown["now"]
        echo(f"health:     {'ok' if shown['healthy'] else 'UNHEALTHY'}")
        for problem in shown["problems"]:
            echo(f"  - {problem}")
        alive = sum(1 for d in shown["daemons"] if d["alive"])
        echo(f"daemons:    {alive} alive of {len(shown['daemons'])}; last beat {stamp(shown['last_beat'], now)}")
        for d in shown["daemons"]:
            took = (f"; took over from {d['took_over_from']} at {stamp(d['took_over_at'], now)}"
                    if d["took_over_from"] else "")
            echo(f"  {d['daemon_id']}: {'alive' if d['alive'] else 'not alive'}, "
                 f"last seen {stamp(d['last_seen'], now)}{took}")
        if shown["inbox_unread"] is not None:
            echo(f"inbox:      {shown['inbox_unread']} unread in the Maildir")
        echo(f"backlog:    {backlog(shown)}")
        box = shown["outbox"]
        echo(f"outbox:     {box['queued']} queued, {box['held']} held, {box['failed']} failed, {box['sent']} sent; "
             f"oldest queued {stamp(box['oldest_queued'], now)}")
        echo(f"bouncing:   {', '.join(shown['bouncing']) or 'none'}")
        echo(f"errors:     {shown['errors_last_hour']} in the last hour")
        for due in shown["next_deadlines"]:
            echo(f"next:       {due['game_id']} at {stamp(due['due'], now)}")
    return 0 if shown["healthy"] else 1
