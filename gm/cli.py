"""The game master's command line.

Heavy modules (jinja2, mail, the rule modules) are imported inside the
commands that use them, so that `gm list` starts quickly.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import List, Optional

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="gm: a play-by-email game master.")
state = {"config": None}

EX_TEMPFAIL = 75


@app.callback()
def main_options(
    config: Optional[Path] = typer.Option(None, "--config", "-c", help="YAML config (default: $GM_CONFIG, ./gm.yaml, or the embedded default)"),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="log what the daemon does"),
):
    state["config"] = config
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")


def _engine():
    from gm import config as config_module
    from gm.engine import Engine
    from gm.store import Store

    try:
        conf = config_module.load(state["config"])
    except config_module.ConfigError as exc:
        _fail(str(exc))
    return Engine(Store(conf.database), conf)


def _fail(message: str, code: int = 1):
    typer.echo(f"gm: {message}", err=True)
    raise typer.Exit(code)


def _parse_pairs(values: List[str], what: str) -> list[tuple[str, str]]:
    pairs = []
    for value in values:
        if "=" not in value:
            _fail(f"{what} {value!r}: expected key=value")
        key, _, rest = value.partition("=")
        pairs.append((key.strip(), rest.strip()))
    return pairs


@app.command()
def new(
    kind: str = typer.Argument(..., help="neighbors, fuzzy-borders, phalanx, proximity, pivot-pawns"),
    game_id: str = typer.Option(..., "--id", help="a short id players will type, e.g. nb1"),
    player: List[str] = typer.Option(..., "--player", "-p", help="NAME=EMAIL, in seat order"),
    seed: Optional[int] = typer.Option(None, help="seed for every random event (default: random)"),
    option: List[str] = typer.Option([], "--option", "-o", help="game option key=value"),
):
    """Start a game and mail each player a welcome with their password."""
    from games.base import GameError
    from gm.engine import EngineError

    engine = _engine()
    try:
        engine.create_game(kind, game_id, _parse_pairs(player, "--player"), seed, dict(_parse_pairs(option, "--option")))
    except (GameError, EngineError) as exc:
        _fail(str(exc))
    typer.echo(f"game {game_id.lower()} started; welcome mails queued (see: gm outbox)")


@app.command("list")
def list_games():
    """List the games."""
    engine = _engine()
    rows = engine.store.games()
    if not rows:
        typer.echo("no games yet (start one with: gm new neighbors --id nb1 --player ...)")
        return
    for row in rows:
        latest = engine.store.latest_state(row["id"])
        names = ", ".join(p["name"] for p in engine.store.players(row["id"]))
        typer.echo(f"{row['id']:<12} {row['kind']:<14} {row['status']:<9} turn {latest['turn']:<4} {names}")


def _show_json(engine, loaded) -> dict:
    rules, st = loaded.rules, loaded.state
    over = rules.is_over(st)
    to_move = [] if over else rules.to_move(st)
    scores = rules.scores(st)
    legal = rules.legal_orders(st, to_move[0]) if len(to_move) == 1 else None
    return {
        "id": loaded.id,
        "kind": rules.kind,
        "status": loaded.row["status"],
        "turn": rules.turn(st),
        "to_move": to_move,
        "players": [{"name": p["name"], "email": p["email"], "score": scores.get(p["name"], 0)}
                    for p in loaded.players],
        "winners": rules.winners(st) if over else [],
        "legal": legal,
        "seed": loaded.row["seed"],
        "options": json.loads(loaded.row["options"]),
        "state": rules.dump(st),
    }


@app.command()
def show(game_id: str, as_json: bool = typer.Option(False, "--json", help="one JSON object")):
    """The current report as the GM sees it."""
    from gm.engine import EngineError

    engine = _engine()
    try:
        loaded = engine.load(game_id)
    except EngineError as exc:
        _fail(str(exc))
    if as_json:
        typer.echo(json.dumps(_show_json(engine, loaded), indent=2, sort_keys=True))
        return
    typer.echo(engine.report_body(loaded, loaded.state, None, []), nl=False)


@app.command()
def order(game_id: str, text: str, as_name: str = typer.Option(..., "--as", help="the player's name")):
    """Enter orders for a player (the GM's override), through the same path as mail."""
    from gm.engine import EngineError

    engine = _engine()
    try:
        outcome = engine.gm_order(game_id, as_name, text)
    except EngineError as exc:
        _fail(str(exc))
    if outcome.outcome == "rejected":
        _fail(f"refused: {outcome.detail}")
    typer.echo(f"{outcome.outcome}: {outcome.detail}")


@app.command()
def process(game_id: str):
    """Adjudicate a simultaneous turn now, with the orders that are in."""
    from gm.engine import EngineError

    engine = _engine()
    try:
        closed = engine.process(game_id)
    except EngineError as exc:
        _fail(str(exc))
    typer.echo("turn adjudicated; reports queued" if closed else "nothing to adjudicate")


@app.command()
def ingest(source: str = typer.Argument("-", help="a file with one RFC 5322 message, or - for stdin")):
    """Process one message (for procmail or an MTA pipe).  Exit 0 once stored, 75 if not."""
    try:
        raw = sys.stdin.buffer.read() if source == "-" else Path(source).read_bytes()
    except OSError as exc:
        typer.echo(f"gm: cannot read {source}: {exc}", err=True)
        raise typer.Exit(EX_TEMPFAIL)
    try:
        engine = _engine()
        outcome = engine.ingest(raw)
    except typer.Exit:
        raise typer.Exit(EX_TEMPFAIL)
    except Exception as exc:  # could not store it: let the MTA try again later
        typer.echo(f"gm: message not stored, try again later: {exc}", err=True)
        raise typer.Exit(EX_TEMPFAIL)
    typer.echo(f"{outcome.outcome}: {outcome.detail[:200]}")


@app.command()
def run(once: bool = typer.Option(False, "--once", help="process what is there, then exit")):
    """The daemon: read the mailbox, judge, report, deliver."""
    from gm import daemon

    engine = _engine()
    try:
        daemon.run(engine, engine.config, once=once)
    except KeyboardInterrupt:
        typer.echo("stopped")


@app.command()
def outbox(all_: bool = typer.Option(False, "--all", help="also list delivered mail")):
    """List queued and sent mail."""
    engine = _engine()
    sql = "SELECT * FROM outbox " + ("" if all_ else "WHERE status != 'sent' OR sent >= strftime('%s','now') - 86400 ") + "ORDER BY id"
    rows = engine.store.all(sql)
    if not rows:
        typer.echo("the outbox is empty")
    for row in rows:
        typer.echo(f"#{row['id']:<5} {row['status']:<7} {row['kind']:<8} {row['recipient']:<28} {row['subject'][:60]}")


@app.command()
def demo(seed: int = typer.Option(1, help="seed of the demo game")):
    """Play a whole Neighbors game through the inbox and outbox Maildirs."""
    from gm.demo import play_demo

    engine = _engine()
    play_demo(engine, seed, typer.echo)


def main():
    from gm import cli_admin

    cli_admin.register(app)
    app()


if __name__ == "__main__":
    main()
