"""The commands that run games: new, list, show, order, process, run, outbox, inbox, demo (ingest: pipe)."""

from __future__ import annotations

import signal
import threading
from typing import List, Optional

import typer

from gm.cli import glance
from gm.cli.common import (BY, WHY, app, echo, fail, load_config, log_to_config_file, open_engine, parse_pairs, run,
                           show_holds)


@app.command()
def new(
    kind: str = typer.Argument(..., help="neighbors, fuzzy-borders, phalanx, proximity, pivot-pawns"),
    game_id: str = typer.Option(..., "--id", help="a short id players will type, e.g. nb1"),
    player: List[str] = typer.Option([], "--player", "-p", help="NAME=EMAIL, in seat order"),
    seed: Optional[int] = typer.Option(None, help="seed for every random event (default: random)"),
    option: List[str] = typer.Option([], "--option", "-o", help="an option key=value: the kind's own or a "
                                     "service option (deadline, reminder, grace, late, press...); every "
                                     "one, with its default and meaning: gm options KIND"),
    open_seats: Optional[int] = typer.Option(None, "--open", help="open the game with this many seats "
                                             "for players to take by mail (JOIN <id> <name>)"),
    min_seats: Optional[int] = typer.Option(None, "--min", help="with --open: gm start may start it "
                                            "once this many have joined"),
    language: Optional[str] = typer.Option(None, "--language", help="en, de or fr: every seat's mail in "
                                           "that language (a player changes theirs: SET LANGUAGE); "
                                           "default: each address's own, else English"),
):
    """Start a game and mail each player a welcome with their password (or, with --open, open
    one whose seats players take by mail; it starts when they are all taken).  Every option a
    kind takes (-o KEY=VALUE), with its default and meaning: gm options KIND."""
    from gm.service.people import lobby
    from gm.service.play import lifecycle

    code = None
    if language is not None:
        from gm.core.i18n import language_code

        code = language_code(language)
        if code is None:
            fail(f"--language {language}: gm writes en, de or fr")
    engine = open_engine()
    options = dict(parse_pairs(option, "--option"))
    if open_seats is not None:
        if player:
            fail("give either --player (a game that starts now) or --open (seats to fill), not both")
        if code is not None:
            fail("--language goes with --player (a player who joins by mail sets their own: SET LANGUAGE)")
        echo(run(lobby.open_game, engine, kind, game_id, open_seats, min_seats, seed, options,
                 lifecycle.default_actor()))
        return
    if min_seats is not None:
        fail("--min goes with --open")
    if not player:
        fail("name the players (--player NAME=EMAIL) or open the game with --open N")
    run(engine.create_game, kind, game_id, parse_pairs(player, "--player"), seed, options, code)
    echo(f"game {game_id.lower()} started; welcome mails queued (see: gm outbox)")


@app.command("options")
def options_command(kind: str = typer.Argument(..., help="neighbors, fuzzy-borders, phalanx, proximity, "
                                               "pivot-pawns")):
    """Every option gm new -o KEY=VALUE takes for a kind: the game's and the service's, with
    default and meaning."""
    from games import registry
    from gm.core import options as game_options

    rules = run(registry.get, kind)
    echo("\n".join(game_options.describe(f"{rules.title} ({rules.kind})", rules.options)))


@app.command()
def start(game_id: str, why: Optional[str] = WHY, by: Optional[str] = BY):
    """Start an open game now with the players who joined (at least its --min)."""
    from gm.service.play import lifecycle

    echo(run(lifecycle.start_open_game, open_engine(), game_id, who=by, why=why))


@app.command("list")
def list_games():
    """List the games."""
    glance.list_games()


@app.command()
def show(game_id: str, as_json: bool = typer.Option(False, "--json", help="one JSON object")):
    """The current report as the GM sees it."""
    glance.show(game_id, as_json)


