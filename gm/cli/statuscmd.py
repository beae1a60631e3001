"""``gm status [--json]``: the running gm at a glance; exit 1 when unhealthy, so it serves as the
health check of a unit or container (gm.service.outgoing.status says what unhealthy means)."""

from __future__ import annotations

import json

import typer

from gm.cli.common import app, echo, open_engine
from gm.core import times


def stamp(at: float | None, now: float) -> str:
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


@app.command()
def status(as_json: bool = typer.Option(False, "--json", help="print the status as JSON")):
    """Daemons alive, last beat, inbox backlog, outbox, bouncing addresses, next deadlines, errors;
    exits 1 when unhealthy."""
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
    raise typer.Exit(0 if shown["healthy"] else 1)