@app.command()
def order(game_id: str, text: str, as_name: str = typer.Option(..., "--as", help="the player's name"),
          why: Optional[str] = WHY, by: Optional[str] = BY):
    """Enter orders for a player (the GM's override), through the same path as mail; the
    players are told the game master entered them."""
    from gm.service.play import gmturns, lifecycle

    engine = open_engine()
    outcome = run(gmturns.gm_order, engine, game_id, as_name, text, who=by or lifecycle.default_actor(),
                  why=why)
    if outcome.outcome == "rejected":
        fail(f"refused: {outcome.detail}")
    echo(f"{outcome.outcome}: {outcome.detail}")


@app.command()
def process(game_id: str, why: Optional[str] = WHY, by: Optional[str] = BY):
    """Adjudicate a simultaneous turn now, with the orders that are in."""
    from gm.service.play import gmturns, lifecycle

    engine = open_engine()
    closed = run(gmturns.process, engine, game_id, who=by or lifecycle.default_actor(), why=why)
    echo("turn adjudicated; reports queued" if closed else "nothing to adjudicate")


@app.command("run")
def run_daemon(once: bool = typer.Option(False, "--once", help="process what is there, then exit")):
    """The daemon: read the mailbox, judge, report, deliver.

    A store on a database server that is down is waited for (not with --once).  SIGTERM
    finishes the mail in hand and exits 0."""
    from gm.runtime import daemon
    from gm.service.engine import Engine
    from gm.store import StoreError

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    if once:
        engine = open_engine()
    else:
        conf = load_config()
        log_to_config_file(conf)
        try:
            store = daemon.open_store(conf.database, stop)
        except StoreError as exc:
            fail(str(exc))
        if store is None:
            return  # stopped while waiting
        engine = Engine(store, conf)
    try:
        daemon.run(engine, engine.config, once=once, stop=stop)
    except KeyboardInterrupt:
        echo("stopped")
    finally:
        engine.store.close()


@app.command()
def outbox(all_: bool = typer.Option(False, "--all", help="also list delivered mail")):
    """List mail and its delivery state: queued, sent, held (the address bounces), bounced (with why)."""
    engine = open_engine()
    show_holds(engine)
    rows = engine.store.outbox.outbox_listing(include_delivered=all_)
    if not rows:
        echo("the outbox is empty")
    for row in rows:
        echo(f"#{row.id:<5} {row.status:<7} {row.kind:<8} {row.recipient:<28} "
             f"{row.subject[:60]}")
        if row.last_error and row.status != "sent":  # why it bounced, or why it is being retried
            echo(f"       {row.last_error[:200]}")


@app.command()
def inbox(failed: bool = typer.Option(False, "--failed", help="the messages set aside with an error"),
          retry: Optional[int] = typer.Option(None, "--retry", help="play a set-aside message again"),
          limit: int = typer.Option(50, help="at most this many, newest first")):
    """List received mail and what became of it; list or retry the ones set aside with an error."""
    from gm.service.intake import ingest as ingest_mail

    engine = open_engine()
    if retry is not None:
        outcome = run(ingest_mail.retry, engine, retry)
        echo(f"#{retry}: {outcome.outcome}: {outcome.detail[:200]}")
        return
    rows = engine.store.inbox.inbox_listing(only_failed=failed, limit=limit)
    if not rows:
        echo("no messages set aside" if failed else "the inbox is empty")
    for row in rows:
        detail = (row.detail or "").strip().splitlines()
        echo(f"#{row.id:<5} {row.outcome:<9} {(row.sender or '?')[:28]:<28} "
             f"{(row.subject or '')[:30]:<30} {(detail[-1] if detail else '')[:60]}")


@app.command()
def demo(seed: int = typer.Option(1, help="seed of the demo game")):
    """Play a whole Neighbors game through the inbox and outbox Maildirs."""
    from gm.runtime.demo import play_demo

    play_demo(open_engine(), seed, echo)
